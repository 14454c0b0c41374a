package clients

// This file is the data: one *Client per client, each cell with the source
// that shows it. Renders cells may carry a How that adds what the user sees;
// Degrades and Breaks cells always say how. A cell is left out (Unknown)
// where no source was found. "[inferred]" in a How marks a step the source
// does not show by itself.

// The cell constructors keep the entries short.

// renders is a Renders cell with nothing to add.
func renders(src Source) Cell { return Cell{Support: Renders, Source: src} }

// rendersHow is a Renders cell with a remark on how it looks.
func rendersHow(how string, src Source) Cell { return Cell{Support: Renders, How: how, Source: src} }

// degrades is a Degrades cell.
func degrades(how, fix string, src Source) Cell {
	return Cell{Support: Degrades, How: how, Fix: fix, Source: src}
}

// breaks is a Breaks cell that loses the field alone.
func breaks(how, fix string, src Source) Cell {
	return Cell{Support: Breaks, How: how, Fix: fix, Source: src}
}

// breaksForm is a Breaks cell that loses the whole form.
func breaksForm(how, fix string, src Source) Cell {
	return Cell{Support: Breaks, How: how, WholeForm: true, Fix: fix, Source: src}
}

// cells sets every feature in fs to c.
func cells(c Cell, fs ...Feature) map[Feature]Cell {
	m := make(map[Feature]Cell, len(fs))
	for _, f := range fs {
		m[f] = c
	}
	return m
}

// with returns m with the cells of more added (more wins).
func with(m map[Feature]Cell, more map[Feature]Cell) map[Feature]Cell {
	for f, c := range more {
		m[f] = c
	}
	return m
}

// schemaFeatures are the features a requestedSchema carries, as opposed to
// the answers (DeclineCancel) and the mode (URLMode).
var schemaFeatures = []Feature{Label, String, FormatEmail, FormatURI, FormatDate, FormatDateTime, Lengths, Pattern,
	Number, Integer, Bounds, OptionalNumber, Boolean, DefaultFalse, Enum, TitledEnum, EnumNames, MultiSelect,
	Default, Required}

// Fixes used by more than one client.
const (
	fixServerSide = "validate on the server (mcpgen's generated code does) and say the rule in the field's description"
	fixFallback   = "nothing in the form: users of this client get the tool's no-elicitation fallback"
	fixNoURL      = "offer a form or the no-URL fallback; never send a URL request to a client that did not declare url"
)

