// Package clients is what the MCP clients people use do with elicitation, as
// data: one [Client] per client (and the version the evidence is from), each
// fact a [Cell] with its [Source]. mcpgen's build-time client check and
// `mcpgen preview` read it, so a tool author sees before their users do which
// form features a client renders, degrades or breaks.
//
// The table is evidence, not a promise: a cell says what a client did in the
// version named, as a source shows (an issue or pull-request thread, or a
// source file at a commit). Where no evidence was found the cell is
// [Unknown], never a guess. The rules of the forms themselves are the
// specification's (MCP 2026-07-28, client/elicitation, "Requested Schema").
package clients

// Support is how a client handles one form feature.
type Support int

const (
	// Unknown means no evidence was found; the check says nothing.
	Unknown Support = iota
	// Renders means the client shows the feature as the specification
	// describes it.
	Renders
	// Degrades means the client shows the form, but the feature is lost or
	// changed in a way its user may notice ([Cell.How] says how).
	Degrades
	// Breaks means the user cannot answer as intended: the feature is
	// dropped in a way that sends wrong or no data, or the whole form is
	// refused or replaced ([Cell.WholeForm]).
	Breaks
)

// String returns "unknown", "renders", "degrades" or "breaks".
func (s Support) String() string {
	switch s {
	case Renders:
		return "renders"
	case Degrades:
		return "degrades"
	case Breaks:
		return "breaks"
	}
	return "unknown"
}

// Source is where a fact comes from: the URL of an issue or pull-request
// thread, or of a source file at a commit or version tag
// ("https://github.com/OWNER/REPO/blob/COMMIT/PATH#L1-L9", COMMIT being 7 to
// 40 hex digits or a tag such as v1.8.0); a changelog entry is cited by its
// file at a commit too.
type Source string

// Cell is one fact about a client: how it handles a feature, what its user
// sees when it does not render it plainly, and the source.
type Cell struct {
	// Support is how the client handles the feature; Unknown when no
	// source was found (then the other fields are empty).
	Support Support
	// How says, for a user of the client, what happens: "shows the option's
	// value (chk-900), the title in grey". Empty only for Renders.
	How string
	// WholeForm reports that the feature changes the whole form, not the
	// field alone (a form replaced by a yes/no box, a request refused).
	WholeForm bool
	// Fix is what a tool author can do about it, when anything.
	Fix string
	// Source is the evidence: an issue or pull-request URL, or a source
	// file at a commit or version tag.
	Source Source
}

// Feature is one thing a form can carry, as the check and the preview find
// it in a requestedSchema (MCP 2026-07-28, client/elicitation: the
// restricted schema's primitive kinds and their keywords).
type Feature string

// The features the table knows.
const (
	Label          Feature = "label"            // a property's title as its label
	String         Feature = "string"           // a plain text field
	FormatEmail    Feature = "format:email"     // string format email
	FormatURI      Feature = "format:uri"       // string format uri
	FormatDate     Feature = "format:date"      // string format date
	FormatDateTime Feature = "format:date-time" // string format date-time
	Lengths        Feature = "lengths"          // minLength / maxLength
	Pattern        Feature = "pattern"          // pattern (not in the 2026-07-28 grammar)
	Number         Feature = "number"           // type number
	Integer        Feature = "integer"          // type integer
	Bounds         Feature = "bounds"           // minimum / maximum
	Boolean        Feature = "boolean"          // type boolean
	Enum           Feature = "enum"             // untitled single select (enum)
	TitledEnum     Feature = "titled-enum"      // titled single select (oneOf const/title)
	EnumNames      Feature = "enum-names"       // legacy titled select (enum + enumNames)
	MultiSelect    Feature = "multi-select"     // type array of enum strings (untitled or anyOf)
	Default        Feature = "default"          // a pre-filled default
	DefaultFalse   Feature = "default-false"    // a boolean default false
	OptionalNumber Feature = "optional-number"  // a number or integer the form does not require
	Required       Feature = "required"         // required fields enforced
	DeclineCancel  Feature = "decline-cancel"   // distinct decline and cancel answers
	URLMode        Feature = "url-mode"         // URL-mode elicitation
)

// Features lists every Feature, in the order the docs' table shows them.
var Features = []Feature{Label, String, FormatEmail, FormatURI, FormatDate, FormatDateTime, Lengths, Pattern,
	Number, Integer, Bounds, OptionalNumber, Boolean, DefaultFalse, Enum, TitledEnum, EnumNames, MultiSelect,
	Default, Required, DeclineCancel, URLMode}

