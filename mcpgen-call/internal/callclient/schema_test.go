package callclient

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every kind of the requested-schema grammar, in the wire's order (which a
// map would lose), with its rules checked.
func TestParseSchemaEveryKind(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","required":["email","tags"],"properties":{
		"zeta":{"type":"boolean","title":"Zeta","default":true},
		"email":{"type":"string","format":"email","minLength":3,"maxLength":40},
		"size":{"type":"string","enum":["s","m"],"enumNames":["Small","Medium"]},
		"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"},{"const":"c","title":"C"}]}},
		"ratio":{"type":"number","minimum":0.5,"maximum":2},
		"alpha":{"type":"integer"}}}}}`
	var o propertyOrders
	o.record([]byte(msg))
	var params struct {
		RequestedSchema any `json:"requestedSchema"`
	}
	var m struct{ Params json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(msg), &m))
	require.NoError(t, json.Unmarshal(m.Params, &params))
	fields, err := parseSchema(params.RequestedSchema, o.lookup)
	require.NoError(t, err)
	var names, kinds []string
	for _, f := range fields {
		names, kinds = append(names, f.Name), append(kinds, f.Kind)
	}
	assert.Equal(t, []string{"zeta", "email", "size", "tags", "ratio", "alpha"}, names)
	assert.Equal(t, []string{"boolean", "string", "select", "multi", "number", "integer"}, kinds)
	assert.Equal(t, []option{{"s", "Small"}, {"m", "Medium"}}, fields[2].Options)
	assert.Equal(t, []option{{"a", "A"}, {"b", "B"}, {"c", "C"}}, fields[3].Options)
	// What each field shows it takes, before anything is typed.
	var hints []string
	for _, f := range fields {
		hints = append(hints, f.hint())
	}
	assert.Equal(t, []string{"default: Yes", "3 to 40 characters · email, name@example.com", "",
		"choose 1 to 2", "a number from 0.5 to 2", "a whole number"}, hints)

	for _, tc := range []struct {
		content map[string]any
		want    string // "" valid
	}{
		{map[string]any{"email": "a@b.co", "tags": []any{"a"}}, ""},
		{map[string]any{"email": "not an email", "tags": []any{"a"}}, ""}, // the server's to check
		{map[string]any{"email": "a@b.co", "tags": []any{}}, `"tags": tags: choose at least 1`},
		{map[string]any{"email": "a@b.co", "tags": []any{"a", "b", "c"}}, `"tags": tags: choose at most 2`},
		{map[string]any{"email": "a@b.co", "tags": []any{"d"}}, `"tags": tags: "d" is not one of ["a","b","c"]`},
		{map[string]any{"email": "a@b.co", "tags": []any{"a"}, "ratio": 3.0}, `"ratio": ratio must be at most 2`},
		{map[string]any{"email": "a@b.co", "tags": []any{"a"}, "size": "l"}, `"size": size must be one of ["s","m"]`},
		{map[string]any{"email": "a@b.co", "tags": []any{"a"}, "zeta": "yes"}, `"zeta": Zeta must be true or false`},
		{map[string]any{"tags": []any{"a"}}, `"email" (email) is required`},
	} {
		err := sdkCheck(fields, tc.content)
		if tc.want == "" {
			assert.NoError(t, err)
		} else {
			assert.EqualError(t, err, tc.want)
		}
	}
	assert.EqualError(t, fields[1].check("not an email"), "email must be a valid email (name@example.com)", "the form's check")
	// What is typed into an input.
	v, err := fields[4].parseText("1.5")
	assert.NoError(t, err)
	assert.Equal(t, 1.5, v)
	_, err = fields[4].parseText("0.1")
	assert.EqualError(t, err, "ratio must be at least 0.5")
	v, err = fields[5].parseText("")
	assert.NoError(t, err, "optional: no answer")
	assert.Nil(t, v)
	_, err = fields[1].parseText("ab")
	assert.EqualError(t, err, "email must be at least 3 characters")
	_, err = fields[1].parseText("")
	assert.EqualError(t, err, "email is required")
}

func TestParseSchemaRefusesNesting(t *testing.T) {
	_, err := parseSchema(map[string]any{"properties": map[string]any{"o": map[string]any{"type": "object"}}}, func([]string) []string { return nil })
	assert.EqualError(t, err, `requestedSchema property "o": type "object" is not in the elicitation grammar`)
}

// The hint of each bound alone, exact lengths, and defaults shown by their
// labels.
func TestFieldHint(t *testing.T) {
	one, three := 1, 3
	lo, hi := -2.5, 1e6
	for _, tc := range []struct {
		f    field
		want string
	}{
		{field{Kind: "string", MinLength: &three}, "at least 3 characters"},
		{field{Kind: "string", MaxLength: &three, Format: "date"}, "at most 3 characters · date, YYYY-MM-DD"},
		{field{Kind: "string", MinLength: &three, MaxLength: &three}, "exactly 3 characters"},
		{field{Kind: "string", Format: "ipv4", Default: "10.0.0.1"}, "ipv4 · default: 10.0.0.1"},
		{field{Kind: "number", Minimum: &lo}, "a number of at least -2.5"},
		{field{Kind: "integer", Maximum: &hi, Default: 7.0}, "a whole number of at most 1e+06 · default: 7"},
		{field{Kind: "multi", MaxItems: &one, Options: []option{{"a", "Apple"}}, Default: []any{"a"}}, "choose at most 1 · default: Apple"},
		{field{Kind: "select", Options: []option{{"m", "Morning"}}, Default: "m"}, "default: Morning"},
		{field{Kind: "boolean", Default: false}, "default: No"},
		{field{Kind: "boolean"}, ""},
	} {
		assert.Equal(t, tc.want, tc.f.hint())
	}
}
