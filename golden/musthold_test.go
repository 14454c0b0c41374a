package golden

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/embedded"
	"github.com/mcpgen/mcpgen/golden/testdata/legacyenums"
	"github.com/mcpgen/mcpgen/golden/testdata/nums"
	"github.com/mcpgen/mcpgen/golden/testdata/person"
	"github.com/mcpgen/mcpgen/golden/testdata/selects"
	"github.com/mcpgen/mcpgen/golden/testdata/strs"
	"github.com/mcpgen/mcpgen/golden/testdata/times"
	"github.com/mcpgen/mcpgen/golden/testdata/titles"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// prop returns one property of a requestedSchema as decoded JSON.
func prop(t *testing.T, a runtime.Args, name string) map[string]any {
	t.Helper()
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(mustJSON(t, a.RequestedSchema(name))), &s))
	p, ok := s.Properties[name]
	require.True(t, ok, "no property %q", name)
	return p
}

func fieldErr(t *testing.T, err error, field string) runtime.FieldError {
	t.Helper()
	var ve *runtime.ValidationError
	require.True(t, errors.As(err, &ve), "want a *runtime.ValidationError, got %v", err)
	for _, fe := range ve.Errors {
		if fe.Field == field {
			return fe
		}
	}
	t.Fatalf("no error for %q in %v", field, err)
	return runtime.FieldError{}
}

func TestSelectShapes(t *testing.T) {
	s := &selects.Singles{}
	// A titled single select carries "type":"string" next to oneOf.
	w := prop(t, s, "window")
	require.Equal(t, "string", w["type"])
	require.Equal(t, []any{
		map[string]any{"const": "morning", "title": "Morning"},
		map[string]any{"const": "afternoon", "title": "Afternoon"},
		map[string]any{"const": "evening", "title": "Evening"},
	}, w["oneOf"])
	require.NotContains(t, w, "enum")
	// A named string type with constants is a primitive select, not an error;
	// untitled constants give enum.
	l := prop(t, s, "level")
	require.Equal(t, "string", l["type"])
	require.Equal(t, []any{"low", "medium", "high"}, l["enum"])
	// A tag enum on a named type narrows the constants.
	require.Len(t, prop(t, s, "window2")["enum"], 2)

	m := &selects.Multis{}
	// Untitled multi select: items carry "type":"string" and enum.
	tags := prop(t, m, "tags")
	require.Equal(t, "array", tags["type"])
	require.Equal(t, map[string]any{"type": "string", "enum": []any{"a", "b", "c"}}, tags["items"])
	require.EqualValues(t, 1, tags["minItems"])
	// Titled multi select: items carry anyOf and no type.
	top := prop(t, m, "toppings")
	items := top["items"].(map[string]any)
	require.NotContains(t, items, "type")
	require.Len(t, items["anyOf"], 3)
	require.Equal(t, []any{"ch", "ham"}, top["default"])
	require.EqualValues(t, 2, top["maxItems"])
	// On a slice of a named string type, from its constants.
	require.Len(t, prop(t, m, "windows")["items"].(map[string]any)["anyOf"], 3)
	require.Equal(t, map[string]any{"type": "string", "enum": []any{"low", "medium", "high"}}, prop(t, m, "levels")["items"])

	// A multi select of a named type sets []Window.
	require.NoError(t, m.ApplyContent(map[string]any{"tags": []any{"a"}, "windows": []any{"evening", "morning"}}))
	require.Equal(t, []selects.Window{selects.Evening, selects.Morning}, m.Windows)
	require.Equal(t, []selects.Level{selects.Low}, m.Levels, "default")
	require.Equal(t, "enum", fieldErr(t, (&selects.Multis{}).ApplyContent(map[string]any{"tags": []any{"a", "d"}}), "tags").Keyword)
	require.Equal(t, "minItems", fieldErr(t, (&selects.Multis{}).ApplyContent(map[string]any{"tags": []any{"a"}, "windows": []any{}}), "windows").Keyword)
	require.Equal(t, "maxItems", fieldErr(t, (&selects.Multis{}).ApplyContent(map[string]any{"tags": []any{"a"}, "windows": []any{"morning", "evening", "afternoon"}}), "windows").Keyword)
}

