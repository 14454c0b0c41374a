package bench

import (
	"encoding/json"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/golden/testdata/allkinds"
	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/golden/testdata/everykind"
	"github.com/mcpgen/mcpgen/runtime"
)

// acceptCase is one struct and a valid form answer for every field it asks.
type acceptCase struct {
	name    string
	newArgs func() runtime.Args // the struct as the first call left it
	reset   func(runtime.Args)  // puts a struct back as newArgs made it
	content string              // the accepted form content, as JSON
}

var acceptCases = []acceptCase{
	{
		name: "bookflight",
		newArgs: func() runtime.Args {
			return &bookflight.BookFlightArgs{Origin: "CDG", Destination: "JFK"}
		},
		reset: func(a runtime.Args) {
			*a.(*bookflight.BookFlightArgs) = bookflight.BookFlightArgs{Origin: "CDG", Destination: "JFK"}
		},
		content: `{"date":"2026-12-24","window":"morning","passengers":2}`,
	},
	{
		// The largest golden struct: one field of every kind.
		name:    "allkinds",
		newArgs: func() runtime.Args { return new(allkinds.AllKinds) },
		reset:   func(a runtime.Args) { *a.(*allkinds.AllKinds) = allkinds.AllKinds{} },
		content: `{"email":"ada@example.com","name":"Ada Lovelace","website":"https://example.com/ada",
			"birthday":"1815-12-10","meeting":"2026-07-28T09:30:00Z","small":3,"count":42,"big":123456789,
			"ratio":1.25,"weight":70.5,"agree":true,"newsletter":true,"size":"l","meal":"fish, grilled",
			"level":"high","color":"red","tags":["a","c"],"colors":["red","green"],"confirm":"yes"}`,
	},
	{
		// 14 fields of every kind, ten of them pointers: the struct the
		// allocation goals of the accept path are set on.
		name:    "everykind",
		newArgs: func() runtime.Args { return new(everykind.Registration) },
		reset:   func(a runtime.Args) { *a.(*everykind.Registration) = everykind.Registration{} },
		content: `{"name":"Ada Lovelace","email":"ada@example.com","website":"https://example.com/ada",
			"birthday":"1815-12-10","arrival":"2026-07-28T09:30:00+02:00","guests":2,"budget":180.5,
			"newsletter":true,"ticket":"speaker","seat":"aisle","diet":"vegetarian",
			"note":"Arriving by train","tracks":["go","data"],"workshops":["profiling","fuzzing"]}`,
	},
}

// decoded returns c's content the way an SDK hands it over: encoding/json
// into map[string]any (numbers as float64).
func (c acceptCase) decoded(tb testing.TB) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(c.content), &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// compiled compiles c's RequestedSchema (every field missing) with
// santhosh-tekuri/jsonschema/v6, format assertions on.
func (c acceptCase) compiled(tb testing.TB) *sjs.Schema {
	b, err := json.Marshal(c.newArgs().RequestedSchema())
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := sjs.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		tb.Fatal(err)
	}
	comp := sjs.NewCompiler()
	comp.AssertFormat()
	const loc = "mem://requested.json"
	if err := comp.AddResource(loc, doc); err != nil {
		tb.Fatal(err)
	}
	sch, err := comp.Compile(loc)
	if err != nil {
		tb.Fatal(err)
	}
	return sch
}

// TestAcceptCasesAreValid keeps the benchmark honest: every content is
// accepted by both validators and fills every field asked, so the benchmark
// times the success path of each.
func TestAcceptCasesAreValid(t *testing.T) {
	for _, c := range acceptCases {
		t.Run(c.name, func(t *testing.T) {
			content := c.decoded(t)
			missing := c.newArgs().MissingFields()
			for _, f := range missing {
				if _, ok := content[f]; !ok {
					t.Errorf("content lacks %q", f)
				}
			}
			if err := c.compiled(t).Validate(content); err != nil {
				t.Fatalf("santhosh-tekuri/jsonschema rejects the content: %v", err)
			}
			a := c.newArgs()
			if err := a.ApplyContent(content); err != nil {
				t.Fatalf("ApplyContent: %v", err)
			}
			if err := a.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if m := a.MissingFields(); len(m) > 0 {
				t.Fatalf("still missing after the answer: %v", m)
			}
		})
	}
}

