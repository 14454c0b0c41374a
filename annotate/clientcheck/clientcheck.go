// Package clientcheck is mcpgen's build-time client check: for each form a
// package's structs ask (a tool's own form: its elicitable fields; each
// //mcpgen:question), it finds what the form's requestedSchema carries, as
// [clients.Feature]s, and warns about each one a chosen client renders
// badly (the table of package clients says [clients.Degrades] or
// [clients.Breaks]).
//
// The warnings are annotate.Diagnostics in the category [Category]: never a
// problem, so they change no exit status and stop nothing. Each names the
// client and its version, says what its user sees ([clients.Cell.How]) and
// what to do ([clients.Cell.Fix]), carries the cell's source as its URL,
// and a suggested fix where one keeps the tool's meaning. A field's
// warning is at the tag option that causes it; a whole-form effect
// ([clients.Cell.WholeForm]) is at the struct, each field that causes it a
// related site.
//
// The mcpgen command (through gen/driver) and the mcpgen-vet analyzer
// both call [Check]; it reads the model only (annotate), and writes nothing.
//
// It is part of mcpgen's generator, exported for the driver and the analyzer only: its API
// carries no compatibility promise.
package clientcheck

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/clients"
)

// Category is the category of the check's warnings (go/analysis
// Diagnostic.Category; annotate.Diagnostic.Category).
const Category = "clients"

// Use is one feature a form's requestedSchema carries.
type Use struct {
	Feature clients.Feature
	// Field is the field whose property carries it; nil for the form as a
	// whole (its decline and cancel answers, a URL-mode question).
	Field *annotate.Field
	// Key is the elicit tag option that writes it ("" when none does: the
	// field's Go type, or its constants, make it).
	Key string
	// What says it for a reader: "an integer field", "default=false".
	What string
	// Cell, when set, is the effect itself, the protocol's rather than a
	// client's (see sent): what a client of an older protocol is sent.
	Cell *clients.Cell
}

// formFeature is the pseudo-feature of a client's Form cell (whether it
// declares form elicitation at all); it is no feature of the table.
const formFeature clients.Feature = "form"

// Features returns what struct s's form carries, field by field in form
// order, then the form's own: nothing for a tool that asks no form
// (AcceptOnly); for a URL-mode question, whose fields are on the server's
// page, only that it is one.
func Features(s *annotate.Struct) []Use {
	if s.AcceptOnly || (len(s.Fields) == 0 && !s.Question) {
		return nil
	}
	if s.URLMode {
		// The decline and cancel cells are the form's buttons, which a URL
		// question's consent prompt does not have.
		return []Use{{Feature: clients.URLMode, What: "a URL-mode question (//mcpgen:question url)"}}
	}
	var out []Use
	for _, f := range s.Fields {
		add := func(feat clients.Feature, key, what string) {
			out = append(out, Use{Feature: feat, Field: f, Key: key, What: what})
		}
		if f.Title != "" && words(f.Title) != words(f.JSONName) {
			add(clients.Label, "title", fmt.Sprintf("its title %q as its label", f.Title))
		}
		switch f.Kind {
		case annotate.String, annotate.DateTime:
			switch {
			case f.Choices:
				if s.LegacyEnumNames {
					add(clients.EnumNames, "choices", "a select of run-time choices, titled as enum + enumNames (//mcpgen:enumnames)")
				} else {
					add(clients.TitledEnum, "choices", "a select of run-time choices, titled (oneOf const+title) when they have titles")
				}
			case len(f.Enum) > 0 && f.Titled && s.LegacyEnumNames:
				add(clients.EnumNames, "enum", "a titled select as enum + enumNames (//mcpgen:enumnames)")
			case len(f.Enum) > 0 && f.Titled:
				add(clients.TitledEnum, "enum", "a titled select (oneOf const+title)")
			case len(f.Enum) > 0:
				add(clients.Enum, "enum", "a select (enum)")
			default:
				add(clients.String, "", "a text field")
			}
			switch f.Format {
			case "email":
				add(clients.FormatEmail, "format", "format=email")
			case "uri":
				add(clients.FormatURI, "format", "format=uri")
			case "date":
				add(clients.FormatDate, "format", "format=date")
			case "date-time":
				add(clients.FormatDateTime, "format", "format=date-time")
			}
			if f.MinLength != nil || f.MaxLength != nil {
				add(clients.Lengths, key(f.MinLength != nil, "minLength", "maxLength"), "minLength/maxLength")
			}
		case annotate.Integer, annotate.Number:
			if f.Kind == annotate.Integer {
				add(clients.Integer, "", "an integer field")
			} else {
				add(clients.Number, "", "a number field")
			}
			if f.Minimum != nil || f.Maximum != nil {
				add(clients.Bounds, key(f.Minimum != nil, "minimum", "maximum"), "minimum/maximum")
			}
			if !f.Required {
				add(clients.OptionalNumber, "optional", "an optional "+f.Kind.String())
			}
		case annotate.Boolean:
			add(clients.Boolean, "", "a boolean field")
			if f.Default != nil && !f.Default.Bool {
				add(clients.DefaultFalse, "default", "default=false")
			}
		case annotate.MultiSelect:
			add(clients.MultiSelect, key(f.Choices, "choices", "enum"), "a multi select")
		}
		if f.Default != nil {
			add(clients.Default, "default", "default="+f.Default.Lit)
		}
		if f.Required {
			add(clients.Required, "required", "a required field")
		}
	}
	out = append(out, Use{Feature: clients.DeclineCancel, What: "its decline and cancel answers"})
	return out
}

