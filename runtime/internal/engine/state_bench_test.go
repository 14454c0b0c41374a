package engine

import (
	"crypto/sha256"
	"fmt"
	"testing"
	"time"
)

// benchState returns the state a flow seals after a round that gathered n
// answers and asks for one more field: what a retry carries.
func benchState(n int) *state {
	values := []any{"2026-12-24", "afternoon", 2.0, "ada@example.com", "Ada Lovelace",
		"https://example.com/ada", true, 42.0, []any{"a", "c"}, "1815-12-10"}
	answers := make(map[string]any, n)
	for i := 0; i < n; i++ {
		answers[fmt.Sprintf("field%d", i)] = values[i%len(values)]
	}
	args := sha256.Sum256([]byte(`{"destination":"JFK","origin":"CDG"}`))
	question := sha256.Sum256([]byte("question"))
	now := time.Now()
	return &state{
		binding: binding{Tool: "book_flight", Method: "tools/call", Args: args[:],
			IssuedAt: now.Unix(), Expires: now.Add(DefaultTTL).Unix()},
		FlowID: newFlowID(), Asked: []asked{{Key: "book_flight_2", Question: question[:], Fields: []string{"confirm"}, Content: answers}},
		Round: 2,
	}
}

// BenchmarkState times sealing and opening a requestState with 1, 3 and 10
// answers gathered (Options.seal and Options.open: the state's binary encoding,
// AES-256-GCM under a KeyRing, base64url, and the binding checks), and reports
// the sealed state's size in bytes (state-bytes).
func BenchmarkState(b *testing.B) {
	o := (&Options{Keys: EphemeralKeyRing()}).withDefaults()
	for _, n := range []int{1, 3, 10} {
		st := benchState(n)
		sealed, err := o.seal(st)
		if err != nil {
			b.Fatal(err)
		}
		open := func(b *testing.B) {
			got, err := o.open(sealed, st.Tool, st.Method, st.Args, st.Principal, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			if len(got.Asked[0].Content) != n {
				b.Fatalf("opened %d answers, sealed %d", len(got.Asked[0].Content), n)
			}
		}
		b.Run(fmt.Sprintf("answers=%d/seal", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := o.seal(st); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(sealed)), "state-bytes")
		})
		b.Run(fmt.Sprintf("answers=%d/open", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				open(b)
			}
			b.ReportMetric(float64(len(sealed)), "state-bytes")
		})
	}
}

// BenchmarkCarriedTrace times what a tracing middleware pays on a retry to
// read the previous round's traceparent from a state with 3 answers
// gathered (Options.CarriedTrace: opening the state and decoding one
// field), beside BenchmarkState's full open.
func BenchmarkCarriedTrace(b *testing.B) {
	o := (&Options{Keys: EphemeralKeyRing()}).withDefaults()
	st := benchState(3)
	st.Trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	sealed, err := o.seal(st)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if o.CarriedTrace(sealed) == "" {
			b.Fatal("no trace")
		}
	}
}

// BenchmarkStateCodec times writing and reading a state's plaintext with 1
// and 10 answers kept.
func BenchmarkStateCodec(b *testing.B) {
	for _, n := range []int{1, 10} {
		st := benchState(n)
		b.Run(fmt.Sprintf("binary/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := encodeState(st)
				if err != nil {
					b.Fatal(err)
				}
				var got state
				if err := decodeState(p, &got); err != nil {
					b.Fatal(err)
				}
			}
			p, _ := encodeState(st)
			b.ReportMetric(float64(len(p)), "bytes")
		})
	}
}