// Sources. A file at a commit or tag; cells add the #L lines.
const (
	// Claude Code is closed source: its evidence is issue threads.
	srcClaudeCodeCaps   Source = "https://github.com/anthropics/claude-code/issues/88075"
	srcClaudeCodeURL    Source = "https://github.com/anthropics/claude-code/issues/69555"
	srcClaudeCodeEnum   Source = "https://github.com/anthropics/claude-code/issues/86469"
	srcLaravelProbe     Source = "https://github.com/laravel/mcp/pull/190"
	srcClaudeCodeLog    Source = "https://github.com/anthropics/claude-code/blob/5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357/CHANGELOG.md"
	srcRmcpCaps         Source = "https://github.com/modelcontextprotocol/rust-sdk/blob/4a738b9dd99eaca418b614afa433a0cbdaf8d056/crates/rmcp/src/model/capabilities.rs"
	srcClaudeAI         Source = "https://github.com/anthropics/claude-ai-mcp/issues/153"
	srcCursor           Source = "https://github.com/modelcontextprotocol/modelcontextprotocol/pull/1396"
	srcCodexCaps        Source = "https://github.com/openai/codex/issues/29344"
	srcApify            Source = "https://github.com/apify/mcp-client-capabilities/blob/9476cfb12d9a918336af521d8cdf513db3c197b9/src/mcp_client_capabilities/mcp-clients.json"
	srcVSCodeProtocols  Source = "https://github.com/microsoft/vscode/issues/329848"
	srcVSCodeElicit     Source = "https://github.com/microsoft/vscode/blob/c8898a244f6ff86601eae92349e47b7cb4a6bfbd/src/vs/workbench/contrib/mcp/browser/mcpElicitationService.ts"
	srcVSCodeCaps       Source = "https://github.com/microsoft/vscode/blob/c5308376f79a19368c9bd9dccc81090aa1bfcb79/src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts"
	srcCodexTUI         Source = "https://github.com/openai/codex/blob/073480b9ca7d40d18f25d8d3cb3b93ddf486dcba/codex-rs/tui/src/bottom_pane/mcp_server_elicitation.rs"
	srcCodexSchema      Source = "https://github.com/openai/codex/blob/e5c5f0dca5345d8c3e611d4fdaeb2de8b6bdd08c/codex-rs/app-server-protocol/src/protocol/v2/mcp.rs"
	srcInspectorForm    Source = "https://github.com/modelcontextprotocol/inspector/blob/86d5f58ec8c369839b8237455ad8b1c17b15a984/clients/web/src/components/groups/SchemaForm/SchemaForm.tsx"
	srcInspectorPanel   Source = "https://github.com/modelcontextprotocol/inspector/blob/86d5f58ec8c369839b8237455ad8b1c17b15a984/clients/web/src/components/groups/ElicitationFormPanel/ElicitationFormPanel.tsx"
	srcInspectorApp     Source = "https://github.com/modelcontextprotocol/inspector/blob/86d5f58ec8c369839b8237455ad8b1c17b15a984/clients/web/src/App.tsx"
	srcInspectorCore    Source = "https://github.com/modelcontextprotocol/inspector/blob/86d5f58ec8c369839b8237455ad8b1c17b15a984/core/mcp/inspectorClient.ts"
	srcInspectorCLI     Source = "https://github.com/modelcontextprotocol/inspector/blob/86d5f58ec8c369839b8237455ad8b1c17b15a984/clients/cli/src/cli.ts"
	srcInspectorV1Conn  Source = "https://github.com/modelcontextprotocol/inspector/blob/9d74acf52689b479f2dc87ae0deb0dfa8af1213f/client/src/lib/hooks/useConnection.ts"
	srcInspectorV1Form  Source = "https://github.com/modelcontextprotocol/inspector/blob/9d74acf52689b479f2dc87ae0deb0dfa8af1213f/client/src/components/DynamicJsonForm.tsx"
	srcInspectorV1Req   Source = "https://github.com/modelcontextprotocol/inspector/blob/9d74acf52689b479f2dc87ae0deb0dfa8af1213f/client/src/components/ElicitationRequest.tsx"
	srcInspectorV1Pkg   Source = "https://github.com/modelcontextprotocol/inspector/blob/9d74acf52689b479f2dc87ae0deb0dfa8af1213f/client/package.json"
	srcInspectorV1Utils Source = "https://github.com/modelcontextprotocol/inspector/blob/9d74acf52689b479f2dc87ae0deb0dfa8af1213f/client/src/utils/schemaUtils.ts"
	srcGooseForm        Source = "https://github.com/block/goose/blob/414c29b7924251bc89ab5711fb46dece912bc25c/ui/desktop/src/components/ui/JsonSchemaForm.tsx"
	srcGooseCard        Source = "https://github.com/block/goose/blob/154bf8ab399b523c2703f917205d00bf8c89e588/ui/desktop/src/components/ElicitationRequest.tsx"
	srcGooseClient      Source = "https://github.com/block/goose/blob/01aaa8214543455f7a1ba3c2e3099a996bcb7b3b/crates/goose/src/agents/mcp_client.rs"
	srcGooseCLI         Source = "https://github.com/block/goose/blob/0de0a328ff450533f6f0769d1162ebbc637a1b2f/crates/goose-cli/src/session/elicitation.rs"
	srcFastAgentForm    Source = "https://github.com/evalstate/fast-agent/blob/v0.10.9/src/fast_agent/ui/elicitation_form.py"
	srcFastAgentHandler Source = "https://github.com/evalstate/fast-agent/blob/v0.10.9/src/fast_agent/mcp/elicitation_handlers.py"
	srcGemini           Source = "https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/packages/core/src/tools/mcp-client.ts"
	srcCline            Source = "https://github.com/cline/cline/blob/21cb8d2525bcedf1f4b6890b27a74a14fe7451e4/apps/vscode/src/services/mcp/McpHub.ts"
	srcContinue         Source = "https://github.com/continuedev/continue/blob/d0a3c0b626b5bebc3bef4742eec05a0242be0bab/core/context/mcp/MCPConnection.ts"
	srcContinuePkg      Source = "https://github.com/continuedev/continue/blob/d0a3c0b626b5bebc3bef4742eec05a0242be0bab/core/package.json"
	srcTS1Client        Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/v1.29.0/src/client/index.ts"
	srcTS1Types         Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/v1.29.0/src/types.ts"
	srcTS1Protocol      Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/v1.29.0/src/shared/protocol.ts"
	srcTS2Client        Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/cc4b41617ce3601b1290d67216ea0b194a3cd9ac/packages/client/src/client/client.ts"
	srcTS2Negotiation   Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/cc4b41617ce3601b1290d67216ea0b194a3cd9ac/packages/client/src/client/versionNegotiation.ts"
	srcTS2Schemas       Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/cc4b41617ce3601b1290d67216ea0b194a3cd9ac/packages/core-internal/src/wire/rev2025-11-25/buildSchemas.ts"
	srcTS2Pattern       Source = "https://github.com/modelcontextprotocol/typescript-sdk/pull/1999"
	srcTS123Types       Source = "https://github.com/modelcontextprotocol/typescript-sdk/blob/1.23.0/src/types.ts"
	srcPySession        Source = "https://github.com/modelcontextprotocol/python-sdk/blob/v2.0.0/src/mcp/client/session.py"
	srcPyClient         Source = "https://github.com/modelcontextprotocol/python-sdk/blob/v2.0.0/src/mcp/client/client.py"
	srcPyTypes          Source = "https://github.com/modelcontextprotocol/python-sdk/blob/v2.0.0/src/mcp-types/mcp_types/_types.py"
	srcPyVersions       Source = "https://github.com/modelcontextprotocol/python-sdk/blob/v2.0.0/src/mcp-types/mcp_types/version.py"
	srcGoSDKClient      Source = "https://github.com/modelcontextprotocol/go-sdk/blob/v1.8.0/mcp/client.go"
	srcGoSDKShared      Source = "https://github.com/modelcontextprotocol/go-sdk/blob/v1.8.0/mcp/shared.go"
	srcMcpGoProtocol    Source = "https://github.com/mark3labs/mcp-go/blob/v1.2.1/client/protocol.go"
	srcMcpGoClient      Source = "https://github.com/mark3labs/mcp-go/blob/v1.2.1/client/client.go"
	srcMcpGoTypes       Source = "https://github.com/mark3labs/mcp-go/blob/v1.2.1/mcp/types.go"
	srcMcpGoVersion     Source = "https://github.com/mark3labs/mcp-go/blob/v1.2.1/mcp/version.go"
)

func init() {
	All = []*Client{
		claudeCode(), vsCode(), cursor(), codex(), inspectorWeb(), gooseDesktop(),
		inspectorV1(), gooseCLI(), fastAgent(),
		claudeDesktop(), geminiCLI(), cline(), continueDev(), windsurf(), zed(), inspectorCLI(),
		tsSDK1(), tsClient2(), pythonSDK(), goSDK(), mcpGo(),
	}
}