// TestLegacyEnumNames: enum + enumNames only where asked for
// (//mcpgen:enumnames), and then only for
// titled single selects.
func TestLegacyEnumNames(t *testing.T) {
	l := &legacyenums.Legacy{}
	w := prop(t, l, "window")
	require.Equal(t, []any{"morning", "evening"}, w["enum"])
	require.Equal(t, []any{"Morning", "Evening"}, w["enumNames"])
	require.NotContains(t, w, "oneOf")
	require.Equal(t, []any{"Vegetarian", "Meat"}, prop(t, l, "meal")["enumNames"])
	require.NotContains(t, prop(t, l, "size"), "enumNames", "untitled selects have no names")
	require.Contains(t, prop(t, l, "multi")["items"], "anyOf", "multi selects keep anyOf")
	for _, gs := range goldenStructs() {
		if !gs.Legacy {
			require.NotContains(t, mustJSON(t, gs.Def.New().RequestedSchema(gs.Def.Fields...)), "enumNames", gs.Name)
		}
	}
}

// TestPersonCase is the issue's {name: string required, age: integer minimum 0}.
func TestPersonCase(t *testing.T) {
	p := &person.Person{}
	require.Equal(t, "required", fieldErr(t, p.ApplyContent(map[string]any{}), "name").Keyword)
	fe := fieldErr(t, p.ApplyContent(map[string]any{"name": 42.0}), "name")
	require.Equal(t, "type", fe.Keyword)
	require.Contains(t, fe.Message, "got number")
	require.Equal(t, "minimum", fieldErr(t, p.ApplyContent(map[string]any{"name": "Alice", "age": -5.0}), "age").Keyword)
	require.Equal(t, "type", fieldErr(t, p.ApplyContent(map[string]any{"name": "Alice", "age": 3.5}), "age").Keyword)
	require.Equal(t, "type", fieldErr(t, p.ApplyContent(map[string]any{"name": "Alice", "age": nil}), "age").Keyword, "null is not an integer")
	require.Equal(t, person.Person{}, *p, "nothing is set when anything fails")
	for _, three := range []any{3.0, json.Number("3.0"), json.Number("3"), json.Number("0.3e1")} {
		p := &person.Person{}
		require.NoError(t, p.ApplyContent(map[string]any{"name": "Alice", "age": three}))
		require.Equal(t, 3, *p.Age)
		require.Equal(t, "Alice", p.Name)
	}
	// The same through the flow: {} asks again for name only.
	var got []string
	flow := person.NewPersonFlow(recorder{&got})
	step := callFlow(t, flow, `{}`, "", nil)
	require.Equal(t, []string{"name", "age"}, asked(t, step))
	step = callFlow(t, flow, `{}`, step.RequestState, &protocol.ElicitResult{Action: runtime.Accept, Content: map[string]any{}})
	require.Equal(t, []string{"name"}, asked(t, step))
	step = callFlow(t, flow, `{}`, step.RequestState, &protocol.ElicitResult{Action: runtime.Accept, Content: map[string]any{"name": 42.0}})
	require.Equal(t, []string{"name"}, asked(t, step))
	require.Contains(t, msg(step), "must be a string")
}

type recorder struct{ got *[]string }

func (r recorder) Accept(_ context.Context, a *person.Person) (*runtime.Result, error) {
	age := "nil"
	if a.Age != nil {
		age = json.Number(mustJSONAny(*a.Age)).String()
	}
	*r.got = append(*r.got, "accept name="+a.Name+" age="+age)
	return runtime.Text("ok"), nil
}

func (r recorder) Decline(_ context.Context, a *person.Person, declined []string) (*runtime.Result, error) {
	*r.got = append(*r.got, "decline name="+a.Name+" declined="+strings.Join(declined, ","))
	return runtime.Text("declined"), nil
}

func (r recorder) Cancel(_ context.Context, a *person.Person) (*runtime.Result, error) {
	*r.got = append(*r.got, "cancel name="+a.Name)
	return runtime.Text("cancelled"), nil
}

func mustJSONAny(v any) string { b, _ := json.Marshal(v); return string(b) }

var testKeys = runtime.EphemeralKeyRing()

