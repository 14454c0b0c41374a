package preview

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/clients"
	"github.com/mcpgen/mcpgen/internal/downgrade"
	"github.com/mcpgen/mcpgen/internal/fallback"
)

// Reference is the column of the specification (MCP 2026-07-28,
// client/elicitation): every feature rendered as the specification
// describes it, a button for each action.
var Reference = &clients.Client{ID: "spec", Name: "MCP specification", Version: "2026-07-28",
	Form: clients.Cell{Support: clients.Renders}, URL: clients.Cell{Support: clients.Renders},
	Look: &clients.Look{Layout: "as the specification describes it", FieldLabel: clients.LabelTitle, OptionLabel: clients.LabelTitle,
		Buttons: []clients.Button{{Label: "Accept", Action: clients.ActionAccept}, {Label: "Decline", Action: clients.ActionDecline},
			{Label: "Cancel", Action: clients.ActionCancel}}}}

// Column is one form as one client shows it.
type Column struct {
	Client *clients.Client
	// Reference reports the specification's column.
	Reference bool
	// Layout is where and how the client shows the form (Look.Layout).
	Layout string
	// NoForm: the client cannot be asked this form (it declares no form
	// elicitation, or no URL mode for a URL question): the tool returns
	// Fallback instead.
	NoForm   bool
	Fallback string
	// YesNo: a cell with WholeForm turned the form into a yes/no box (or
	// refused it); YesNoWhy says why, from those cells.
	YesNo    bool
	YesNoWhy []string
	// URL: the form is a URL-mode question, shown as the page's link.
	URL bool
	// Message is the form's message.
	Message string
	// Protocol is the older protocol version the client negotiates, whose
	// smaller grammar the runtime downgrades the schema to ("" when the
	// client knows the whole grammar).
	Protocol string
	// Fields are the form's fields, in order.
	Fields []Field
	// Buttons are the buttons (or keys) of the form, in order, each with
	// the action it sends ("" when the table does not say); Notes what the
	// table says of the form as a whole (buttons, required fields).
	Buttons []clients.Button
	Notes   []string
	// Unknown lists the features this column needed that the table has no
	// evidence for: the column is then approximate (drawn as the
	// specification says).
	Unknown []string
	// Sources are the sources of the cells that shaped the column, each
	// once, in the order they were read.
	Sources []clients.Source
}

// Approximate reports whether a cell the column needed is Unknown.
func (c *Column) Approximate() bool { return len(c.Unknown) > 0 }

// Field is one field of a column.
type Field struct {
	Key string
	// Label is what the field is labelled with: its title, or its key when
	// the client shows keys (LabelIsKey); Title is the title it has.
	Label      string
	LabelIsKey bool
	Title      string
	// Description is the help text.
	Description string
	Required    bool
	// Control is what the user fills: "text", "date", "date-time",
	// "email", "uri", "number", "integer", "checkbox", "select",
	// "multi-select".
	Control string
	// Value is the pre-filled value ("" for none).
	Value string
	// Options are a select's options; RunTime: the server lists them for
	// each call.
	Options []Option
	RunTime bool
	// Rules are the constraints the client checks ("1 to 9", "YYYY-MM-DD").
	Rules []string
	// Dropped are what the client drops of the field ("default false",
	// "format check (date)", "pattern").
	Dropped []string
	// Notes are what the table says of the field, each with its support.
	Notes []Note
}

// Option is one option of a select: Label is what the user reads; Grey is
// the title shown next to a raw value, in grey.
type Option struct {
	Value, Label, Grey string
}

// Note is a cell's How, with its support ("degrades", "breaks") and its
// Fix, what the tool's author can do about it.
type Note struct {
	Support, Text, Fix string
}

