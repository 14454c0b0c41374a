package impl

import (
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestedSchemaReadsTheProperties holds impl.RequestedSchema to what a
// generated RequestedSchema returned when it wrote each property itself: the
// fields asked in the order of the properties (not of the names), unknown
// names ignored, "required" for the required fields asked only, and a new
// object and list on every call, so that a caller changing them changes no
// later schema.
func TestRequestedSchemaReadsTheProperties(t *testing.T) {
	props := []Property{
		{Name: "a", Required: true, Schema: &jsonschema.Schema{Type: "string"}},
		{Name: "b", Schema: &jsonschema.Schema{Type: "integer", Default: json.Number("1")}},
		{Name: "c", Required: true, Schema: &jsonschema.Schema{Type: "boolean"}},
	}
	s := RequestedSchema(props, []string{"c", "nope", "b"})
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"b":{"type":"integer","default":1},"c":{"type":"boolean"}},"required":["c"]}`, string(b))
	assert.Equal(t, []string{"b", "c"}, keys(s))

	s.Required = append(s.Required, "x")
	s.Properties.Delete("b")
	again := RequestedSchema(props, []string{"a", "b", "c"})
	assert.Equal(t, []string{"a", "b", "c"}, keys(again))
	assert.Equal(t, []string{"a", "c"}, again.Required)

	none, err := json.Marshal(RequestedSchema(props, nil))
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{}}`, string(none))
}

// TestSetInputPropertyDropsTheDefault holds impl.SetInputProperty to the
// input schema's rule for an elicitable field (no default, so that an SDK
// filling defaults in cannot make the field never missing) without changing
// the shared property, which RequestedSchema still sends with its default.
func TestSetInputPropertyDropsTheDefault(t *testing.T) {
	withDefault := Property{Name: "n", Schema: &jsonschema.Schema{Type: "integer", Title: "N", Default: json.Number("3")}}
	plain := Property{Name: "s", Required: true, Schema: &jsonschema.Schema{Type: "string"}}
	s := NewObjectSchema()
	SetInputProperty(s, withDefault)
	SetInputProperty(s, plain)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"n":{"type":"integer","title":"N"},"s":{"type":"string"}}}`, string(b))
	assert.Equal(t, json.Number("3"), withDefault.Schema.Default, "the shared property lost its default")
	assert.Empty(t, s.Required, "an elicitable field is never required in the input schema")
}

func keys(s *jsonschema.Schema) []string {
	var out []string
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		out = append(out, p.Key)
	}
	return out
}