// modern is the first protocol version whose form elicitation knows the
// whole requestedSchema grammar (titled selects, multi selects, defaults of
// every kind); the runtime sends a client of an older version a reduced
// schema (internal/downgrade).
const modern = "2025-11-25"

// elicitation2025 is the source of what an MCP 2025-06-18 client is sent.
const elicitation2025 clients.Source = "https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation"

// sent returns uses as client c is sent them: unchanged for a client of
// MCP 2025-11-25 or later (or of no known version); for an older one, as
// the runtime reduces the schema (internal/downgrade): a titled select is
// enum + enumNames; a default other than a boolean's is not sent; an
// optional multi select is left out, and a required one is never sent: the
// call ends in the tool error naming it. Those effects carry their own Cell.
func sent(uses []Use, c *clients.Client) []Use {
	if len(c.Protocols) == 0 || c.Protocols[0] >= modern {
		return uses
	}
	v := c.Protocols[0]
	var out []Use
	dropped := map[*annotate.Field]bool{}
	for _, u := range uses {
		if u.Feature == clients.MultiSelect && u.Field != nil {
			dropped[u.Field] = true
			cl := clients.Cell{Support: clients.Degrades, Source: elicitation2025,
				How: "left out of the form: protocol " + v + " has no multi select",
				Fix: "ask it as one boolean per option, or take it as an argument"}
			if u.Field.Required {
				cl = clients.Cell{Support: clients.Breaks, WholeForm: true, Source: elicitation2025,
					How: "the form is never sent: protocol " + v + " has no multi select, so the call ends in the tool error naming the field",
					Fix: "make the multi select optional, or ask it as one boolean per option"}
			}
			out = append(out, Use{Feature: u.Feature, Field: u.Field, Key: u.Key, What: u.What, Cell: &cl})
		}
	}
	for _, u := range uses {
		switch {
		case u.Field != nil && dropped[u.Field]:
			continue // the field is not in the form it is sent
		case u.Feature == clients.TitledEnum:
			u.Feature, u.What = clients.EnumNames, u.What+", sent as enum + enumNames (protocol "+v+")"
		case u.Feature == clients.Default && u.Field != nil && u.Field.Kind != annotate.Boolean:
			u.Cell = &clients.Cell{Support: clients.Degrades, Source: elicitation2025,
				How: "not sent: protocol " + v + " has defaults on booleans only", Fix: "say the default in the description"}
		}
		out = append(out, u)
	}
	return out
}