func claudeCode() *Client {
	probe := srcLaravelProbe
	return &Client{
		ID: "claude-code", Name: "Claude Code", Version: "2.1.261 (capabilities); fields probed 2026-05-16",
		Widely: true, Kind: App,
		Form: rendersHow("declares elicitation: {} (form only), in initialize and, on 2026-07-28, in every request's _meta", srcClaudeCodeCaps),
		URL: breaks("declares no url: 2.1.259 to 2.1.261 send elicitation: {} (2.1.241 sent {form: {}})",
			fixNoURL, srcClaudeCodeCaps),
		Protocols:       []string{"2026-07-28", "2025-11-25"},
		ProtocolsHow:    "initialize at 2025-11-25, or the 2026-07-28 per-request _meta with a server that speaks it",
		ProtocolsSource: srcClaudeCodeCaps,
		Features: map[Feature]Cell{
			String:      renders(probe),
			Lengths:     rendersHow("the field renders; whether minLength is enforced was not reported", probe),
			FormatEmail: rendersHow("the field renders; whether the address is checked was not reported", probe),
			Number:      renders(probe),
			Integer:     renders(probe),
			Bounds:      renders(probe),
			Boolean:     renders(probe),
			Enum:        rendersHow("the options stay collapsed until the user presses → (2.1.223)", srcClaudeCodeEnum),
			TitledEnum:  renders(probe),
			MultiSelect: rendersHow("collapsed like a single select until → is pressed", srcClaudeCodeEnum),
			Default:     rendersHow("defaults are pre-filled", probe),
			URLMode: breaks("URL requests are refused with -32602 \"Client does not support URL-mode elicitation requests\"; 2.1.87 declared url but answered every URL request with cancel",
				fixNoURL, srcClaudeCodeURL),
			DeclineCancel: rendersHow("the form has Accept and Decline, always visible since 2.1.239; which key sends cancel is not stated", srcClaudeCodeLog+"#L22"),
		},
		Look: &Look{
			Layout:  "a dialog in the terminal; tall forms scroll (2.1.239)",
			Buttons: []Button{{"Accept", ActionAccept}, {"Decline", ActionDecline}},
			Source:  srcClaudeCodeLog + "#L22",
		},
		Notes: []string{
			"Field cells come from a probe of 12 forms over HTTP and stdio (laravel/mcp#190): every kind rendered, defaults pre-filled; whether formats and lengths are checked was not reported. Labels, pattern and the key that cancels have no source.",
			"Some hosts of Claude Code declare no elicitation: the Desktop app's Code tab presents local stdio servers a client that declares none (anthropics/claude-code#96043), and 2.1.163 inside another agent's session declared none (anthropics/claude-code#65572).",
		},
	}
}

func vsCode() *Client {
	s := srcVSCodeElicit
	return &Client{
		ID: "vscode", Name: "VS Code (GitHub Copilot Chat)", Version: "main @c8898a2 (form); 1.132.0 (protocols)",
		Widely: true, Kind: App,
		Form:      rendersHow("declares elicitation: {form: {}, url: {}} (and tasks.requests.elicitation.create) when an elicitation handler is wired", srcVSCodeCaps),
		URL:       rendersHow("declared with form", srcVSCodeCaps),
		Protocols: []string{"2025-11-25"},
		ProtocolsHow: "initialize only, at the bundled schema's LATEST_PROTOCOL_VERSION (2025-11-25 [inferred]); " +
			"1.132.0 cannot reach a 2026-07-28-only server: it falls back to legacy SSE and gets 405",
		ProtocolsSource: srcVSCodeProtocols,
		Features: map[Feature]Cell{
			Label:       rendersHow("title, else the key, as the picker's title; the description is the placeholder", s),
			String:      rendersHow("a quick pick's text box, one field per step", s),
			FormatEmail: rendersHow("checked only for an @", s),
			FormatURI:   rendersHow("checked with URL.canParse", s),
			FormatDate:  rendersHow("checked as YYYY-MM-DD", s),
			FormatDateTime: degrades("anything JavaScript's Date parses passes, with or without a time zone (\"Dec 6 2026\" too)",
				fixServerSide, s),
			Lengths:        renders(s),
			Pattern:        degrades("not checked: any text passes", fixServerSide, s),
			Number:         renders(s),
			Integer:        renders(s),
			Bounds:         renders(s),
			OptionalNumber: rendersHow("an optional field offers \"None\", which leaves it out", s),
			Boolean:        rendersHow("a true/false pick list", s),
			DefaultFalse: degrades("default false is not preselected (the code tests the default for truth), so the user must pick",
				"none needed; the user still picks", s),
			Enum: renders(s),
			TitledEnum: degrades("each option shows its const as the label and its title as grey description text",
				"make consts readable (they are what the user reads), or explain the choice in the field's description", s),
			EnumNames: degrades("the raw value is the label; the enumName is grey description text",
				"make the values readable", s),
			MultiSelect: rendersHow("a multi-pick list; default values are pre-picked", s),
			Default: degrades("a string or number default is a separate \"Default value\" item, not typed into the box; a falsy default (0, \"\") is not offered; a select's default is the highlighted item",
				"none needed; the default is one pick away", s),
			Required: rendersHow("an optional field gets \"(Optional)\" and a \"None\" item; a required one cannot be skipped", s),
			DeclineCancel: degrades("the chat card's \"Cancel\" button sends decline; closing the field picker (Esc) or the notification sends cancel",
				"treat decline and cancel alike unless the difference matters to the tool", s),
			URLMode: rendersHow("an \"Authorization Required\" card with an \"Open <host>\" button: accept once the URL opened, decline if not; the card stays until notifications/elicitation/complete with the same elicitationId", s),
		},
		Look: &Look{
			Layout:     "a chat card \"Request for Input\" with Respond and Cancel; Respond opens a quick pick, one field per step",
			FieldLabel: LabelTitle, OptionLabel: LabelConst,
			Buttons: []Button{{"Respond", ActionAccept}, {"Cancel", ActionDecline}, {"Esc (in the picker)", ActionCancel}},
			Source:  s,
		},
		Notes: []string{
			"The form is a wizard: the chat card's Respond opens one quick pick per field (\"step i/N\") with a Back button; the answer is sent after the last step.",
		},
	}
}

func cursor() *Client {
	return &Client{
		ID: "cursor", Name: "Cursor", Version: "1.5 (2025-08)", Widely: true, Kind: App,
		Form: rendersHow("elicitation prompts appear inline with tool calls (tested on Cursor in 2025-08; elicitation arrived in 1.5)", srcCursor),
		URL: breaks("recorded as declaring elicitation: {} (form only) in a community list of client capabilities (2026-02)",
			fixNoURL, srcApify+"#L128-L139"),
		Protocols:       []string{"2025-06-18"},
		ProtocolsHow:    "initialize at 2025-06-18, as recorded by the same list",
		ProtocolsSource: srcApify + "#L128-L139",
		Notes: []string{
			"Cursor is closed source and no field-level probe was found: every feature is unknown.",
		},
	}
}