// maxAcceptAllocs is the most allocations accepting a full answer may make
// on everykind (issue 15): one block for the answered pointer fields and one
// backing array for the multi selects.
const maxAcceptAllocs = 2

// TestAcceptAllocs holds the allocation goals of the accept path outside any
// timed run: a full answer on everykind makes at most maxAcceptAllocs, with
// or without Validate after it, and Validate alone makes none on every
// case (golden/disagreements_test.go holds every golden struct to that).
func TestAcceptAllocs(t *testing.T) {
	for _, c := range acceptCases {
		content := c.decoded(t)
		a := c.newArgs()
		apply := testing.AllocsPerRun(200, func() {
			c.reset(a)
			if err := a.ApplyContent(content); err != nil {
				t.Fatal(err)
			}
		})
		accept := testing.AllocsPerRun(200, func() {
			c.reset(a)
			if err := a.ApplyContent(content); err != nil {
				t.Fatal(err)
			}
			if err := a.Validate(); err != nil {
				t.Fatal(err)
			}
		})
		validate := testing.AllocsPerRun(200, func() {
			if err := a.Validate(); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: ApplyContent %v allocs, ApplyContent+Validate %v, Validate %v", c.name, apply, accept, validate)
		if validate != 0 {
			t.Errorf("%s: Validate made %v allocations, want 0", c.name, validate)
		}
		if c.name == "everykind" && (apply > maxAcceptAllocs || accept > maxAcceptAllocs) {
			t.Errorf("everykind: a full answer made %v allocations (%v with Validate), want at most %d", apply, accept, maxAcceptAllocs)
		}
	}
}

// BenchmarkAccept times accepting one form answer, from the decoded content
// to a filled, checked struct. The struct is the one the first call decoded
// the arguments into: it exists before the answer arrives, so it is reset
// between iterations, not allocated.
//
//   - apply: the generated ApplyContent alone, what the flow runs on an
//     accepted answer (the arguments the first call decoded were validated
//     then, and ApplyContent checks every value it sets);
//   - mcpgen: the generated ApplyContent then Validate;
//   - jsonschema: santhosh-tekuri/jsonschema/v6 validating the same content
//     against the same RequestedSchema, compiled once outside the loop
//     (validation only: the struct is not filled);
//   - encoding-json: json.Unmarshal of the content's JSON into the struct
//     (decoding only: nothing is checked).
func BenchmarkAccept(b *testing.B) {
	for _, c := range acceptCases {
		content := c.decoded(b)
		raw := []byte(c.content)
		sch := c.compiled(b)
		b.Run(c.name+"/apply", func(b *testing.B) {
			b.ReportAllocs()
			a := c.newArgs()
			for b.Loop() {
				c.reset(a)
				if err := a.ApplyContent(content); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/mcpgen", func(b *testing.B) {
			b.ReportAllocs()
			a := c.newArgs()
			for b.Loop() {
				c.reset(a)
				if err := a.ApplyContent(content); err != nil {
					b.Fatal(err)
				}
				if err := a.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/jsonschema", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := sch.Validate(content); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			a := c.newArgs()
			for b.Loop() {
				c.reset(a)
				if err := json.Unmarshal(raw, a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidate times the generated Validate alone on a filled, valid
// struct: generated Validate must allocate nothing on success (0 allocs/op).
func BenchmarkValidate(b *testing.B) {
	for _, c := range acceptCases {
		a := c.newArgs()
		if err := a.ApplyContent(c.decoded(b)); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := a.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
