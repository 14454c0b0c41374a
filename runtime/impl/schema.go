package impl

import "github.com/invopop/jsonschema"

// NewObjectSchema returns a new empty flat requestedSchema,
// {"type":"object","properties":{}}, which a generated RequestedSchema method
// fills with one property per field asked, in field order (MCP 2026-07-28,
// client/elicitation: requestedSchema is an object of primitive properties).
// Each call returns a fresh schema that the caller may change.
func NewObjectSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
}

// Uint64 returns a pointer to a new uint64 holding n, for the *uint64 keywords
// of jsonschema.Schema: minLength and maxLength (in characters, JSON Schema
// 2020-12 Validation §6.3) and minItems and maxItems (§6.4).
func Uint64(n uint64) *uint64 { return &n }
