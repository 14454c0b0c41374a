package preview

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/clients"
)

// Synthetic clients, one behaviour each, with made-up sources: the
// rendering must follow whatever the table says.
var (
	codex = &clients.Client{ID: "codex", Name: "Codex", Version: "0.1", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.Integer: {Support: clients.Breaks, WholeForm: true, How: "the form becomes a yes/no approval", Source: "https://example.com/codex/integer"},
			clients.String:  {Support: clients.Renders, Source: "https://example.com/codex/string"},
		}}
	goose = &clients.Client{ID: "goose", Name: "Goose", Version: "1.2", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.Label: {Support: clients.Degrades, How: "labels each field with its key", Fix: "none", Source: "https://example.com/goose/label"},
		}}
	vscode = &clients.Client{ID: "vscode", Name: "VS Code", Version: "1.100", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.TitledEnum:    {Support: clients.Degrades, How: "shows the option's value, the title in grey", Source: "https://example.com/vscode/titled"},
			clients.DefaultFalse:  {Support: clients.Degrades, How: "a default false is not shown", Source: "https://example.com/vscode/false"},
			clients.DeclineCancel: {Support: clients.Degrades, How: "closing the form sends cancel: no decline", Source: "https://example.com/vscode/buttons"},
		}}
	silent = &clients.Client{ID: "silent", Name: "Silent", Version: "3", Form: clients.Cell{Support: clients.Breaks, Source: "https://example.com/silent/caps"}}
)

// bookForm is a form like examples/bookflight's: a date, a titled select,
// an integer with bounds and a default, and a boolean defaulting to false.
func bookForm(t *testing.T) Form {
	t.Helper()
	s := &jsonschema.Schema{}
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{
		"date":{"type":"string","format":"date","title":"Departure date"},
		"window":{"type":"string","title":"Time of day","oneOf":[{"const":"morning","title":"Morning"},{"const":"evening","title":"Evening"}]},
		"passengers":{"type":"integer","title":"Passengers","minimum":1,"maximum":9,"default":1},
		"insured":{"type":"boolean","title":"Insurance","default":false}},
		"required":["date"]}`), s))
	return Form{ID: "book_flight", Struct: "BookFlightArgs", Tool: "book_flight", Message: "Which day?", Schema: s}
}

func fieldOf(t *testing.T, c Column, key string) Field {
	t.Helper()
	for _, f := range c.Fields {
		if f.Key == key {
			return f
		}
	}
	t.Fatalf("no field %s in %s's column", key, c.Client.ID)
	return Field{}
}

func TestCodexIntegerMakesAYesNoBox(t *testing.T) {
	c := column(bookForm(t), codex)
	require.True(t, c.YesNo)
	require.Equal(t, []clients.Button{{Label: "Yes"}, {Label: "No"}}, c.Buttons)
	require.Equal(t, []string{"passengers: the form becomes a yes/no approval"}, c.YesNoWhy)
	require.Contains(t, c.Sources, clients.Source("https://example.com/codex/integer"))
	require.True(t, c.Approximate(), "Label, format:date, … are unknown for this Codex")
	require.Contains(t, c.Unknown, "titled-enum")

	f := bookForm(t)
	f.Schema.Properties.Delete("passengers")
	require.False(t, column(f, codex).YesNo, "without an integer the form stays a form")
}

func TestGooseShowsKeys(t *testing.T) {
	c := column(bookForm(t), goose)
	d := fieldOf(t, c, "date")
	require.Equal(t, "date", d.Label)
	require.True(t, d.LabelIsKey)
	require.Equal(t, "Departure date", d.Title)
	require.Equal(t, []Note{{Support: "degrades", Text: "labels each field with its key", Fix: "none"}}, d.Notes)
	require.Equal(t, []clients.Source{"https://example.com/goose/label"}, c.Sources)
}

func TestVSCodeShowsConstWithGreyTitle(t *testing.T) {
	c := column(bookForm(t), vscode)
	w := fieldOf(t, c, "window")
	require.Equal(t, []Option{{Value: "morning", Label: "morning", Grey: "Morning"}, {Value: "evening", Label: "evening", Grey: "Evening"}}, w.Options)
	require.Equal(t, "Time of day", w.Label, "the label cell is unknown: the title")
	require.Equal(t, []string{"default false"}, fieldOf(t, c, "insured").Dropped)
	require.Equal(t, []clients.Button{{Label: "Accept", Action: clients.ActionAccept}, {Label: "Dismiss"}}, c.Buttons)
	require.Equal(t, []string{"closing the form sends cancel: no decline"}, c.Notes)

	ref := column(bookForm(t), Reference)
	require.Equal(t, []Option{{Value: "morning", Label: "Morning"}, {Value: "evening", Label: "Evening"}}, fieldOf(t, ref, "window").Options)
	require.Equal(t, Reference.Look.Buttons, ref.Buttons)
	require.False(t, ref.Approximate())
	require.Equal(t, "false", fieldOf(t, ref, "insured").Value)
	require.Equal(t, []string{"a date, YYYY-MM-DD"}, fieldOf(t, ref, "date").Rules)
}

// A client's Look labels fields by key and options by const, and names
// its buttons; its source shapes the column.
func TestLookFromTheTable(t *testing.T) {
	c := &clients.Client{ID: "looks", Name: "Looks", Form: clients.Cell{Support: clients.Renders},
		Look: &clients.Look{Layout: "a card", FieldLabel: clients.LabelKey, OptionLabel: clients.LabelConst,
			Buttons: []clients.Button{{Label: "Submit", Action: clients.ActionAccept}}, Source: "https://example.com/looks"}}
	col := column(bookForm(t), c)
	require.Equal(t, "date", fieldOf(t, col, "date").Label)
	require.True(t, fieldOf(t, col, "date").LabelIsKey)
	require.Equal(t, Option{Value: "morning", Label: "morning", Grey: "Morning"}, fieldOf(t, col, "window").Options[0])
	require.Equal(t, []clients.Button{{Label: "Submit", Action: clients.ActionAccept}}, col.Buttons)
	require.Equal(t, "a card", col.Layout)
	require.Equal(t, []clients.Source{"https://example.com/looks"}, col.Sources)
	require.NotContains(t, col.Unknown, "look (layout, buttons)")
	require.Contains(t, column(bookForm(t), goose).Unknown, "look (layout, buttons)")
}

func TestNoElicitationShowsTheFallback(t *testing.T) {
	c := column(bookForm(t), silent)
	require.True(t, c.NoForm)
	require.Empty(t, c.Fields)
	require.Equal(t, `book_flight needs input from the user, but this client declared no form elicitation, so it cannot be asked.