func codex() *Client {
	t, probe, schema := srcCodexTUI, srcLaravelProbe, srcCodexSchema
	numbers := breaksForm("number and integer fields are not rendered: the whole form falls back to an approve/deny prompt with no fields, so an accept carries none of the values",
		"ask for the number in a string field and parse it on the server", probe)
	plain := degrades("plain text; the format is not checked (the string branch reads no format)", fixServerSide, t)
	return &Client{
		ID: "codex", Name: "OpenAI Codex CLI", Version: "main @073480b (TUI form); default build of 2026-06 (capabilities)",
		Widely: true, Kind: App,
		Form: rendersHow("a default build declares elicitation: {} (form only)", srcCodexCaps),
		URL: breaks("url is declared only with the under-development auth_elicitation feature, which a default build leaves off",
			fixNoURL, srcCodexCaps),
		Features: map[Feature]Cell{
			Label:          rendersHow("title, else the key; the description is the prompt under it", t),
			String:         rendersHow("a text composer, one field at a time", t),
			FormatEmail:    degrades("plain text; the address is not checked", fixServerSide, probe),
			FormatURI:      plain,
			FormatDate:     plain,
			FormatDateTime: plain,
			Lengths:        degrades("minLength is not enforced", fixServerSide, probe),
			Pattern: breaksForm("the typed schema denies keys it does not know and has no pattern, so the property fails to parse and the whole form falls back to the approve/deny prompt [inferred from the source]",
				"leave pattern out of the schema sent to clients; validate it on the server", schema),
			Number:         numbers,
			Integer:        numbers,
			Bounds:         numbers,
			OptionalNumber: numbers,
			Boolean:        rendersHow("a True/False list; the default is preselected", t),
			DefaultFalse:   renders(t),
			Enum:           rendersHow("a numbered list", t),
			TitledEnum:     rendersHow("the titles label the options", t),
			EnumNames:      rendersHow("enumNames label the options", t),
			MultiSelect: breaksForm("as for numbers: the whole form falls back to an approve/deny prompt with no fields",
				"ask one boolean per option, or a single select", probe),
			Default: degrades("select and boolean defaults are preselected; a string field starts empty (the text branch keeps no default; a probe saw it missing over HTTP but shown over stdio, laravel/mcp#190)",
				"say the default in the description; treat an empty answer as the default on the server", t),
			Required: rendersHow("\"Field i/N (k required unanswered)\"; submitting with one empty shows \"Answer required fields before submitting.\"", t),
			DeclineCancel: degrades("a form has no Decline: Esc sends cancel; only the field-less approve/deny prompt offers Deny (decline)",
				"read cancel as \"not now\", not as an error", t),
			URLMode: breaks("not declared in a default build (see url)", fixNoURL, srcCodexCaps),
		},
		Look: &Look{
			Layout:     "an overlay over the composer, one field at a time, \"Field i/N\" at the top",
			FieldLabel: LabelTitle, OptionLabel: LabelTitle,
			Buttons: []Button{{"Enter (submit)", ActionAccept}, {"Esc", ActionCancel}},
			Source:  t,
		},
		Notes: []string{
			"Codex is the client where a form most often disappears: one number, integer, multi-select or pattern anywhere turns the whole form into an approve/deny prompt (laravel/mcp#190 saw it for numbers and multi-selects).",
			"The release number of the TUI build read is not known; the capability cells are from openai/codex#29344 (2026-06).",
		},
	}
}

func inspectorWeb() *Client {
	f, p := srcInspectorForm, srcInspectorPanel
	text := degrades("a plain text box; the format is neither shown nor checked", fixServerSide, f+"#L606-L627")
	return &Client{
		ID: "inspector-web", Name: "MCP Inspector (web, v2)", Version: "2.3.0", Widely: true, Kind: App,
		Form:            rendersHow("declares elicitation {form, url}", srcInspectorApp+"#L2412"),
		URL:             rendersHow("declared with form", srcInspectorApp+"#L2412"),
		Protocols:       []string{"2026-07-28", "2025-11-25"},
		ProtocolsHow:    "legacy initialize (2025-11-25) by default; 2026-07-28 only when the server's protocol era is set to auto or modern",
		ProtocolsSource: srcInspectorCore + "#L636",
		Features: map[Feature]Cell{
			Label:          rendersHow("title, else the key", f+"#L563"),
			String:         renders(f + "#L606-L627"),
			FormatEmail:    text,
			FormatURI:      text,
			FormatDate:     text,
			FormatDateTime: text,
			Lengths: degrades("set only as the text box's minLength/maxLength attributes; Submit checks required fields and number drafts, not lengths",
				fixServerSide, f+"#L606-L627"),
			Pattern:        degrades("not shown or checked", fixServerSide, f+"#L606-L627"),
			Number:         renders(f + "#L631-L657"),
			Integer:        rendersHow("decimals are blocked", f+"#L631-L657"),
			Bounds:         renders(f + "#L631-L657"),
			OptionalNumber: renders(f + "#L631-L657"),
			Boolean:        rendersHow("a checkbox", f+"#L660-L673"),
			DefaultFalse:   renders(f + "#L660-L673"),
			Enum:           renders(f + "#L568-L582"),
			TitledEnum:     rendersHow("title, else the const, labels each option", f+"#L585-L603"),
			EnumNames:      rendersHow("used as labels when there are as many as values", f+"#L51-L59"),
			MultiSelect:    renders(f + "#L680-L715"),
			Default:        rendersHow("pre-filled from the schema's default", f+"#L475-L490"),
			Required:       rendersHow("an asterisk; Submit stays disabled while a required field is empty", p+"#L95-L98"),
			DeclineCancel:  rendersHow("Cancel, Decline and Submit buttons", p+"#L114-L124"),
			URLMode:        rendersHow("declared; URL requests get their own panel", srcInspectorApp+"#L2412"),
		},
		Look: &Look{
			Layout:     "a modal: the quoted message, the fields, a warning naming the server, then the buttons",
			FieldLabel: LabelTitle, OptionLabel: LabelTitle,
			Buttons: []Button{{"Cancel", ActionCancel}, {"Decline", ActionDecline}, {"Submit", ActionAccept}},
			Source:  p + "#L100-L126",
		},
		Notes: []string{
			"On 2026-07-28 the requests of each input_required round are shown in the same modal as a legacy request; the Inspector then retries the call with the answers, for at most 10 rounds (core/mcp/inspectorClient.ts L2868-L2880 at 2.3.0).",
		},
	}
}

