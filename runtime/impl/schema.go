package impl

import (
	"slices"

	"github.com/invopop/jsonschema"
)

// NewObjectSchema returns a new empty flat requestedSchema,
// {"type":"object","properties":{}}, which a generated RequestedSchema method
// fills with one property per field asked, in field order (MCP 2026-07-28,
// client/elicitation: requestedSchema is an object of primitive properties).
// Each call returns a fresh schema that the caller may change.
func NewObjectSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
}

// Property is the property of one elicitable field in a requestedSchema (MCP
// 2026-07-28, client/elicitation), as a generated file states it once, in a
// package-level list per struct that [RequestedSchema] and
// [SetInputProperty] read. Schema is shared by every schema made from it:
// nothing changes it.
type Property struct {
	Name     string // the field's JSON name
	Required bool   // listed in the requestedSchema's "required"
	// Schema is the property's schema, with the field's default.
	Schema *jsonschema.Schema
}

// RequestedSchema returns a new flat requestedSchema (MCP 2026-07-28,
// client/elicitation) holding the properties of props whose names fields
// lists, in the order of props; a name props lacks is ignored. The object
// and its "required" list are fresh; its property schemas are props' own,
// which the caller must not change (change a copy).
func RequestedSchema(props []Property, fields []string) *jsonschema.Schema {
	s := NewObjectSchema()
	for _, p := range props {
		if slices.Contains(fields, p.Name) {
			s.Properties.Set(p.Name, p.Schema)
			if p.Required {
				s.Required = append(s.Required, p.Name)
			}
		}
	}
	return s
}

// SetInputProperty sets p in s, a tool's input schema (MCP 2026-07-28,
// server/tools: Tool.inputSchema), as the input schema holds an elicitable
// field: without its default (an SDK that fills defaults in would make the
// field never missing) and never required. The property schema is p's own
// when it has no default, else a shallow copy without it; the caller must not
// change it.
func SetInputProperty(s *jsonschema.Schema, p Property) {
	schema := p.Schema
	if schema.Default != nil {
		cp := *schema
		cp.Default = nil
		schema = &cp
	}
	s.Properties.Set(p.Name, schema)
}

// Uint64 returns a pointer to a new uint64 holding n, for the *uint64 keywords
// of jsonschema.Schema: minLength and maxLength (in characters, JSON Schema
// 2020-12 Validation §6.3) and minItems and maxItems (§6.4).
func Uint64(n uint64) *uint64 { return &n }
