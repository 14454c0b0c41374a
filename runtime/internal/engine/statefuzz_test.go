package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// FuzzOpenState opens arbitrary requestState strings: KeyRing.Open never
// panics and fails with one of its documented errors, and a tools/call retry
// carrying the string never panics, is always rejected with -32602 and runs
// no branch. (A state that opens needs the key, so only strings sealed for
// other arguments, other keys or with other payloads are seeds.)
func FuzzOpenState(f *testing.F) {
	key := bytes.Repeat([]byte{7}, engine.KeySize)
	ring, err := engine.NewKeyRing(key)
	if err != nil {
		f.Fatal(err)
	}
	other := engine.EphemeralKeyRing()
	opts := &engine.Options{Keys: ring}
	// A genuine round-1 state, but for other arguments than the fuzzed call's.
	first, err := fixture.NewTripFlow(&fixture.TripRecorder{}).Call(context.Background(), opts, &protocol.Request{
		Method: "tools/call", Arguments: json.RawMessage(`{"city":"Rome"}`), FormElicitation: true,
	})
	if err != nil || first.RequestState == "" {
		f.Fatalf("round 1: %v %+v", err, first)
	}
	for _, s := range []string{
		first.RequestState,
		first.RequestState[:len(first.RequestState)-1],
		first.RequestState + "A",
		ring.Seal(nil), ring.Seal([]byte("not json")), ring.Seal([]byte("{}")),
		ring.Seal([]byte(`{"tool":"plan_trip","method":"tools/call","round":1,"exp":4102444800}`)),
		ring.Seal([]byte(`[1,2,3]`)), ring.Seal([]byte(`null`)),
		other.Seal([]byte("{}")),
		"A", "AA", "AAAA", "=", "....", "\x00", "AQ", "AQAAAAAAAAAA", string(bytes.Repeat([]byte("A"), 20000)),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, state string) {
		if _, err := ring.Open(state, engine.DefaultMaxStateSize); err != nil {
			if !isStateError(err) {
				t.Fatalf("Open(%q): undocumented error %v", state, err)
			}
		}
		if state == "" {
			return // a first call, not a retry
		}
		rec := &fixture.TripRecorder{}
		var rejected int
		o := *opts
		o.OnReject = func(context.Context, engine.Rejection) { rejected++ }
		resp, err := fixture.NewTripFlow(rec).Call(context.Background(), &o, &protocol.Request{
			Method: "tools/call", Arguments: json.RawMessage(`{"city":"Paris"}`), FormElicitation: true,
			RequestState: state,
			InputResponses: map[string]protocol.InputResponse{
				"plan_trip": &protocol.ElicitResult{Action: engine.Accept, Content: map[string]any{"name": "Ada"}},
			},
		})
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code != protocol.CodeInvalidParams {
			t.Fatalf("Call with requestState %q = %+v, %v; want a -32602 protocol error", state, resp, err)
		}
		if rec.Count() != 0 {
			t.Fatalf("Call with requestState %q ran a branch", state)
		}
		if rejected != 1 {
			t.Fatalf("Call with requestState %q: OnReject called %d times, want 1", state, rejected)
		}
	})
}

func isStateError(err error) bool {
	for _, e := range []error{engine.ErrStateTooLarge, engine.ErrStateEncoding, engine.ErrStateFormat, engine.ErrStateKey, engine.ErrStateAuth} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