// callFlow makes one tools/call of flow through runtime.Flow.Call, as an
// adapter would, answering the last round's key with answer when non-nil.
func callFlow(t *testing.T, flow *runtime.Flow, args, state string, answer *protocol.ElicitResult) *runtime.Response {
	t.Helper()
	req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(args), RequestState: state,
		FormElicitation: true, ProtocolVersion: protocol.VersionMRTR}
	if answer != nil {
		req.InputResponses = map[string]protocol.InputResponse{}
		key := defOf(flow).Key
		for _, k := range []string{key, key + "_2", key + "_3"} {
			req.InputResponses[k] = answer
		}
	}
	res, err := flow.Call(context.Background(), &runtime.Options{Keys: testKeys}, req)
	require.NoError(t, err)
	return res
}

func asked(t *testing.T, res *runtime.Response) []string {
	t.Helper()
	require.Nil(t, res.Result, "want an input-required result, got %+v", res.Result)
	require.Len(t, res.InputRequests, 1)
	for _, ir := range res.InputRequests {
		var names []string
		for p := ir.(*protocol.ElicitRequest).RequestedSchema.Properties.Oldest(); p != nil; p = p.Next() {
			names = append(names, p.Key)
		}
		return names
	}
	return nil
}

func msg(res *runtime.Response) string {
	for _, ir := range res.InputRequests {
		return ir.(*protocol.ElicitRequest).Message
	}
	return ""
}

// TestAllOptionalAcceptWithoutContent: a form whose fields are all optional
// accepts {"action":"accept"} with no content.
func TestAllOptionalAcceptWithoutContent(t *testing.T) {
	s := &person.Settings{}
	require.NoError(t, s.ApplyContent(nil))
	require.Equal(t, "light", s.Theme, "an unanswered optional field takes its default")
	require.Nil(t, s.Volume, "a nil default stays nil")

	// Through runtime.Flow.Call: round 1 asks name and age; the answer
	// fixes name but breaks age, so round 2 asks for age alone, an
	// all-optional form; a bare accept completes the call.
	var got []string
	flow := person.NewPersonFlow(recorder{&got})
	step := callFlow(t, flow, `{}`, "", nil)
	step = callFlow(t, flow, `{}`, step.RequestState, &protocol.ElicitResult{Action: runtime.Accept, Content: map[string]any{"name": "Alice", "age": -5.0}})
	require.Equal(t, []string{"age"}, asked(t, step))
	require.Empty(t, step.InputRequests["person_2"].(*protocol.ElicitRequest).RequestedSchema.Required)
	step = callFlow(t, flow, `{}`, step.RequestState, &protocol.ElicitResult{Action: runtime.Accept})
	require.NotNil(t, step.Result)
	require.Equal(t, []string{"accept name=Alice age=nil"}, got)
}

// TestDeclineCancelIgnoreContent: decline and cancel with "content": null or
// with stale content run Decline or Cancel, and the content is not applied.
func TestDeclineCancelIgnoreContent(t *testing.T) {
	for _, tc := range []struct {
		action  runtime.Action
		content map[string]any
		want    string
	}{
		{runtime.Decline, nil, "decline name= declined=name,age"},
		{runtime.Decline, map[string]any{"name": "Mallory", "age": 7.0}, "decline name= declined=name,age"},
		{runtime.Cancel, nil, "cancel name="},
		{runtime.Cancel, map[string]any{"name": "Mallory"}, "cancel name="},
	} {
		var got []string
		flow := person.NewPersonFlow(recorder{&got})
		step := callFlow(t, flow, `{}`, "", nil)
		step = callFlow(t, flow, `{}`, step.RequestState, &protocol.ElicitResult{Action: tc.action, Content: tc.content})
		require.NotNil(t, step.Result, "%s ends the call", tc.action)
		require.Empty(t, step.InputRequests, "nothing more is asked")
		require.Equal(t, []string{tc.want}, got)
	}
}

