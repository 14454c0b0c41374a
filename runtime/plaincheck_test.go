package runtime

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	gjsonschema "github.com/google/jsonschema-go/jsonschema"
)

// quickSchemas are input schemas quickNode compiles: bookflight's as
// InputSchema makes it, and others that use every keyword it knows.
var quickSchemas = []string{
	`{"properties":{"origin":{"type":"string","description":"IATA code of the departure airport, e.g. CDG"},"destination":{"type":"string","description":"IATA code of the arrival airport, e.g. JFK"},"date":{"type":"string","format":"date","title":"Departure date","description":"The day the flight leaves (YYYY-MM-DD)"},"window":{"oneOf":[{"const":"morning","title":"Morning"},{"const":"afternoon","title":"Afternoon"},{"const":"evening","title":"Evening"}],"type":"string","title":"Time of day"},"passengers":{"type":"integer","maximum":9,"minimum":1,"title":"Passengers"}},"type":"object","required":["origin","destination"]}`,
	`{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":2.5},"b":{"type":["string","null"],"minLength":1,"maxLength":3},"c":{"type":"array","items":{"type":"string","enum":["x","y"]},"minItems":1,"maxItems":2},"d":{"anyOf":[{"const":"x"},{"const":"y"}]},"e":{"type":"boolean","default":true},"f":{"type":"object","properties":{"g":{"type":"integer"}},"required":["g"],"additionalProperties":true},"h":{"oneOf":[{"const":"x"},{"const":"x"}]},"i":true,"j":{"enum":["x","é"]}},"required":["a"],"additionalProperties":{}}`,
	`{"type":"object"}`,
}

// quickValues are the leaves the instances are made of.
var quickValues = []any{nil, true, false, 0.0, 1.0, -1.0, 1.5, 2.5, 9.0, 10.0, 1e300, -1e-300,
	"", "a", "ab", "abcd", "é", "éé", "x", "y", "morning", "evening", "CDG", []any{}, map[string]any{}}

func quickInstance(r *rand.Rand, names []string, depth int) any {
	switch n := r.IntN(10); {
	case n < 5 || depth > 2:
		return quickValues[r.IntN(len(quickValues))]
	case n < 7:
		var a []any
		for range r.IntN(4) {
			a = append(a, quickInstance(r, names, depth+1))
		}
		return a
	default:
		m := map[string]any{}
		for range r.IntN(len(names) + 2) {
			name := "other"
			if i := r.IntN(len(names) + 1); i < len(names) {
				name = names[i]
			}
			m[name] = quickInstance(r, names, depth+1)
		}
		return m
	}
}

// TestQuickAgreesWithJSONSchemaGo holds quickNode.valid to jsonschema-go's
// Validate on random JSON values: valid exactly when jsonschema-go accepts,
// so that checkPlain may skip jsonschema-go for what quickNode accepts.
func TestQuickAgreesWithJSONSchemaGo(t *testing.T) {
	names := []string{"origin", "destination", "date", "window", "passengers", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	r := rand.New(rand.NewPCG(1, 2))
	for i, src := range quickSchemas {
		quick := compileQuickJSON([]byte(src))
		if quick == nil {
			t.Fatalf("schema %d does not compile", i)
		}
		var s gjsonschema.Schema
		if err := json.Unmarshal([]byte(src), &s); err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		valid := 0
		for range 20000 {
			v := quickInstance(r, names, 0)
			if m, ok := v.(map[string]any); ok && r.IntN(2) == 0 { // often satisfy required
				m["origin"], m["destination"], m["a"] = "CDG", "JFK", 1.0
			}
			// Through JSON, as checkPlain sees the arguments.
			b, _ := json.Marshal(v)
			var in any
			if err := json.Unmarshal(b, &in); err != nil {
				t.Fatal(err)
			}
			want := rs.Validate(in) == nil
			if got := quick.valid(in); got != want {
				t.Fatalf("schema %d, instance %s: quick %v, jsonschema-go %v (%v)", i, b, got, want, rs.Validate(in))
			}
			if want {
				valid++
			}
		}
		if valid < 100 {
			t.Errorf("schema %d: only %d valid instances: the test says little", i, valid)
		}
	}
}

// TestQuickDoesNotCompile checks that schemas with keywords quickNode does
// not know are left to jsonschema-go.
func TestQuickDoesNotCompile(t *testing.T) {
	for _, src := range []string{
		`{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}}}`,
		`{"type":"object","additionalProperties":false}`,
		`{"$ref":"#/$defs/a","$defs":{"a":{}}}`,
		`{"enum":[1,2]}`,
		`{"const":null}`,
		`{"type":"array","uniqueItems":true}`,
		`{"type":"object","properties":{"a":{"not":{}}}}`,
		`false`,
	} {
		if compileQuickJSON([]byte(src)) != nil {
			t.Errorf("%s compiled", src)
		}
	}
}
