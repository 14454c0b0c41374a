package downgrade

import (
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/require"
)

// TestSchema: a 2025-11-25 client gets the schema itself; a 2025-06-18
// client enum + enumNames, no default but a boolean's, no optional multi
// select, and a required one is an error.
func TestSchema(t *testing.T) {
	s := &jsonschema.Schema{}
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{
		"w":{"type":"string","title":"W","default":"a","oneOf":[{"const":"a","title":"A"}]},
		"b":{"type":"boolean","default":false},
		"m":{"type":"array","items":{"type":"string","enum":["x"]}}},"required":["w"]}`), s))
	same, err := Schema(s, Full)
	require.NoError(t, err)
	require.Same(t, s, same)
	old, err := Schema(s, "2025-06-18")
	require.NoError(t, err)
	b, _ := json.Marshal(old)
	require.JSONEq(t, `{"type":"object","properties":{"w":{"type":"string","title":"W","enum":["a"],"enumNames":["A"]},
		"b":{"type":"boolean","default":false}},"required":["w"]}`, string(b))
	s.Required = append(s.Required, "m")
	_, err = Schema(s, "2025-06-18")
	require.EqualError(t, err, "protocol 2025-06-18 clients cannot show a multi-select, so pass these as arguments: m")
}
