package engine

import (
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// InputSchema returns the tool's input schema (MCP 2026-07-28, server/tools:
// Tool.inputSchema, what tools/list shows the model; an adapter registers it;
// for a prompt, its arguments), a {"type":"object"} *jsonschema.Schema
// (invopop/jsonschema), a new object on every call (its property schemas may
// be shared with the generated code's: change a copy): the one mcpgen wrote at
// generation time, or else the flow's argument struct reflected by
// invopop/jsonschema, without $schema, $id or $defs, with every elicitable
// field made optional and carrying its title, description, enum and format
// but no default (an SDK that fills defaults in would make the field never
// missing). An ask=always field (a typed confirmation) is left out: only the
// user may answer it, in the form, so the model must not be invited to fill
// it in. A plain field whose jsonschema tag has no key=value pairs takes the
// whole tag as its description (go-sdk's dialect). It returns no error; it
// panics on the zero Flow, which no New<T>Flow made (an adapter registering
// one then fails at once, as the SDKs' own AddTool does on a bad tool).
func (f *Flow) InputSchema() *jsonschema.Schema {
	if f.def.Schema != nil {
		return f.def.Schema()
	}
	if f.def.New == nil {
		panic(errZeroFlow)
	}
	r := &jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, AllowAdditionalProperties: true}
	args := f.def.New()
	s := r.Reflect(args)
	s.Version, s.ID = "", ""
	plainDescriptions(s, reflect.TypeOf(args))
	elicit := args.RequestedSchema(f.def.Fields...)
	if s.Properties == nil {
		s.Properties = jsonschema.NewProperties()
	}
	for pair := elicit.Properties.Oldest(); pair != nil; pair = pair.Next() {
		p := *pair.Value
		p.Default = nil
		s.Properties.Set(pair.Key, &p)
	}
	for _, name := range f.def.AskAlways {
		s.Properties.Delete(name)
	}
	var req []string
	for _, name := range s.Required {
		if !slices.Contains(f.def.Fields, name) {
			req = append(req, name)
		}
	}
	s.Required = req
	return s
}

func plainDescriptions(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Tag.Get("json") == "" {
			plainDescriptions(s, sf.Type)
			continue
		}
		js := sf.Tag.Get("jsonschema")
		if js == "" || strings.Contains(js, "=") {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" {
			name = sf.Name
		}
		if p, ok := s.Properties.Get(name); ok && p.Description == "" {
			p.Description = js
		}
	}
}