func gooseDesktop() *Client {
	f := srcGooseForm
	plain := degrades("a plain text box; the format is not checked", fixServerSide, f)
	return &Client{
		ID: "goose-desktop", Name: "Goose (desktop)", Version: "block/goose, form @414c29b, card @154bf8a, client @01aaa82",
		Widely: true, Kind: App,
		Form: rendersHow("declares elicitation through rmcp's enable_elicitation() (the exact JSON was not checked)", srcGooseClient),
		URL: breaks("[inferred] rmcp's enable_elicitation() sets ElicitationCapability::default(), which serializes as {} (form only); the rmcp version Goose builds with was not checked",
			fixNoURL, srcRmcpCaps+"#L313-L320"),
		Protocols:       []string{"2025-03-26"},
		ProtocolsHow:    "asks for 2025-03-26 in initialize (ProtocolVersion::V_2025_03_26 in get_info)",
		ProtocolsSource: srcGooseClient,
		Features: map[Feature]Cell{
			Label: degrades("the property key is the label; title is not read",
				"make property keys readable, since Goose shows them", f),
			String:         renders(f),
			FormatEmail:    plain,
			FormatURI:      plain,
			FormatDate:     plain,
			FormatDateTime: plain,
			Lengths:        rendersHow("checked on Submit", f),
			Pattern:        degrades("ignored", fixServerSide, f),
			Number:         renders(f),
			Integer:        renders(f),
			Bounds:         rendersHow("checked on Submit", f),
			OptionalNumber: breaks("an untouched number field starts at its minimum (or 0) and is sent, so the tool gets a number the user never chose",
				"give an optional number a default the tool can tell apart, or make it required", f),
			Boolean: degrades("a checkbox labelled with the description (or key); it starts unchecked and is always sent, so an untouched optional boolean arrives as false",
				"give booleans a default", f),
			DefaultFalse: renders(f),
			Enum:         rendersHow("a select of the raw values", f),
			TitledEnum: breaks("oneOf is not read: the field is a free text box, and the user must type the const",
				"prefer a plain enum whose values read well", f),
			EnumNames: degrades("ignored; the raw values are shown", "make the values readable", f),
			MultiSelect: breaks("an array is a free text box and is sent as a string, not an array",
				"ask one boolean per option", f),
			Default:  rendersHow("pre-filled", f),
			Required: rendersHow("a red asterisk; \"This field is required\" on Submit", f),
			DeclineCancel: degrades("the card has only Submit (Accept for a form with no fields): no Decline or Cancel; an unanswered card expires after 300 s and the request fails",
				"expect no decline from Goose; treat a failed elicitation as cancel", srcGooseCard),
		},
		Look: &Look{
			Layout:     "an inline card in the chat with a 5-minute countdown",
			FieldLabel: LabelKey, OptionLabel: LabelConst,
			Buttons: []Button{{"Submit", ActionAccept}},
			Source:  srcGooseCard,
		},
		Notes: []string{
			"The field widgets are from the only stored version of JsonSchemaForm.tsx (@414c29b), the card that hosts them from @154bf8a; the desktop may have changed since.",
			"A URL request, if a server sends one anyway, takes the same action-required path as a form, with {url} as the schema (crates/goose/src/agents/mcp_client.rs @01aaa82); how the card shows it was not checked.",
		},
	}
}

func inspectorV1() *Client {
	f, r := srcInspectorV1Form, srcInspectorV1Req
	return &Client{
		ID: "inspector-v1", Name: "MCP Inspector (v1)", Version: "1.0.1", Kind: App,
		Form:            rendersHow("declares elicitation {form, url}", srcInspectorV1Conn+"#L451-L454"),
		URL:             rendersHow("declared with form", srcInspectorV1Conn+"#L451-L454"),
		Protocols:       []string{"2025-11-25"},
		ProtocolsHow:    "initialize through @modelcontextprotocol/sdk ^1.25.2, whose latest version is 2025-11-25 [inferred]",
		ProtocolsSource: srcInspectorV1Pkg + "#L36",
		Features: map[Feature]Cell{
			Label:       rendersHow("title, else the key; an asterisk when required", f+"#L580-L585"),
			String:      renders(f + "#L443-L458"),
			FormatEmail: rendersHow("an email input; checked on Accept", f+"#L425-L440"),
			FormatURI:   rendersHow("a url input", f+"#L425-L440"),
			FormatDate:  rendersHow("a date picker", f+"#L425-L440"),
			FormatDateTime: breaks("a datetime-local picker, which gives 2026-12-06T10:30 (no seconds, no zone); Accept then runs Ajv 6, whose date-time format needs both, so the form cannot be submitted [inferred from the source]",
				"ask for a date and a time in separate fields, or a plain string with the format in the description", f+"#L425-L440"),
			Lengths: rendersHow("checked by Ajv on Accept", r+"#L213-L221"),
			Pattern: degrades("the input's pattern attribute is wired, but the SDK's request schema has no pattern key, so it is dropped before the form sees it [inferred]",
				fixServerSide, f+"#L456"),
			Number:         rendersHow("checked by Ajv on Accept", r+"#L213-L221"),
			Integer:        rendersHow("checked by Ajv on Accept", r+"#L213-L221"),
			Bounds:         rendersHow("checked by Ajv on Accept", r+"#L213-L221"),
			OptionalNumber: rendersHow("an empty number box leaves the field out", f+"#L461-L496"),
			Boolean:        rendersHow("a checkbox", f+"#L536-L551"),
			DefaultFalse:   renders(srcInspectorV1Utils + "#L94-L96"),
			Default: rendersHow("pre-filled from the schema's default; a required number without one starts at 0, a required boolean at false",
				srcInspectorV1Utils+"#L89-L129"),
			Enum:          renders(f + "#L388-L410"),
			EnumNames:     rendersHow("enumNames label the options", f+"#L388-L410"),
			TitledEnum:    rendersHow("title, else the const, labels each option", f+"#L347-L384"),
			MultiSelect:   renders(f + "#L604-L622"),
			Required:      rendersHow("an asterisk; Accept reports \"Required field missing\"", r+"#L179-L187"),
			DeclineCancel: rendersHow("distinct Decline and Cancel answers", r+"#L234-L240"),
			URLMode:       rendersHow("an Open URL button behind a confirmation dialog, plus Accept, Decline and Cancel", r+"#L86-L151"),
		},
		Look: &Look{
			Layout:     "a panel with the message, the form and its buttons",
			FieldLabel: LabelTitle, OptionLabel: LabelTitle,
			Source: f + "#L580-L585",
		},
	}
}