// column draws form f as client c shows it.
func column(f Form, c *clients.Client) (col Column) {
	col = Column{Client: c, Reference: c == Reference, URL: f.URL, Message: f.Message}
	defer func() {
		// The sources of one file together, as the page lists them.
		var srcs []clients.Source
		for _, g := range groupSources(col.Sources) {
			for _, l := range g.Links {
				srcs = append(srcs, l.Href)
			}
		}
		col.Sources = srcs
	}()
	// cell reads one cell, recording its source or that it is unknown.
	cell := func(name string, x clients.Cell) clients.Cell {
		if x.Support == clients.Unknown {
			if !slices.Contains(col.Unknown, name) {
				col.Unknown = append(col.Unknown, name)
			}
		} else if x.Source != "" && !slices.Contains(col.Sources, x.Source) {
			col.Sources = append(col.Sources, x.Source)
		}
		return x
	}
	feature := func(ft clients.Feature) clients.Cell { return cell(string(ft), c.Cell(ft)) }
	if c == Reference {
		feature = func(clients.Feature) clients.Cell { return clients.Cell{Support: clients.Renders} }
	}
	if f.URL {
		if cell("url capability", c.URL).Support == clients.Breaks {
			col.NoForm = true
			col.Fallback = fallback.URLText(cmp.Or(f.Tool, "the tool"), f.Struct, "this client declared no URL-mode elicitation")
			return col
		}
		// The server's page asks the fields; the client shows the link.
		if x := feature(clients.URLMode); x.How != "" {
			col.Notes = append(col.Notes, x.How)
		}
		col.Layout = "the server's page, opened from the client"
		col.Buttons = Reference.Look.Buttons
		return col
	} else if cell("form capability", c.Form); !c.Elicits() {
		col.NoForm = true
		question := ""
		if f.Question {
			question = f.Struct
		}
		col.Fallback = fallback.Text(fallback.Form{Tool: cmp.Or(f.Tool, "the tool"), Question: question,
			Message: f.Message, Schema: f.Schema, AskAlways: f.AskAlways, Why: "this client declared no form elicitation"})
		return col
	}
	schema := f.Schema
	if len(c.Protocols) > 0 && c.Protocols[0] < downgrade.Full {
		// The runtime sends an older client the schema of its grammar.
		col.Protocol = c.Protocols[0]
		s, err := downgrade.Schema(schema, col.Protocol)
		if err != nil {
			col.NoForm = true
			col.Fallback = cmp.Or(f.Tool, "the tool") + ": " + err.Error()
			return col
		}
		schema = s
	}
	for pair := f.Schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		p, ok := schema.Properties.Get(pair.Key)
		if !ok {
			col.Notes = append(col.Notes, pair.Key+" is left out: protocol "+col.Protocol+" has no multi select")
			continue
		}
		fd := col.field(f, pair.Key, p, slices.Contains(schema.Required, pair.Key), feature)
		if d := pair.Value.Default; d != nil && p.Default == nil {
			fd.Dropped = append(fd.Dropped, "default "+jsonText(d)+" (protocol "+col.Protocol+")")
		}
		col.Fields = append(col.Fields, fd)
	}
	if len(schema.Required) > 0 {
		if x := feature(clients.Required); lost(x) {
			col.Notes = append(col.Notes, x.How)
		}
	}
	col.look(c, feature)
	return col
}

// look sets the column's layout and buttons: the client's Look when the
// table has one (its source then shapes the column), else the
// specification's buttons as the DeclineCancel cell allows. A library's
// application draws its own form: only the cells say anything of it.
func (col *Column) look(c *clients.Client, feature func(clients.Feature) clients.Cell) {
	if l := c.Look; l != nil {
		col.Layout = l.Layout
		if l.Source != "" && !slices.Contains(col.Sources, l.Source) {
			col.Sources = append(col.Sources, l.Source)
		}
	}
	if col.YesNo {
		col.Buttons = []clients.Button{{Label: "Yes"}, {Label: "No"}}
		return
	}
	x := feature(clients.DeclineCancel)
	if lost(x) && x.How != "" {
		col.Notes = append(col.Notes, x.How)
	}
	if l := c.Look; l != nil {
		if len(l.Buttons) > 0 {
			col.Buttons = l.Buttons
			return
		}
	} else if c.Kind == clients.Library {
		col.Layout = "an SDK's client helper: the application draws the form from what reaches its handler"
	} else {
		col.Unknown = append(col.Unknown, "look (layout, buttons)")
	}
	if lost(x) {
		col.Buttons = []clients.Button{{Label: "Accept", Action: clients.ActionAccept}, {Label: "Dismiss"}}
		return
	}
	col.Buttons = Reference.Look.Buttons
}

