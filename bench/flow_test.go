package bench

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// BenchmarkFlowCall times the generated book_flight flow in process, without
// an SDK or a network: what the server spends in mcpgen per request.
//
//   - plain: every argument given; Accept runs at once;
//   - first: the date missing; the flow asks and seals the state;
//   - retry: the answer and the state; the flow opens it, applies the answer
//     and runs Accept (after the first iteration a replay: the flow
//     completed, and the at-most-once store returns its record);
//   - round: a whole round, the first call then the retry with the state it
//     issued, a new flow each time: what mcpgen adds to a round.
func BenchmarkFlowCall(b *testing.B) {
	flow := bookflight.NewBookFlightArgsFlow(bookHandler{})
	opts := &runtime.Options{MaxFlowsPerPrincipal: -1, Keys: runtime.EphemeralKeyRing(), Store: benchStore()}
	ctx := context.Background()
	full, _ := json.Marshal(fullArgs)
	route, _ := json.Marshal(routeArgs)
	first := &protocol.Request{Method: "tools/call", Arguments: route, FormElicitation: true, ProtocolVersion: protocol.VersionMRTR}
	asked, err := flow.Call(ctx, opts, first)
	if err != nil || asked.RequestState == "" {
		b.Fatalf("first call did not ask: %v", err)
	}
	// The answer as an SDK decodes it: numbers are float64.
	var reply map[string]any
	raw, _ := json.Marshal(formReply)
	if err := json.Unmarshal(raw, &reply); err != nil {
		b.Fatal(err)
	}
	retry := *first
	retry.RequestState = asked.RequestState
	retry.InputResponses = map[string]protocol.InputResponse{inputKey: &protocol.ElicitResult{Action: runtime.Accept, Content: reply}}
	plain := *first
	plain.Arguments = full

	cases := []struct {
		name string
		req  *protocol.Request
		want func(*runtime.Response) bool
	}{
		{"plain", &plain, func(r *runtime.Response) bool { return r.Result != nil && r.Result.Text == wantText }},
		{"first", first, func(r *runtime.Response) bool { return r.Result == nil && r.RequestState != "" }},
		{"retry", &retry, func(r *runtime.Response) bool { return r.Result != nil && r.Result.Text == wantText }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := flow.Call(ctx, opts, c.req)
				if err != nil || !c.want(resp) {
					b.Fatalf("unexpected response %+v, %v", resp, err)
				}
			}
			if c.name == "first" {
				b.ReportMetric(float64(len(asked.RequestState)), "state-bytes")
			}
		})
	}
	b.Run("round", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			asked, err := flow.Call(ctx, opts, first)
			if err != nil || asked.RequestState == "" {
				b.Fatalf("first call did not ask: %v", err)
			}
			r := retry
			r.RequestState = asked.RequestState
			done, err := flow.Call(ctx, opts, &r)
			if err != nil || done.Result == nil || done.Result.Text != wantText {
				b.Fatalf("retry did not book: %+v, %v", done, err)
			}
		}
	})
}

// benchStore is an in-memory flow store for one benchmark: its own (a
// process's default store is shared by every benchmark of the binary) and
// bounded at 1 GiB, so that the records of a long run (-count 5, hundreds of
// thousands of completed flows, each kept until its state expires) never
// fill it: a full store refuses new flows ("retry later"), which is what
// it must do in a server, not what a benchmark measures. For the same
// reason every benchmark's runtime.Options sets MaxFlowsPerPrincipal -1: a
// benchmark is one caller completing flows without end, which the default
// quota (1000 flows within their lifetime) refuses.
func benchStore() *runtime.MemoryStore {
	s := runtime.NewMemoryStore()
	s.MaxBytes = 1 << 30
	return s
}