func gooseCLI() *Client {
	e := srcGooseCLI
	return &Client{
		ID: "goose-cli", Name: "Goose (CLI)", Version: "block/goose, prompts @0de0a32, client @01aaa82", Kind: App,
		Form: rendersHow("declares elicitation through rmcp's enable_elicitation() (the exact JSON was not checked)", srcGooseClient),
		URL: breaks("[inferred] rmcp's enable_elicitation() sets ElicitationCapability::default(), which serializes as {} (form only); the rmcp version Goose builds with was not checked",
			fixNoURL, srcRmcpCaps+"#L313-L320"),
		Protocols:       []string{"2025-03-26"},
		ProtocolsHow:    "asks for 2025-03-26 in initialize (ProtocolVersion::V_2025_03_26 in get_info)",
		ProtocolsSource: srcGooseClient,
		Features: map[Feature]Cell{
			Label: degrades("the property key, with the description in parentheses; title is not shown",
				"make property keys readable", e),
			String:         rendersHow("a line prompt", e),
			FormatEmail:    degrades("a plain line; not checked", fixServerSide, e),
			FormatURI:      degrades("a plain line; not checked", fixServerSide, e),
			FormatDate:     degrades("a plain line; not checked", fixServerSide, e),
			FormatDateTime: degrades("a plain line; not checked", fixServerSide, e),
			Lengths:        degrades("not checked", fixServerSide, e),
			Pattern:        degrades("ignored", fixServerSide, e),
			Number:         degrades("typed as text; input that does not parse is dropped", fixServerSide, e),
			Integer:        degrades("typed as text; input that does not parse as an integer is dropped", fixServerSide, e),
			Bounds:         degrades("not checked", fixServerSide, e),
			OptionalNumber: rendersHow("an empty line leaves it out (or takes the default)", e),
			Boolean:        rendersHow("a yes/no toggle; the default is preselected", e),
			DefaultFalse:   renders(e),
			Enum:           rendersHow("a one-field form gets an arrow-key menu; with several fields the options are printed and the user types a value or its number", e),
			TitledEnum: degrades("titles show only on a one-field form; with several fields the options are not listed and the user must type the const",
				"prefer a plain enum whose values read well", e),
			EnumNames:   degrades("ignored; the raw values are shown", "make the values readable", e),
			MultiSelect: breaks("the answer is sent as a string, not an array", "ask one boolean per option", e),
			Default:     rendersHow("shown in brackets; an empty line takes it", e),
			Required: breaksForm("leaving a required field empty ends the whole form with decline, without asking again",
				"on decline, say what was needed and offer to ask again", e),
			DeclineCancel: degrades("a form with fields has no decline key: Ctrl-C or end of input sends cancel; decline comes only from an empty required field or \"no\" to a field-less approval prompt",
				"read decline from Goose as possibly \"left a required field empty\"", e),
		},
		Look: &Look{
			Layout:     "line prompts in the terminal, one field after another",
			FieldLabel: LabelKey,
			Buttons:    []Button{{"Enter (after the last field)", ActionAccept}, {"Ctrl-C", ActionCancel}},
			Source:     e,
		},
		Notes: []string{
			"An older version of the same file (@8e934140) re-asked empty required fields and had no decline at all; which one a given Goose release ships was not checked.",
		},
	}
}

func fastAgent() *Client {
	f := srcFastAgentForm
	return &Client{
		ID: "fast-agent", Name: "fast-agent", Version: "0.10.9", Kind: App,
		Form: rendersHow("[inferred] fast-agent 0.10.9 pins mcp==2.0.0, whose ClientSession declares form and url whenever an elicitation callback is set",
			srcPySession+"#L596-L599"),
		URL: rendersHow("[inferred] declared with form by mcp==2.0.0", srcPySession+"#L596-L599"),
		Features: map[Feature]Cell{
			Label:       rendersHow("title, else the key; \" *\" when required; the description and hints after it", f+"#L577-L601"),
			String:      renders(f + "#L693-L727"),
			FormatEmail: rendersHow("checked with pydantic's EmailStr", f+"#L130-L139"),
			FormatURI:   rendersHow("checked with pydantic's AnyUrl", f+"#L130-L139"),
			FormatDate:  rendersHow("checked with date.fromisoformat", f+"#L130-L139"),
			FormatDateTime: degrades("checked with Python's datetime.fromisoformat, which accepts a value without a time zone",
				fixServerSide, f+"#L130-L139"),
			Lengths: rendersHow("checked as the user types (not when a format is set too)", f+"#L643-L660"),
			Pattern: degrades("checked with Python's re.fullmatch: the whole value must match, where a JSON Schema pattern may match anywhere in it",
				"anchor patterns with ^…$ so both readings agree", f+"#L93-L127"),
			OptionalNumber: rendersHow("an empty box leaves the field out", f+"#L847-L858"),
			Number:         renders(f + "#L60-L90"),
			Integer:        renders(f + "#L60-L90"),
			Bounds:         renders(f + "#L60-L90"),
			Boolean: degrades("a \"Yes\" checkbox; its value is always sent, so an untouched optional boolean arrives as false",
				"give booleans a default", f+"#L839-L840"),
			DefaultFalse:  renders(f + "#L603-L609"),
			Enum:          rendersHow("a radio list", f+"#L744-L760"),
			TitledEnum:    rendersHow("titles label the options", f+"#L445-L474"),
			EnumNames:     rendersHow("enumNames label the options", f+"#L476-L485"),
			MultiSelect:   rendersHow("a checkbox list; minItems and maxItems are checked", f+"#L623-L641"),
			Default:       rendersHow("pre-filled", f+"#L709-L711"),
			Required:      rendersHow("\"'<title>' is required\" on submit", f+"#L797-L806"),
			DeclineCancel: rendersHow("Accept, Decline, Cancel and Cancel All buttons", f+"#L248-L267"),
			URLMode: degrades("the URL is printed (or queued for display) and accept is sent at once, without asking the user",
				"don't read accept as consent; wait for the completion the URL flow itself reports", srcFastAgentHandler+"#L191-L221"),
		},
		Look: &Look{
			Layout:     "a full-screen terminal form",
			FieldLabel: LabelTitle, OptionLabel: LabelTitle,
			Buttons: []Button{{"Accept", ActionAccept}, {"Decline", ActionDecline}, {"Cancel", ActionCancel}, {"Cancel All", ActionCancel}},
			Source:  f + "#L248-L267",
		},
		Notes: []string{
			"Its protocol versions were not checked: mcp==2.0.0's Client probes server/discover (2026-07-28) before initialize, but whether fast-agent connects through it was not read.",
		},
	}
}