// lost reports whether a cell says the feature does not reach the user as
// the specification describes it: it degrades or breaks.
func lost(x clients.Cell) bool { return x.Support == clients.Degrades || x.Support == clients.Breaks }

// freeText draws a select whose cell x breaks it for the field alone (not
// the whole form) as the free text box the client shows instead, its
// options dropped, and reports whether it did.
func (fd *Field) freeText(x clients.Cell) bool {
	if x.Support != clients.Breaks || x.WholeForm {
		return false
	}
	fd.Control = "text"
	fd.Dropped = append(fd.Dropped, "the options (a free text box)")
	return true
}

// enumNames are the legacy titles of a select (enum + enumNames).
func enumNames(p *jsonschema.Schema) []string {
	names, _ := p.Extras["enumNames"].([]string)
	return names
}

// field draws one property as the client shows it, reading the cells of
// the features the property carries.
func (col *Column) field(f Form, key string, p *jsonschema.Schema, required bool, feature func(clients.Feature) clients.Cell) Field {
	fd := Field{Key: key, Title: p.Title, Description: p.Description, Required: required,
		RunTime: slices.Contains(f.Choices, key)}
	use := func(ft clients.Feature) clients.Cell {
		x := feature(ft)
		if lost(x) {
			if why := key + ": " + cmp.Or(x.How, string(ft)); x.WholeForm && !slices.Contains(col.YesNoWhy, why) {
				col.YesNo = true
				col.YesNoWhy = append(col.YesNoWhy, why)
			}
			if n := (Note{Support: x.Support.String(), Text: x.How, Fix: x.Fix}); x.How != "" && !slices.Contains(fd.Notes, n) {
				fd.Notes = append(fd.Notes, n)
			}
		}
		return x
	}
	fd.Label = cmp.Or(p.Title, key)
	byKey := col.Client.Look != nil && col.Client.Look.FieldLabel == clients.LabelKey
	if p.Title != "" && (lost(use(clients.Label)) || byKey) {
		fd.Label, fd.LabelIsKey = key, true
	}
	byConst := col.Client.Look != nil && col.Client.Look.OptionLabel == clients.LabelConst
	switch p.Type {
	case "string":
		fd.Control = "text"
		switch {
		case len(p.OneOf) > 0:
			if x := use(clients.TitledEnum); !fd.freeText(x) {
				fd.Control = "select"
				fd.Options = options(p.OneOf, nil, x, byConst)
			}
		case len(enumNames(p)) > 0:
			if x := use(clients.EnumNames); !fd.freeText(x) {
				fd.Control = "select"
				fd.Options = options(nil, enumOptions(p.Enum, enumNames(p)), x, byConst)
			}
		case len(p.Enum) > 0 || fd.RunTime:
			fd.Control = "select"
			fd.Options = options(nil, enumOptions(p.Enum, nil), use(clients.Enum), false)
		case p.Format != "":
			ft := clients.Feature("format:" + p.Format)
			if lost(use(ft)) {
				fd.Dropped = append(fd.Dropped, "format check ("+p.Format+")")
			} else {
				fd.Control = p.Format
				fd.Rules = append(fd.Rules, formatRule(p.Format))
			}
		default:
			use(clients.String)
		}
		if p.MinLength != nil || p.MaxLength != nil {
			if lost(use(clients.Lengths)) {
				fd.Dropped = append(fd.Dropped, "length limits")
			} else {
				fd.Rules = append(fd.Rules, lengthRule(p.MinLength, p.MaxLength))
			}
		}
		if p.Pattern != "" && lost(use(clients.Pattern)) {
			fd.Dropped = append(fd.Dropped, "pattern")
		}
	case "integer", "number":
		fd.Control = p.Type
		use(clients.Feature(p.Type))
		if !required {
			use(clients.OptionalNumber)
		}
		if p.Minimum != "" || p.Maximum != "" {
			if lost(use(clients.Bounds)) {
				fd.Dropped = append(fd.Dropped, "bounds")
			} else {
				fd.Rules = append(fd.Rules, boundsRule(p.Minimum, p.Maximum))
			}
		}
	case "boolean":
		fd.Control = "checkbox"
		use(clients.Boolean)
	case "array":
		fd.Control = "multi-select"
		if fd.freeText(use(clients.MultiSelect)) {
			break
		}
		if p.Items != nil {
			fd.Options = options(p.Items.AnyOf, enumOptions(p.Items.Enum, nil), clients.Cell{Support: clients.Renders}, byConst)
		}
	}
	if p.Default != nil {
		if b, ok := p.Default.(bool); ok && !b {
			if lost(use(clients.DefaultFalse)) {
				fd.Dropped = append(fd.Dropped, "default false")
			} else {
				fd.Value = "false"
			}
		} else if use(clients.Default).Support == clients.Breaks { // a degraded default is a note, not gone
			fd.Dropped = append(fd.Dropped, "default "+jsonText(p.Default))
		} else {
			fd.Value = jsonText(p.Default)
		}
	}
	return fd
}

