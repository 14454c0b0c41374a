package golden

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/allkinds"
	"github.com/mcpgen/mcpgen/golden/testdata/nums"
	"github.com/mcpgen/mcpgen/golden/testdata/times"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
)

// TestAllowedDisagreements pins, one by one, every case where ApplyContent
// refuses what santhosh-tekuri/jsonschema/v6 accepts against the same
// requestedSchema (the two docs/tags.md allows: values the Go type cannot hold, and what
// time.Parse cannot read). The differential test admits exactly these.
func TestAllowedDisagreements(t *testing.T) {
	type disagreement struct {
		why     string
		args    func() runtime.Args
		field   string
		value   string // JSON
		keyword string
	}
	var platform []disagreement
	if strconv.IntSize == 32 { // 386, arm: an int or uint holds 32 bits
		platform = []disagreement{
			{"2^32+1 does not fit in a 32-bit int", func() runtime.Args { return &nums.Ints{} }, "i", `4294967297`, "range"},
			{"2^31 does not fit in a 32-bit named int", func() runtime.Args { return &nums.Ints{} }, "count", `2147483648`, "range"},
			{"2^32 does not fit in a 32-bit *uint", func() runtime.Args { return &nums.Ints{} }, "up", `4294967296`, "range"},
		}
	}
	for _, tc := range append(platform, []disagreement{
		{"300 does not fit in an int8", func() runtime.Args { return &nums.Ints{} }, "i8", `300`, "range"},
		{"-129 does not fit in an int8", func() runtime.Args { return &nums.Ints{} }, "i8", `-129`, "range"},
		{"-1 does not fit in a uint", func() runtime.Args { return &nums.Ints{} }, "u", `-1`, "range"},
		{"2^63 does not fit in an int64", func() runtime.Args { return &nums.Ints{} }, "i64", `9223372036854775808`, "range"},
		{"2^64 does not fit in a uint64", func() runtime.Args { return &nums.Ints{} }, "u64", `18446744073709551616`, "range"},
		{"1e400 (an integer) does not fit in an int", func() runtime.Args { return &nums.Ints{} }, "i", `1e400`, "range"},
		{"2^32 does not fit in a *uint32", func() runtime.Args { return &nums.Ints{} }, "u32", `4294967296`, "range"},
		{"1e39 does not fit in a float32", func() runtime.Args { return &nums.Floats{} }, "f32", `1e39`, "range"},
		{"1e400 does not fit in a float64", func() runtime.Args { return &nums.Floats{} }, "f64", `1e400`, "range"},
		{"time.Parse cannot read a leap second", func() runtime.Args { return &times.Times{} }, "at", `"2026-12-31T23:59:60Z"`, "format"},
		{"time.Parse cannot read a leap second (with an offset)", func() runtime.Args { return &times.Times{} }, "at", `"2027-01-01T00:59:60+01:00"`, "format"},
		{"the zero time.Time reads as no answer in a required time.Time", func() runtime.Args { return &times.Times{} }, "at", `"0001-01-01T00:00:00Z"`, "range"},
		{"the zero time.Time, through an offset", func() runtime.Args { return &times.Times{} }, "at", `"0001-01-01T01:00:00+01:00"`, "range"},
		{"a leap second in the time.Time of allkinds", func() runtime.Args { return &allkinds.AllKinds{} }, "meeting", `"2016-12-31T23:59:60Z"`, "format"},
	}...) {
		t.Run(tc.why, func(t *testing.T) {
			a := tc.args()
			alone := impl.NewObjectSchema()
			p, ok := a.RequestedSchema(tc.field).Properties.Get(tc.field)
			require.True(t, ok)
			alone.Properties.Set(tc.field, p)
			doc := fmt.Sprintf(`{%q:%s}`, tc.field, tc.value)
			require.NoError(t, compileSchema(t, alone).Validate(decodeForValidator(t, []byte(doc))), "the validator accepts %s", doc)
			content, err := decodeContent([]byte(doc), true) // json.Number: exact
			require.NoError(t, err)
			fe := fieldErr(t, a.ApplyContent(content), tc.field)
			require.Equal(t, tc.keyword, fe.Keyword, "%v", fe)
			var vals map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(doc), &vals))
			only := &runtime.ValidationError{Errors: []runtime.FieldError{fe}}
			require.NotEmpty(t, allowedDisagreement(tc.args(), nil, vals, []string{"at"}, only, true, false), "the differential test admits it")
		})
	}
	// And nothing else: a plain type error is not admitted.
	err := (&nums.Ints{}).ApplyContent(map[string]any{"i8": "x"})
	require.Empty(t, allowedDisagreement(&nums.Ints{}, nil, map[string]json.RawMessage{"i8": json.RawMessage(`"x"`)}, nil, err, true, false))
}