func claudeDesktop() *Client {
	none := breaks("declares no elicitation: claude.ai and the Desktop app do not support it (feature request open since 2026-04)", fixFallback, srcClaudeAI)
	return &Client{
		ID: "claude-desktop", Name: "Claude Desktop / claude.ai", Version: "2026-09 (Desktop 2.2553.1)", Kind: App,
		Form: none, URL: none,
		Notes: []string{
			"The Desktop app's Code tab presents local stdio servers a client named local-agent-mode-<server> that declares no elicitation (anthropics/claude-code#96043).",
		},
	}
}

func geminiCLI() *Client {
	none := breaks("declares only the roots capability", fixFallback, srcGemini+"#L1857-L1861")
	return &Client{
		ID: "gemini-cli", Name: "Gemini CLI", Version: "0.56.0-nightly.20260822 (@5411f11)", Kind: App,
		Form: none, URL: none,
		Protocols:       []string{"2025-06-18"},
		ProtocolsHow:    "[inferred] it pins @modelcontextprotocol/sdk 1.23.0, whose latest protocol version is 2025-06-18",
		ProtocolsSource: srcTS123Types + "#L4",
	}
}

func cline() *Client {
	none := breaks("declares no capabilities (capabilities: {})", fixFallback, srcCline+"#L464-L472")
	return &Client{
		ID: "cline", Name: "Cline", Version: "4.1.13 (@21cb8d2)", Kind: App,
		Form: none, URL: none,
		Protocols:       []string{"2025-11-25"},
		ProtocolsHow:    "[inferred] initialize through @modelcontextprotocol/sdk ^1.25.1, whose latest protocol version is 2025-11-25",
		ProtocolsSource: "https://github.com/cline/cline/blob/21cb8d2525bcedf1f4b6890b27a74a14fe7451e4/apps/vscode/package.json#L471",
	}
}

func continueDev() *Client {
	none := breaks("declares no capabilities (capabilities: {})", fixFallback, srcContinue+"#L88-L96")
	return &Client{
		ID: "continue", Name: "Continue", Version: "main @d0a3c0b (2026-06, after 1.3.40)", Kind: App,
		Form: none, URL: none,
		Protocols:       []string{"2025-11-25"},
		ProtocolsHow:    "[inferred] initialize through @modelcontextprotocol/sdk ^1.25.2, whose latest protocol version is 2025-11-25",
		ProtocolsSource: srcContinuePkg + "#L67",
	}
}

func windsurf() *Client {
	none := breaks("recorded with no elicitation capability", fixFallback, srcApify+"#L324-L341")
	return &Client{
		ID: "windsurf", Name: "Windsurf", Version: "as recorded 2026-02", Kind: App,
		Form: none, URL: none,
		Protocols:       []string{"2025-03-26"},
		ProtocolsHow:    "initialize at 2025-03-26, as recorded",
		ProtocolsSource: srcApify + "#L324-L341",
		Notes: []string{
			"Closed source; the only evidence is a community list of the capabilities clients send (apify/mcp-client-capabilities, 2026-02). A newer build may differ.",
		},
	}
}

func zed() *Client {
	none := breaks("recorded with no elicitation capability", fixFallback, srcApify+"#L350-L356")
	return &Client{
		ID: "zed", Name: "Zed", Version: "as recorded 2026-02", Kind: App,
		Form: none, URL: none,
		Protocols:       []string{"2025-03-26"},
		ProtocolsHow:    "initialize at 2025-03-26, as recorded",
		ProtocolsSource: srcApify + "#L350-L356",
		Notes: []string{
			"The evidence is a community list of the capabilities clients send (apify/mcp-client-capabilities, 2026-02); Zed's own source was too large to read here. A newer build may differ.",
		},
	}
}

func inspectorCLI() *Client {
	none := breaks("created with elicit: false, so it declares no elicitation", fixFallback, srcInspectorCLI+"#L155")
	return &Client{
		ID: "inspector-cli", Name: "MCP Inspector (CLI)", Version: "2.3.0", Kind: App,
		Form: none, URL: none,
	}
}

// passThrough is the cell of a library that hands a feature to the app's
// handler as it came (Renders, for a Library).
func passThrough(src Source) Cell { return renders(src) }

func tsSDK1() *Client {
	c := srcTS1Client
	pass := passThrough(srcTS1Types + "#L1848-L1976")
	return &Client{
		ID: "ts-sdk-v1", Name: "TypeScript SDK 1.x client (@modelcontextprotocol/sdk)", Version: "1.29.0",
		Widely: true, Kind: Library,
		Form: rendersHow("declares what the app sets in its capabilities; elicitation: {} counts as form", c+"#L125-L141"),
		URL: breaks("declared only when the app sets elicitation.url; otherwise a URL request gets -32602 \"Client does not support URL-mode elicitation requests\"",
			fixNoURL, c+"#L373-L381"),
		Protocols:       []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"},
		ProtocolsHow:    "initialize only, offering 2025-11-25",
		ProtocolsSource: srcTS1Types + "#L4-L6",
		Features: with(cells(pass, schemaFeatures...), map[Feature]Cell{
			Pattern: degrades("the request is parsed with a zod object that has no pattern key, which drops it before the app's handler runs [inferred: zod objects strip unknown keys]",
				fixServerSide, srcTS1Types+"#L1862-L1870"),
			Default:       rendersHow("passed; filled into an accepted answer only when the app declares elicitation.form.applyDefaults", c+"#L410-L418"),
			DeclineCancel: rendersHow("the app's handler answers", c+"#L383-L420"),
			URLMode:       rendersHow("passed to the app's handler when url is declared", c+"#L373-L381"),
		}),
		Notes: []string{
			"It refuses the whole request (\"Invalid elicitation request\") for shapes outside the spec's schema [inferred from its zod schemas, src/types.ts L1848-L1976]: a format other than email, uri, date or date-time, a oneOf without type: string, a type array.",
			"The request schema is applied before the handler (src/shared/protocol.ts L1428-L1430).",
		},
	}
}