// Kind is what sort of client an entry is.
type Kind string

// The kinds of client the table holds.
const (
	// App is a client people run: an editor, an agent, a chat app. Its
	// cells say what its user sees.
	App Kind = "app"
	// Library is an SDK's client helper, what a home-grown client gets for
	// free. Its cells say what reaches the application's own handler:
	// Renders means the feature is passed to the handler unchanged (the
	// application draws the form), Degrades that the helper changes or drops
	// it on the way, Breaks that the helper refuses the request.
	Library Kind = "library"
)

// LabelFrom says which part of a schema a client shows as a label.
type LabelFrom string

// The parts a label comes from (MCP 2025-11-25, client/elicitation,
// "Requested Schema": a property's title, its key in properties, an
// option's const or its title).
const (
	// LabelTitle is the title, and the property key when there is none.
	LabelTitle LabelFrom = "title"
	// LabelKey is the property key alone; the title is not shown.
	LabelKey LabelFrom = "key"
	// LabelConst is an option's const value (the raw value the tool gets).
	LabelConst LabelFrom = "const"
)

// Action is an answer a form gives (MCP 2025-11-25, client/elicitation,
// "Response Actions").
type Action string

// The three answers.
const (
	// ActionAccept sends the form's content.
	ActionAccept Action = "accept"
	// ActionDecline is the user's explicit no.
	ActionDecline Action = "decline"
	// ActionCancel is a dismissal without a choice (closing, Esc, a timeout).
	ActionCancel Action = "cancel"
)

// Button is a button or key a client's form offers and the answer it sends.
type Button struct {
	// Label is what the user sees or presses: "Submit", "Esc".
	Label string
	// Action is the answer it sends.
	Action Action
}

// Look is how a client draws a form, for `mcpgen preview`: the labels and
// buttons its source shows. It is evidence like a Cell, from Source.
type Look struct {
	// Layout names the shape in a few words: "modal dialog", "one field at a
	// time in a quick pick", "line prompts in the terminal".
	Layout string
	// FieldLabel is what labels a field; OptionLabel what labels an option
	// of a titled select. Empty when the source does not show it.
	FieldLabel, OptionLabel LabelFrom
	// Buttons are the buttons or keys of a form with fields, in the order
	// shown.
	Buttons []Button
	// Source is where the look is shown (a source file at a commit).
	Source Source
}

// Client is one client, at the version the evidence is from.
type Client struct {
	// ID names the client in flags and directives: "vscode", "codex",
	// "inspector-web"; lower case, no spaces.
	ID string
	// Name is how people call it: "VS Code (GitHub Copilot Chat)".
	Name string
	// Version is the version (or commit) the evidence is from.
	Version string
	// Widely reports whether the check cares about it by default.
	Widely bool
	// Form and URL say whether it declares form and URL-mode elicitation
	// (MCP 2025-11-25, client/elicitation, capabilities): Renders when it
	// declares it, Breaks when it does not.
	Form, URL Cell
	// Protocols are the protocol versions it negotiates, newest first, with
	// the source in ProtocolsSource.
	Protocols       []string
	ProtocolsSource Source
	// Features is how it handles each feature; a missing one is Unknown.
	Features map[Feature]Cell

	// Kind is App or Library (the zero value is read as App).
	Kind Kind
	// ProtocolsHow says how it picks among Protocols ("initialize only",
	// "server/discover first, then initialize"), and what is inferred.
	ProtocolsHow string
	// Look is how it draws a form; nil when no source shows it.
	Look *Look
	// Notes are short remarks for the docs: what the evidence covers, what
	// a tool author should know that no single cell says.
	Notes []string
}

// Elicits reports whether c declares form elicitation at all (its Form cell
// is not Breaks). A client that does not gets the tool's no-elicitation
// fallback (MCP 2025-11-25, client/elicitation: servers MUST NOT send
// requests for a mode the client did not declare).
func (c *Client) Elicits() bool { return c.Form.Support != Breaks }

// Cell returns how c handles f (Unknown when the table has no evidence).
func (c *Client) Cell(f Feature) Cell { return c.Features[f] }

// All is the table: every client with its evidence, in the order the docs
// show them.
var All []*Client

// ByID returns the client named id, or nil.
func ByID(id string) *Client {
	for _, c := range All {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Widely returns the clients the check cares about by default.
func Widely() []*Client {
	var out []*Client
	for _, c := range All {
		if c.Widely {
			out = append(out, c)
		}
	}
	return out
}