// TestPointersAndDefaults: a pointer field never produces a ["null", …]
// type, in the requestedSchema or in the tool's input schema; a field
// without a default (a nil one) carries no "default".
func TestPointersAndDefaults(t *testing.T) {
	for _, gs := range goldenStructs() {
		for _, raw := range []string{mustJSON(t, gs.Def.New().RequestedSchema(gs.Def.Fields...)), mustJSON(t, gs.Flow.InputSchema())} {
			require.NotContains(t, raw, `"null"`, gs.Name)
			require.NotContains(t, raw, `"type":[`, gs.Name)
		}
	}
	i := &nums.Ints{}
	require.Equal(t, "integer", prop(t, i, "i")["type"])
	require.NotContains(t, prop(t, i, "u32"), "default")
	require.NotContains(t, prop(t, i, "rune"), "default")
	require.Equal(t, "boolean", prop(t, &nums.Bools{}, "agree")["type"])
	// Defaults of every kind, as JSON of the property's own type.
	require.Equal(t, json.Number("-9007199254740993"), decodeNumber(t, mustJSON(t, i.RequestedSchema("i64")), "i64"))
	require.Equal(t, json.Number("18446744073709551615"), decodeNumber(t, mustJSON(t, i.RequestedSchema("u64")), "u64"))
	require.NoError(t, i.ApplyContent(map[string]any{"i": 1.0, "age": 30.0}))
	require.Equal(t, int64(-9007199254740993), *i.I64, "an int64 default beyond 2^53 is exact")
	require.Equal(t, uint64(18446744073709551615), i.U64)
	require.Equal(t, uint8(255), *i.U8)
	require.Equal(t, int16(-300), *i.I16)
	require.Nil(t, i.U32)
	f := &nums.Floats{}
	require.NoError(t, f.ApplyContent(map[string]any{"f64": 1.5, "price": 2.0}))
	require.Equal(t, 0.25, f.Ratio)
	require.Equal(t, float32(21.5), *f.Temp)
	b := &nums.Bools{}
	require.NoError(t, b.ApplyContent(map[string]any{"agree": false}))
	require.False(t, *b.Agree, "false is an answer for a *bool")
	require.False(t, *b.Opt)
	require.True(t, b.On)
	require.Equal(t, false, prop(t, b, "opt")["default"])
}

// TestPlatformInts: an int or uint field (plain, pointer or named) holds
// what the platform's int holds (strconv.IntSize bits) and no more: on 386
// and arm 4294967297 for an int and 4294967296 for a uint are a "range" error
// naming the field, not a value wrapped to 1 or 0; on 64-bit platforms they
// are held exactly. Their answers come as float64 (encoding/json) and as
// json.Number (exact decoding).
func TestPlatformInts(t *testing.T) {
	wide := strconv.IntSize == 64
	for _, tc := range []struct {
		field, value string
		fits         bool
		got          func(i *nums.Ints) uint64 // the held value, as its bits
	}{
		{"i", "4294967297", wide, func(i *nums.Ints) uint64 { return uint64(*i.I) }},
		{"i", "-4294967297", wide, func(i *nums.Ints) uint64 { return uint64(*i.I) }},
		{"i", "2147483648", wide, func(i *nums.Ints) uint64 { return uint64(*i.I) }},
		{"i", "2147483647", true, func(i *nums.Ints) uint64 { return uint64(*i.I) }},
		{"i", "-2147483648", true, func(i *nums.Ints) uint64 { return uint64(*i.I) }},
		{"count", "4294967297", wide, func(i *nums.Ints) uint64 { return uint64(i.Count) }},
		{"edge", "-2147483649", wide, func(i *nums.Ints) uint64 { return uint64(*i.Edge) }},
		{"up", "4294967296", wide, func(i *nums.Ints) uint64 { return uint64(*i.UP) }},
		{"up", "4294967295", true, func(i *nums.Ints) uint64 { return uint64(*i.UP) }},
		{"size", "4294967296", wide, func(i *nums.Ints) uint64 { return uint64(i.Size) }},
		{"uedge", "1099511627776", wide, func(i *nums.Ints) uint64 { return uint64(*i.UEdge) }},
	} {
		for _, useNumber := range []bool{false, true} {
			doc := fmt.Sprintf(`{"i":1,"age":30,%q:%s}`, tc.field, tc.value)
			content, err := decodeContent([]byte(doc), useNumber)
			require.NoError(t, err)
			i := &nums.Ints{}
			err = i.ApplyContent(content)
			if !tc.fits {
				fe := fieldErr(t, err, tc.field)
				require.Equal(t, "range", fe.Keyword, "%s (%d-bit int)", doc, strconv.IntSize)
				require.Contains(t, fe.Message, "does not fit in ", doc)
				require.Len(t, err.(*runtime.ValidationError).Errors, 1, doc)
				require.Nil(t, i.I, "nothing is set: %s", doc)
				continue
			}
			require.NoError(t, err, "%s (%d-bit int)", doc, strconv.IntSize)
			want := new(big.Int)
			want.SetString(tc.value, 10)
			if want.Sign() < 0 {
				want.Add(want, new(big.Int).Lsh(big.NewInt(1), 64)) // two's complement, as uint64(int) gives
			}
			require.Equal(t, want.Uint64(), tc.got(i), "%s held exactly", doc)
			require.NoError(t, i.Validate(), doc)
		}
	}
	// The defaults at the 32-bit edges hold on every platform.
	i := &nums.Ints{}
	require.NoError(t, i.ApplyContent(map[string]any{"i": 1.0, "age": 30.0}))
	require.Equal(t, math.MinInt32, *i.Edge)
	require.Equal(t, uint(math.MaxUint32), *i.UEdge)
	require.Equal(t, json.Number("-2147483648"), decodeNumber(t, mustJSON(t, i.RequestedSchema("edge")), "edge"))
	require.Equal(t, json.Number("4294967295"), decodeNumber(t, mustJSON(t, i.RequestedSchema("uedge")), "uedge"))
}