Pass these as arguments and call again:
- date ("Departure date"): required string, format date
Optional; pass them as arguments if known:
- window ("Time of day"): optional string, one of morning, evening
- passengers ("Passengers"): optional integer, minimum 1, maximum 9
- insured ("Insurance"): optional boolean`, c.Fallback)
	require.Equal(t, []clients.Source{"https://example.com/silent/caps"}, c.Sources)
}

func TestOlderClientGetsTheDowngradedSchema(t *testing.T) {
	old := &clients.Client{ID: "old", Name: "Old", Protocols: []string{"2025-06-18"}, Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{clients.EnumNames: {Support: clients.Degrades, How: "shows values"}}}
	c := column(bookForm(t), old)
	require.Equal(t, "2025-06-18", c.Protocol)
	w := fieldOf(t, c, "window")
	require.Equal(t, []Option{{Value: "morning", Label: "morning", Grey: "Morning"}, {Value: "evening", Label: "evening", Grey: "Evening"}}, w.Options)
	require.Empty(t, fieldOf(t, c, "passengers").Value, "2025-06-18 has no default but a boolean's")
	require.Equal(t, []string{"default 1 (protocol 2025-06-18)"}, fieldOf(t, c, "passengers").Dropped)
	require.Equal(t, "false", fieldOf(t, c, "insured").Value)

	f := bookForm(t)
	f.Schema.Properties.Set("seats", &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: []any{"a"}}})
	c = column(f, old)
	require.Equal(t, []string{"seats is left out: protocol 2025-06-18 has no multi select"}, c.Notes)
	require.Len(t, c.Fields, 4)
	f.Schema.Required = append(f.Schema.Required, "seats")
	c = column(f, old)
	require.True(t, c.NoForm)
	require.Equal(t, "book_flight: protocol 2025-06-18 clients cannot show a multi-select, so pass these as arguments: seats", c.Fallback)
}

func TestPageHTML(t *testing.T) {
	p := Build([]Form{bookForm(t)}, []*clients.Client{codex, goose, vscode, silent})
	var b bytes.Buffer
	require.NoError(t, p.WriteHTML(&b))
	html := b.String()
	for _, want := range []string{
		`data-client="spec" data-look="form"`,
		`data-client="codex" data-look="yes-no"`,
		`data-client="silent" data-look="no-form"`,
		`no form: the tool returns its fallback text`,
		`<span class="label key" title="title: Departure date">date`,
		`<span class="grey">Morning</span>`,
		`<a href="https://example.com/goose/label">example.com/goose/label</a>`,
		`>approximate</span>`,
	} {
		require.Contains(t, html, want)
	}
	require.NotContains(t, html, "<script")
}

func TestSourceLabel(t *testing.T) {
	for in, want := range map[clients.Source]string{
		"https://github.com/openai/codex/issues/123#issuecomment-9":                          "openai/codex#123",
		"https://github.com/block/goose/pull/77":                                             "block/goose#77",
		"https://github.com/microsoft/vscode/blob/0123456789abcdef/src/vs/elicit.ts#L10-L20": "microsoft/vscode@0123456:src/vs/elicit.ts#L10-L20",
		"https://example.com/x": "example.com/x",
	} {
		require.Equal(t, want, sourceLabel(in), in)
	}
}

func TestGroupSources(t *testing.T) {
	f := "https://github.com/o/r/blob/0123456789/a.ts"
	got := groupSources([]clients.Source{clients.Source(f + "#L1"), "https://github.com/o/r/issues/5#issuecomment-1",
		clients.Source(f + "#L2-L3"), "https://github.com/o/r/issues/5"})
	require.Equal(t, []sourceGroup{
		{Label: "o/r@0123456:a.ts", Links: []sourceLink{{Href: clients.Source(f + "#L1"), Text: "L1"}, {Href: clients.Source(f + "#L2-L3"), Text: "L2-L3"}}},
		{Label: "o/r#5", Links: []sourceLink{{Href: "https://github.com/o/r/issues/5#issuecomment-1"}, {Href: "https://github.com/o/r/issues/5"}}},
	}, got)
}

func TestSelectClients(t *testing.T) {
	_, err := SelectClients("nosuch")
	require.ErrorContains(t, err, `no client "nosuch"`)
	_, err = SelectClients(" , ")
	require.Error(t, err)
}

func TestLoopback(t *testing.T) {
	for _, a := range []string{"127.0.0.1:8090", "[::1]:0", "localhost:80"} {
		require.NoError(t, Loopback(a), a)
	}
	for _, a := range []string{"0.0.0.0:8090", ":8090", "192.168.1.2:80", "example.com:80", "nonsense"} {
		require.Error(t, Loopback(a), a)
	}
	require.True(t, strings.Contains(Loopback(":1").Error(), "loopback"))
	// A request's Host header, with or without a port.
	for _, h := range []string{"127.0.0.1:8090", "localhost", "[::1]:80", "::1"} {
		require.NoError(t, loopbackHost(h), h)
	}
	for _, h := range []string{"evil.example", "evil.example:8090", "10.0.0.1:80"} {
		require.Error(t, loopbackHost(h), h)
	}
}

// TestForms loads the examples' tools and questions: a question names the
// package's one tool, a URL-mode question is marked, the message falls back
// to the titles as the runtime's does, and the schema is gen's.
func TestForms(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	forms, diags, err := Load(Options{Dir: root, Patterns: []string{"./examples/deploy", "./examples/connect", "./examples/billing"}})
	require.NoError(t, err)
	require.Empty(t, diags)
	byID := map[string]Form{}
	for _, f := range forms {
		byID[f.ID] = f
	}
	confirm := byID["question:Confirm"]
	require.True(t, confirm.Question)
	require.Equal(t, "deploy", confirm.Tool)
	require.Equal(t, "Type the service name to confirm.", confirm.Message)
	require.True(t, byID["question:APIKey"].URL)
	pay := byID["pay_invoice"]
	require.Equal(t, []string{"account"}, pay.Choices)
	b, err := json.Marshal(pay.Schema)
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"object","properties":{"account":{"type":"string","title":"Account"}},"required":["account"]}`, string(b))

	// Run-time options: the column says the server lists them.
	acct := fieldOf(t, column(pay, Reference), "account")
	require.True(t, acct.RunTime)
	require.Equal(t, "select", acct.Control)
}

// A client that breaks a titled select for the field alone (it shows a
// free text box) is drawn so: a text box, the options dropped; one that
// breaks the whole form is not (it becomes the yes/no box instead).
func TestBrokenSelectIsFreeText(t *testing.T) {
	free := &clients.Client{ID: "free", Name: "Free", Version: "1", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.TitledEnum: {Support: clients.Breaks, How: "a free text box", Source: "https://example.com/free/oneof"},
		}}
	w := fieldOf(t, column(bookForm(t), free), "window")
	require.Equal(t, "text", w.Control)
	require.Empty(t, w.Options)
	require.Equal(t, []string{"the options (a free text box)"}, w.Dropped)
	require.Equal(t, "select", fieldOf(t, column(bookForm(t), Reference), "window").Control)
}
