// Package preview is `mcpgen preview`: one self-contained HTML page that
// shows each form of a package (each tool's own form with every elicitable
// field, each //mcpgen:question) as each chosen client renders it, drawn
// from the client table of package clients: the label of each field, the
// label of each option, what the client drops, a form it turns into a
// yes/no box, its buttons, and the fallback text a tool returns to a client
// without elicitation. The specification's rendering is the reference
// column. The page is html/template and a little inline CSS, no script.
//
// It is part of mcpgen's generator, exported for `mcpgen preview` only: its API
// carries no compatibility promise.
package preview

import (
	"cmp"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
)

// Form is one form of a package, as the server sends it.
type Form struct {
	// ID is the form's anchor in the page and its data-form attribute: the
	// tool's name for a tool's own form, "question:" and the struct's name
	// for a question.
	ID string
	// Struct is the Go type the form fills; Package its import path.
	Struct, Package string
	// Tool is the tool's name; for a question, the package's tool when it
	// has exactly one (the tool whose branch asks it), else "".
	Tool string
	// Question reports a //mcpgen:question; URL one asked on the server's
	// page (//mcpgen:question url).
	Question, URL bool
	// Message is the form's message, as the runtime sends it when the
	// struct's //mcpgen:message is all there is ("Please provide: …" of the
	// titles without one).
	Message string
	// Schema is the requestedSchema with every elicitable field
	// (gen.RequestedSchema: what the generated RequestedSchema returns).
	Schema *jsonschema.Schema
	// AskAlways are the ask=always fields; Choices the fields whose
	// options the server lists for each call (elicit:"choices").
	AskAlways, Choices []string
}

// Forms returns the forms of the packages' structs, in source order: a
// tool with no elicitable field has none.
func Forms(pkgs []*annotate.Package) []Form {
	var out []Form
	for _, p := range pkgs {
		var tools []string
		for _, s := range p.Structs {
			if !s.Question {
				tools = append(tools, s.Tool)
			}
		}
		for _, s := range p.Structs {
			if len(s.Fields) == 0 {
				continue
			}
			f := Form{ID: s.Tool, Struct: s.Name, Package: p.Path, Tool: s.Tool, Question: s.Question,
				URL: s.URLMode, Schema: gen.RequestedSchema(s)}
			if s.Question {
				f.ID = "question:" + s.Name
				if len(tools) == 1 {
					f.Tool = tools[0]
				}
			}
			var titles []string
			for _, fd := range s.Fields {
				titles = append(titles, cmp.Or(fd.Title, fd.JSONName))
				if fd.AskAlways {
					f.AskAlways = append(f.AskAlways, fd.JSONName)
				}
				if fd.Choices {
					f.Choices = append(f.Choices, fd.JSONName)
				}
			}
			f.Message = cmp.Or(s.Message, "Please provide: "+strings.Join(titles, ", "))
			out = append(out, f)
		}
	}
	return out
}