func tsClient2() *Client {
	c := srcTS2Client
	pass := passThrough(srcTS2Schemas + "#L1612-L1736")
	return &Client{
		ID: "ts-client-v2", Name: "TypeScript SDK 2.x client (@modelcontextprotocol/client)", Version: "2.0.0", Kind: Library,
		Form: rendersHow("declares what the app sets in its capabilities; elicitation: {} counts as form", c+"#L846-L856"),
		URL: breaks("declared only when the app sets elicitation.url; otherwise a URL request gets -32602 \"Client does not support URL-mode elicitation requests\"",
			fixNoURL, c+"#L846-L856"),
		Protocols:       []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"},
		ProtocolsHow:    "legacy initialize (2025-11-25) unless the app sets versionNegotiation to auto or pins 2026-07-28",
		ProtocolsSource: srcTS2Negotiation + "#L112",
		Features: with(cells(pass, schemaFeatures...), map[Feature]Cell{
			Pattern: degrades("the request is validated with a zod object that has no pattern key, so pattern does not reach the app's handler (modelcontextprotocol/typescript-sdk#1844; the fix, PR #1999, was still open)",
				fixServerSide, srcTS2Pattern),
			Default:       rendersHow("passed; filled into an accepted answer only when the app declares elicitation.form.applyDefaults", c+"#L876-L888"),
			DeclineCancel: rendersHow("the app's handler answers", c+"#L858-L890"),
			URLMode:       rendersHow("passed to the app's handler when url is declared", c+"#L846-L856"),
		}),
		Notes: []string{
			"Like 1.x it refuses the whole request for shapes outside the spec's schema (an unknown format, a oneOf without type: string, a type array) [inferred from its zod schemas].",
		},
	}
}

func pythonSDK() *Client {
	pass := passThrough(srcPyTypes + "#L1947")
	return &Client{
		ID: "python-sdk", Name: "Python SDK client (mcp)", Version: "2.0.0", Kind: Library,
		Form:            rendersHow("declares form and url whenever any elicitation callback is set", srcPySession+"#L596-L599"),
		URL:             rendersHow("declared whenever any callback is set, even one that cannot open a URL", srcPySession+"#L596-L599"),
		Protocols:       []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
		ProtocolsHow:    "Client's default mode \"auto\" probes server/discover (2026-07-28) and falls back to initialize",
		ProtocolsSource: srcPyClient + "#L332-L339",
		Features: with(cells(pass, schemaFeatures...), map[Feature]Cell{
			DeclineCancel: rendersHow("the callback answers", srcPySession+"#L1341-L1342"),
			URLMode:       rendersHow("passed to the callback", srcPySession+"#L1341-L1342"),
		}),
		Notes: []string{
			"requestedSchema is a plain dict: nothing is checked on the way in or on the answer.",
			"Its versions are listed in src/mcp-types/mcp_types/version.py.",
		},
	}
}

func goSDK() *Client {
	c := srcGoSDKClient
	pass := passThrough(c + "#L884-L891")
	return &Client{
		ID: "go-sdk", Name: "Go SDK client (github.com/modelcontextprotocol/go-sdk)", Version: "v1.8.0", Kind: Library,
		Form:            rendersHow("declares {form: {}} by itself when an ElicitationHandler is set (an empty {} before 2025-11-25)", c+"#L287-L297"),
		URL:             breaks("declared only when the app sets Capabilities.Elicitation.URL", fixNoURL, c+"#L147-L173"),
		Protocols:       []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
		ProtocolsHow:    "server/discover at 2026-07-28 first; on a legacy server, initialize at 2025-11-25",
		ProtocolsSource: c + "#L319-L381",
		Features: with(cells(pass, schemaFeatures...), map[Feature]Cell{
			FormatEmail:    rendersHow("passed; the answer's format is not checked", c+"#L1012-L1024"),
			FormatURI:      rendersHow("passed; the answer's format is not checked", c+"#L1012-L1024"),
			FormatDate:     rendersHow("passed; the answer's format is not checked", c+"#L1012-L1024"),
			FormatDateTime: rendersHow("passed; the answer's format is not checked", c+"#L1012-L1024"),
			Pattern: breaksForm("an accepted answer is checked against the schema with Go's regexp (RE2, unanchored); a pattern RE2 cannot compile (lookahead, backreference) makes every accepted answer fail with \"failed to resolve requested schema\"",
				"write patterns in RE2 syntax, anchored with ^…$", c+"#L892-L905"),
			EnumNames:     rendersHow("passed; the request is refused when enumNames and enum differ in length", c+"#L986-L999"),
			TitledEnum:    rendersHow("passed; the request is refused when an option lacks a non-empty const or title", c+"#L1093-L1109"),
			MultiSelect:   rendersHow("passed; items must be {type: string, enum} or {anyOf} without a type, else the request is refused", c+"#L1064-L1091"),
			Default:       rendersHow("passed, and filled into the accepted answer", c+"#L901-L904"),
			Required:      rendersHow("passed; an accepted answer that misses a required field is turned into an error", c+"#L892-L900"),
			DeclineCancel: rendersHow("the handler answers", c+"#L888-L891"),
			URLMode:       rendersHow("passed to the handler when url is declared", c+"#L907-L915"),
		}),
		Notes: []string{
			"Checks the schema before the handler runs and refuses the whole request for shapes outside the spec's schema: a type array, a format other than email, uri, date or date-time, enum on a non-string, nested properties.",
			"Checks an accepted answer against the schema and fills in defaults; format is not checked.",
			"Its versions are in mcp/shared.go (L58-L64).",
		},
	}
}

func mcpGo() *Client {
	pass := passThrough(srcMcpGoTypes + "#L1074")
	return &Client{
		ID: "mcp-go", Name: "mcp-go client (github.com/mark3labs/mcp-go)", Version: "v1.2.1", Kind: Library,
		Form:            rendersHow("declares elicitation: {} (form only) when a handler is set", srcMcpGoProtocol+"#L68-L70"),
		URL:             breaks("declared only when the app sets ClientCapabilities.Elicitation.URL itself", fixNoURL, srcMcpGoProtocol+"#L68-L70"),
		Protocols:       []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
		ProtocolsHow:    "server/discover first; on a legacy server, initialize at 2025-11-25",
		ProtocolsSource: srcMcpGoClient + "#L389-L430",
		Features: with(cells(pass, schemaFeatures...), map[Feature]Cell{
			DeclineCancel: rendersHow("the handler answers", srcMcpGoClient+"#L961-L968"),
			URLMode:       rendersHow("passed to the handler; a URL request without an elicitationId is refused", srcMcpGoTypes+"#L1085-L1108"),
		}),
		Notes: []string{
			"requestedSchema is passed as it came (any): nothing is checked on the way in or on the answer.",
			"Its versions are in mcp/version.go (ValidProtocolVersions).",
		},
	}
}