func decodeNumber(t *testing.T, raw, name string) json.Number {
	var s struct {
		Properties map[string]struct {
			Default json.Number `json:"default"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(raw), &s))
	return s.Properties[name].Default
}

// TestFloat32Bounds: an answer that meets a float32 field's bound exactly
// (0.7) is accepted, as the validator does, and the stored float32
// (0.699999988, below 0.7 as a float64) still passes Validate.
func TestFloat32Bounds(t *testing.T) {
	require.Less(t, float64(float32(0.7)), 0.7, "the trap is real")
	f := &nums.Floats{F64: new(float64), Price: 1}
	require.NoError(t, f.ApplyContent(map[string]any{"scale": 0.7}))
	require.NoError(t, f.Validate())
	require.Equal(t, "minimum", fieldErr(t, (&nums.Floats{F64: new(float64), Price: 1}).ApplyContent(map[string]any{"scale": 0.6999999}), "scale").Keyword)
	require.Equal(t, "range", fieldErr(t, (&nums.Floats{}).ApplyContent(map[string]any{"f32": 1e39}), "f32").Keyword)
	require.Equal(t, "range", fieldErr(t, (&nums.Floats{}).ApplyContent(map[string]any{"f64": json.Number("1e400")}), "f64").Keyword)
}

// TestSkeletonAcceptPrintsJSON: the untouched handler skeleton answers with
// the arguments as JSON, so pointer fields show their values, not addresses.
func TestSkeletonAcceptPrintsJSON(t *testing.T) {
	i := 7
	res, err := nums.IntsSkeleton.Accept(context.Background(), &nums.Ints{I: &i, Age: 30})
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	require.Contains(t, string(b), `ints: done with {\"i\":7,`)
	require.Contains(t, string(b), `\"age\":30`)
	require.NotContains(t, string(b), "0xc")
}

// TestArgumentTypeErrors: wrong-typed arguments read like wrong-typed form
// answers (JSON Schema type names, the field's JSON name).
func TestArgumentTypeErrors(t *testing.T) {
	for args, want := range map[string]string{
		`{"i":"3"}`:            "invalid arguments: i: must be an integer, got string",
		`{"i8":1000}`:          "invalid arguments: i8: does not fit in int8",
		`{"age":true}`:         "invalid arguments: age: must be an integer, got boolean",
		`{"i":1,"age":"many"}`: "invalid arguments: age: must be an integer, got string",
	} {
		b, err := json.Marshal(callFlow(t, nums.NewIntsFlow(nil), args, "", nil))
		require.NoError(t, err)
		require.Contains(t, string(b), want, args)
	}
	// city is promoted from Shipping.Address: its JSON path is just "city".
	b, err := json.Marshal(callFlow(t, embedded.NewOrderFlow(nil), `{"city":5}`, "", nil))
	require.NoError(t, err)
	require.Contains(t, string(b), "invalid arguments: city: must be a string, got number")
}

// TestExactIntegerBounds: integer bounds beyond 2^53 go into the schema as
// written and are checked exactly, not through float64.
func TestExactIntegerBounds(t *testing.T) {
	i := &nums.Ints{}
	require.Contains(t, mustJSON(t, i.RequestedSchema("low")), `"minimum":-9223372036854775808`)
	require.Contains(t, mustJSON(t, i.RequestedSchema("high")), `"maximum":18446744073709551614`)
	base := func() *nums.Ints { return &nums.Ints{I: new(int), Age: 30} }
	a := base()
	require.NoError(t, a.ApplyContent(map[string]any{"low": json.Number("-9223372036854775808"), "high": json.Number("18446744073709551614")}))
	require.Equal(t, int64(math.MinInt64), *a.Low)
	require.Equal(t, uint64(18446744073709551614), *a.High)
	require.Equal(t, "maximum", fieldErr(t, base().ApplyContent(map[string]any{"low": json.Number("9223372036854775807")}), "low").Keyword)
	require.Equal(t, "maximum", fieldErr(t, base().ApplyContent(map[string]any{"high": json.Number("18446744073709551615")}), "high").Keyword)
	require.Equal(t, "minimum", fieldErr(t, base().ApplyContent(map[string]any{"high": json.Number("999")}), "high").Keyword)
}

// TestEmptyElicitTag: elicit:"" on a string gives a required string property
// under its JSON name, titled from the Go field name.
func TestEmptyElicitTag(t *testing.T) {
	s := &strs.Strings{}
	p := prop(t, s, "plain")
	require.Equal(t, map[string]any{"type": "string", "title": "Plain", "minLength": 1.0}, p)
	require.Contains(t, s.RequestedSchema().Required, "plain")
	require.Equal(t, "First name", prop(t, &titles.Titles{}, "first_name")["title"])
	require.Contains(t, (&titles.Titles{}).RequestedSchema().Required, "first_name")
	// minLength 1 is what "required" means for a string: "" reads as no answer.
	require.Equal(t, "minLength", fieldErr(t, s.ApplyContent(map[string]any{"plain": "", "email": "a@b.co"}), "plain").Keyword)
}

// TestTitleFallbacks: title and description come from the elicit tag, then
// the jsonschema tag (title=/description=, or the whole tag with no key=),
// then the Go field name in words.
func TestTitleFallbacks(t *testing.T) {
	a := &titles.Titles{}
	for name, want := range map[string][2]string{
		"first_name":      {"First name", ""},
		"departure_date":  {"Departure date", ""},
		"user_id":         {"User ID", ""},
		"http_server_url": {"HTTP server URL", ""},
		"nick":            {"Nickname", "What friends call you"},
		"motto":           {"Motto", "A short motto"},
		"city":            {"Home city", "From jsonschema"},
		"bio":             {"Biography", "Short, please"},
		"NoJSON":          {"No JSON", ""},
		"confirm":         {"Type yes to confirm", ""},
		"spaced":          {"Spaced out", " kept "}, // unquoted spaces around values are dropped, quoted ones kept
	} {
		p := prop(t, a, name)
		require.Equal(t, want[0], p["title"], name)
		if want[1] == "" {
			require.NotContains(t, p, "description", name)
		} else {
			require.Equal(t, want[1], p["description"], name)
		}
	}
}

// TestAskAlways: an ask=always field is asked even when the arguments hold
// it, and must be answered again.
func TestAskAlways(t *testing.T) {
	flow := titles.NewTitlesFlow(nil)
	res := callFlow(t, flow, `{"first_name":"Ada","confirm":"yes","sure":true}`, "", nil)
	require.Equal(t, []string{"departure_date", "user_id", "http_server_url", "nick", "motto", "city", "bio", "NoJSON", "confirm", "sure", "spaced"}, asked(t, res))
	a := &titles.Titles{FirstName: "Ada", Confirm: "yes"}
	require.Equal(t, "required", fieldErr(t, a.ApplyContent(map[string]any{}), "confirm").Keyword)
	require.Equal(t, "enum", fieldErr(t, a.ApplyContent(map[string]any{"confirm": "no"}), "confirm").Keyword)
	require.NoError(t, a.ApplyContent(map[string]any{"confirm": "yes", "sure": false}))
	require.False(t, *a.Sure)
}

// TestEmbedded: fields of embedded structs are promoted as encoding/json
// does: by value, through two levels, from an unexported embedded struct; a
// json-tagged embedded struct is one (non-elicitable) field; a shallower
// field hides a deeper one of the same JSON name.
func TestEmbedded(t *testing.T) {
	flow := embedded.NewOrderFlow(nil)
	require.Equal(t, []string{"email", "phone", "city", "express", "ref", "name"}, defOf(flow).Fields)
	var o embedded.Order
	require.NoError(t, json.Unmarshal([]byte(`{"email":"a@b.co","city":"Paris","ref":"r1","name":"Ada","named":{"hidden":"x"}}`), &o))
	require.Equal(t, []string{"phone", "express"}, o.MissingFields())
	o = embedded.Order{}
	require.NoError(t, o.ApplyContent(map[string]any{"email": "a@b.co", "city": "Paris", "name": "Ada", "ref": "r"}))
	require.Equal(t, "a@b.co", o.Contact.Email)
	require.Equal(t, "Paris", o.Shipping.Address.City)
	require.Equal(t, "Ada", o.Name)
	require.Empty(t, o.Contact.Name, "hidden by Order.Name, as encoding/json does")
	require.False(t, *o.Express, "default")
}

// TestTimes: time.Time is a date-time string (or a date with format=date),
// parsed into the field.
func TestTimes(t *testing.T) {
	require.Equal(t, map[string]any{"type": "string", "format": "date-time", "title": "At"}, prop(t, &times.Times{}, "at"))
	require.Equal(t, "date", prop(t, &times.Times{}, "day")["format"])
	a := &times.Times{}
	require.NoError(t, a.ApplyContent(map[string]any{"at": "2026-07-28t09:30:00.25z", "dayptr": "2024-02-29"}))
	require.Equal(t, time.Date(2026, 7, 28, 9, 30, 0, 250_000_000, time.UTC), a.At)
	require.Equal(t, time.Date(2026, 7, 28, 0, 0, 0, 0, time.UTC), a.Day, "default")
	require.Equal(t, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), *a.Dayptr)
	require.True(t, a.Maybe.Equal(time.Date(2026, 7, 28, 7, 30, 0, 500_000_000, time.UTC)), "default with an offset")
	require.Equal(t, "format", fieldErr(t, (&times.Times{}).ApplyContent(map[string]any{"at": "2026-07-28"}), "at").Keyword)
	require.Equal(t, "format", fieldErr(t, (&times.Times{}).ApplyContent(map[string]any{"at": "2026-07-28T09:30:00Z", "day": "2026-02-30"}), "day").Keyword)
}

type timesHandler struct{ got **times.Times }

func (h timesHandler) Accept(_ context.Context, a *times.Times) (*runtime.Result, error) {
	*h.got = a
	return runtime.Text("ok"), nil
}
func (timesHandler) Decline(context.Context, *times.Times, []string) (*runtime.Result, error) {
	return runtime.Text("declined"), nil
}
func (timesHandler) Cancel(context.Context, *times.Times) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}

// TestDateArguments: a time.Time with format=date is announced as a
// full-date in the tool's input schema, and the model passes it so
// ("2026-07-28"); encoding/json alone cannot put that in a time.Time, so
// the flow reads it as midnight UTC.
func TestDateArguments(t *testing.T) {
	var got *times.Times
	flow := times.NewTimesFlow(timesHandler{&got})
	require.Contains(t, mustJSON(t, flow.InputSchema()), `"format":"date"`)
	res := callFlow(t, flow, `{"at":"2026-07-28T09:30:00Z","day":"2026-12-24","dayptr":"2024-02-29","maybe":"2026-07-28T10:00:00+02:00"}`, "", nil)
	require.NotNil(t, res.Result)
	require.False(t, res.Result.IsError, res.Result.Text)
	require.Equal(t, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC), got.Day)
	require.Equal(t, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), *got.Dayptr)
	// A bad date is still an argument error.
	res = callFlow(t, flow, `{"at":"2026-07-28T09:30:00Z","day":"2026-02-30"}`, "", nil)
	require.True(t, res.Result.IsError)
}