// validStates returns, for every golden struct, a value on which Validate
// succeeds: every field answered by ApplyContent with generated valid
// answers (fixed seed).
func validStates(t testing.TB) map[string]runtime.Args {
	out := map[string]runtime.Args{}
	for si, gs := range goldenStructs() {
		g := &answerGen{r: newRand(uint64(si))}
		for try := 0; ; try++ {
			require.Less(t, try, 2000, "no valid state for %s", gs.Name) // unbounded fields draw beyond small Go types (int8), so few tries fit all
			a := gs.Def.New()
			vals := map[string]any{}
			for _, p := range properties(t, a.RequestedSchema(gs.Def.Fields...)) {
				// json.Number: an integer beyond 2^53 read as a float64 is
				// refused (it may have been rounded), and an unbounded
				// integer field draws them.
				v, err := decodeContent([]byte(`{"v":`+g.valid(p.p)+`}`), true)
				require.NoError(t, err)
				vals[p.name] = v["v"]
			}
			if a.ApplyContent(vals) == nil && a.Validate() == nil {
				out[gs.Case+"."+gs.Name] = a
				break
			}
		}
	}
	return out
}

// TestValidateAllocatesNothing: Validate allocates nothing on a valid struct
// (generated code allocates nothing in Validate on success).
func TestValidateAllocatesNothing(t *testing.T) {
	for name, a := range validStates(t) {
		require.NoError(t, a.Validate(), name)
		require.Zero(t, testing.AllocsPerRun(100, func() { _ = a.Validate() }), "%s: Validate allocates", name)
	}
}

// BenchmarkValidate runs Validate on a valid value of every golden struct;
// with -benchmem it shows 0 allocs/op.
func BenchmarkValidate(b *testing.B) {
	for name, a := range validStates(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := a.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// An integer beyond ±(2^53−1) in content an SDK decoded into float64 is
// refused with "range", saying why, where the validator (reading the exact
// decimal) accepts it: 9007199254740993 arrives as 9007199254740992, and a
// number the user did not send is never taken. With json.Number content it
// is exact, and taken.
func TestInexactIntegersAreRefused(t *testing.T) {
	doc := []byte(`{"i":1,"age":30,"i64":9007199254740993,"u64":18446744073709551615}`)
	rounded, err := decodeContent(doc, false) // float64, as go-sdk and mcp-go decode
	require.NoError(t, err)
	a := &nums.Ints{}
	err = a.ApplyContent(rounded)
	for _, field := range []string{"i64", "u64"} {
		fe := fieldErr(t, err, field)
		require.Equal(t, "range", fe.Keyword)
		require.Contains(t, fe.Message, "may have lost digits")
	}
	var vals map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc, &vals))
	require.NotEmpty(t, allowedDisagreement(&nums.Ints{}, nil, vals, nil, err, true, true), "the differential test admits it")

	exact, err := decodeContent(doc, true)
	require.NoError(t, err)
	b := &nums.Ints{}
	require.NoError(t, b.ApplyContent(exact))
	require.Equal(t, int64(9007199254740993), *b.I64)
	require.Equal(t, uint64(18446744073709551615), b.U64)
}