// enumOptions are the options of an untitled enum, or of enum + enumNames.
func enumOptions(enum []any, names []string) []Option {
	var out []Option
	for i, v := range enum {
		o := Option{Value: fmt.Sprint(v)}
		if i < len(names) {
			o.Label = names[i]
		}
		out = append(out, o)
	}
	return out
}

// options are a select's options as the client labels them: a titled
// option by its title when the cell renders it, by its raw value with the
// title in grey when it degrades or the client's look labels options by
// their const (byConst), by its raw value alone when it breaks.
func options(alts []*jsonschema.Schema, plain []Option, x clients.Cell, byConst bool) []Option {
	for _, a := range alts {
		plain = append(plain, Option{Value: fmt.Sprint(a.Const), Label: a.Title})
	}
	out := make([]Option, len(plain))
	for i, o := range plain {
		title := o.Label
		o.Label = o.Value
		switch {
		case title == "":
		case x.Support == clients.Breaks:
		case x.Support == clients.Degrades || byConst:
			o.Grey = title
		default:
			o.Label = title
		}
		out[i] = o
	}
	return out
}

func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func formatRule(format string) string {
	switch format {
	case "date":
		return "a date, YYYY-MM-DD"
	case "date-time":
		return "a date and time (RFC 3339)"
	case "email":
		return "an email address"
	case "uri":
		return "a URI"
	}
	return format
}

func lengthRule(lo, hi *uint64) string {
	chars := func(n uint64) string {
		if n == 1 {
			return "1 character"
		}
		return fmt.Sprintf("%d characters", n)
	}
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d to %s", *lo, chars(*hi))
	case lo != nil && *lo == 1:
		return "not empty"
	case lo != nil:
		return "at least " + chars(*lo)
	}
	return "at most " + chars(*hi)
}

func boundsRule(lo, hi json.Number) string {
	switch {
	case lo != "" && hi != "":
		return fmt.Sprintf("%s to %s", lo, hi)
	case lo != "":
		return "at least " + lo.String()
	}
	return "at most " + hi.String()
}