// words is s in lower case without what is not a letter or digit: a
// client that shows a property's key instead of its title changes nothing
// a user reads when the two have the same words ("Passengers",
// "passengers"; "Departure date", "departure_date").
func words(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// key is yes when b, else no.
func key(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// cell is how c handles u's feature; for the form as a whole, also whether
// c declares form elicitation (URL mode) at all.
func cell(c *clients.Client, feat clients.Feature) clients.Cell {
	switch feat {
	case formFeature:
		return c.Form
	case clients.URLMode:
		if cl := c.Cell(feat); cl.Support != clients.Unknown {
			return cl
		}
		return c.URL
	}
	return c.Cell(feat)
}

// Level is how badly a client must handle a feature for the check to warn
// about it.
type Level int

const (
	// Breaks warns about what a client breaks (clients.Breaks): its user
	// cannot answer as intended, or the whole form is refused or replaced.
	// It is what mcpgen shows by default.
	Breaks Level = iota
	// Degrades also warns about what a client degrades (clients.Degrades):
	// a label, a check or a default lost on the way, which the server's own
	// validation makes up for (mcpgen -v).
	Degrades
)

// Check returns the warnings for pkg's forms at level, sorted by position:
// each struct is judged for the clients of its //mcpgen:clients directive
// (annotate.Struct.Clients: none when it says off), else for def.
func Check(pkg *annotate.Package, def []*clients.Client, level Level) []annotate.Diagnostic {
	var out []annotate.Diagnostic
	for _, s := range pkg.Structs {
		chosen := def
		if s.Clients != nil {
			chosen = s.Clients.Clients
			if s.Clients.Off {
				chosen = nil
			}
		}
		out = append(out, Struct(s, chosen, level)...)
	}
	sortDiags(out)
	return out
}

// Struct returns the warnings for the form of s, for each client of chosen
// in order: one per field, feature and client; a whole-form effect once per
// client and cell at the struct (the features whose cells say the same are
// one warning), each field that causes it a related site.
func Struct(s *annotate.Struct, chosen []*clients.Client, level Level) []annotate.Diagnostic {
	uses := Features(s)
	if len(uses) == 0 {
		return nil
	}
	if !s.URLMode {
		uses = append([]Use{{Feature: formFeature, What: "a form (form-mode elicitation)"}}, uses...)
	}
	var out []annotate.Diagnostic
	var who []*clients.Client // the client of each of out
	for _, c := range chosen {
		// One whole-form warning per effect: the cells of several features
		// (integer, bounds, optional number) often say the same.
		whole := map[clients.Cell]int{} // cell → index in out of its whole-form warning
		for _, u := range sent(uses, c) {
			cl := cell(c, u.Feature)
			if u.Cell != nil {
				cl = *u.Cell
			}
			if cl.Support != clients.Breaks && (cl.Support != clients.Degrades || level < Degrades) {
				continue
			}
			if u.Field == nil || cl.WholeForm {
				if i, ok := whole[cl]; ok {
					if u.Field != nil {
						out[i].Related = addRelated(out[i].Related, related(u))
						out[i].Message = wholeMessage(c, cl, s, u, out[i].Related)
					}
					continue
				}
				end := s.Pos
				end.Offset += len(s.Name)
				end.Column += len(s.Name)
				d := annotate.Diagnostic{Pos: s.Pos, End: end, Category: Category, URL: string(cl.Source)}
				if u.Field != nil {
					d.Related = []annotate.Related{related(u)}
				}
				d.Message = wholeMessage(c, cl, s, u, d.Related)
				whole[cl] = len(out)
				out = append(out, d)
				who = append(who, c)
				continue
			}
			pos, end := u.Field.TagSpan(u.Key)
			out = append(out, annotate.Diagnostic{
				Pos: pos, End: end, Category: Category, URL: string(cl.Source),
				Message:        fmt.Sprintf("%s %s %s, %s: %s", clientName(c), cl.Support, u.Field.JSONName, u.What, advice(cl)),
				SuggestedFixes: fixes(u),
			})
			who = append(who, c)
		}
	}
	return group(out, who)
}

// group makes one warning of those that differ only in their client (the
// same place, effect, advice and source: "Windsurf 1.12 (windsurf), Zed
// 0.200 (zed) break …"), in the order of the first; who is the client of
// each warning.
func group(ws []annotate.Diagnostic, who []*clients.Client) []annotate.Diagnostic {
	type entry struct {
		i       int
		clients []*clients.Client
		verb    string
	}
	var out []annotate.Diagnostic
	var entries []*entry
	byKey := map[string]*entry{}
	for i, w := range ws {
		name := clientName(who[i]) + " "
		verb, tail, _ := strings.Cut(strings.TrimPrefix(w.Message, name), " ")
		key := fmt.Sprint(w.Pos, w.End, w.Related, w.URL, verb, tail)
		if e, ok := byKey[key]; ok {
			e.clients = append(e.clients, who[i])
			continue
		}
		e := &entry{i: len(out), clients: []*clients.Client{who[i]}, verb: verb}
		byKey[key] = e
		entries = append(entries, e)
		w.Message = tail
		out = append(out, w)
	}
	for _, e := range entries {
		var names []string
		for _, c := range e.clients {
			names = append(names, clientName(c))
		}
		verb := e.verb
		if len(names) > 1 {
			verb = strings.TrimSuffix(verb, "s") // degrade, break
		}
		out[e.i].Message = strings.Join(names, ", ") + " " + verb + " " + out[e.i].Message
	}
	return out
}

// related is the site of a field that causes a whole-form effect.
func related(u Use) annotate.Related {
	pos, end := u.Field.TagSpan(u.Key)
	return annotate.Related{Pos: pos, End: end, Message: fmt.Sprintf("%s: %s", u.Field.JSONName, u.What)}
}

// addRelated adds r to rel, or what r says to the related site of rel at
// the same place ("passengers: an integer field; an optional integer").
func addRelated(rel []annotate.Related, r annotate.Related) []annotate.Related {
	for i, o := range rel {
		if o.Pos == r.Pos {
			_, what, _ := strings.Cut(r.Message, ": ")
			rel[i].Message += "; " + what
			return rel
		}
	}
	return append(rel, r)
}

// wholeMessage is the message of a whole-form warning about u's feature,
// caused by the fields of rel (none: the form itself).
func wholeMessage(c *clients.Client, cl clients.Cell, s *annotate.Struct, u Use, rel []annotate.Related) string {
	whole := ""
	if cl.WholeForm {
		whole = "whole "
	}
	form := "the " + whole + "form of " + s.Tool
	if s.Question {
		form = "the " + whole + "question " + s.Name
	}
	// The fields that cause it, each with what it carries, in order.
	var names []string
	whats := map[string][]string{}
	for _, r := range rel {
		name, what, _ := strings.Cut(r.Message, ": ")
		if whats[name] == nil {
			names = append(names, name)
		}
		whats[name] = append(whats[name], what)
	}
	cause := "for " + u.What
	if len(names) > 0 {
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s (%s)", n, strings.Join(whats[n], "; ")))
		}
		cause = "because of " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%s %s %s, %s: %s", clientName(c), cl.Support, form, cause, advice(cl))
}

// clientName is "Name Version (id)", as a warning names a client.
func clientName(c *clients.Client) string {
	return fmt.Sprintf("%s %s (%s)", c.Name, c.Version, c.ID)
}

// advice is what the user sees and what to do.
func advice(cl clients.Cell) string {
	how := strings.TrimSuffix(strings.TrimSpace(cl.How), ".")
	if how == "" {
		how = "renders it badly (no details)"
	}
	if fix := strings.TrimSuffix(strings.TrimSpace(cl.Fix), "."); fix != "" {
		return how + "; what to do: " + fix
	}
	return how
}

// fixes are the suggested fixes of a warning about u that keep the tool's
// meaning, and so are safe for `mcpgen-vet -fix` to apply: default=false on
// a bool that is not a pointer (an optional bool left unanswered is false
// already, so only the schema's default goes).
func fixes(u Use) []annotate.SuggestedFix {
	f := u.Field
	if u.Feature == clients.DefaultFalse && !f.Pointer && !f.Slice {
		return f.RemoveOptionFix("default", "Remove default=false (an unanswered optional bool is false already)")
	}
	return nil
}

func sortDiags(diags []annotate.Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Pos, diags[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
}
