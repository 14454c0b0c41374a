// Package storetest holds checks of the engine with a real [engine.Store],
// shared by the tests of package runtime (MemoryStore) and of
// runtime/redisstore (Redis).
package storetest

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// RecordOutlivesSkew checks that a flow's record outlives every state of the
// flow that an instance whose clock runs skew behind the recording
// instance's can still open (skew under [engine.DefaultClockSkew], the
// allowed skew). Instance A (the wall clock) asks and completes a flow; the
// test finds the last instant B, whose clock runs skew behind, opens the
// flow's state (and that B replays the record then, running nothing), and
// requires expiry(flow), when store drops the flow's record by the wall
// clock, to be no earlier than that instant seen from A's clock.
func RecordOutlivesSkew(t *testing.T, store engine.Store, skew time.Duration, expiry func(flow string) time.Time) {
	t.Helper()
	keys := engine.EphemeralKeyRing()
	var bNow atomic.Pointer[time.Time]
	a := &engine.Options{Keys: keys, Store: store}
	b := &engine.Options{Keys: keys, Store: store, Now: func() time.Time { return *bNow.Load() }}
	var runs atomic.Int32
	var flow atomic.Value
	call := func(o *engine.Options, state string, responses map[string]protocol.InputResponse) (*engine.Response, error) {
		x, err := engine.NewExchange("skew", o, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`),
			RequestState: state, InputResponses: responses, FormElicitation: true, ProtocolVersion: protocol.VersionMRTR})
		if err != nil {
			return nil, err
		}
		return x.Run(context.Background(), func(ctx context.Context) (*engine.Response, error) {
			var q fixture.Approve
			if _, err := engine.Ask(ctx, "approve", &q, nil); err != nil {
				return nil, err
			}
			runs.Add(1)
			flow.Store(engine.FlowID(ctx))
			return &engine.Response{Result: engine.Textf("approved %s", q.Code)}, nil
		})
	}
	r1, err := call(a, "", nil)
	require.NoError(t, err)
	require.NotEmpty(t, r1.RequestState)
	var key string
	for k := range r1.InputRequests {
		key = k
	}
	answer := map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: engine.Accept, Content: map[string]any{"code": "P-1"}}}
	done, err := call(a, r1.RequestState, answer)
	require.NoError(t, err)
	require.NotNil(t, done.Result)
	require.EqualValues(t, 1, runs.Load())
	recorded := time.Now()

	// The state's expiry, in Unix seconds: B opens the state while its
	// clock reads a time within that second. Search B's clock for it from
	// A's TTL on (the default TTL is whole seconds).
	start := recorded.Add(engine.DefaultTTL - 2*time.Second).Truncate(time.Second)
	opens := func(bClock time.Time) bool {
		bNow.Store(&bClock)
		resp, err := call(b, r1.RequestState, answer)
		if err != nil {
			var pe *protocol.Error
			require.ErrorAs(t, err, &pe)
			require.Contains(t, pe.Message, "expired")
			return false
		}
		require.NotNil(t, resp.Result, "B replays the record")
		assert.Equal(t, done.Result.Text, resp.Result.Text)
		return true
	}
	var last time.Time // B's clock at the last instant it opens the state
	for s := start; s.Before(start.Add(5 * time.Second)); s = s.Add(time.Second) {
		if !opens(s) {
			require.False(t, s.Equal(start), "B's clock at %s refuses the state already", s)
			last = s.Add(-time.Nanosecond)
			break
		}
	}
	require.False(t, last.IsZero(), "no closing second found")
	require.True(t, opens(last), "B opens the state until the end of its expiry's second")
	assert.EqualValues(t, 1, runs.Load(), "B's replays run nothing")

	// B's clock runs skew behind A's (the wall clock): B opens the state
	// until last+skew by the wall clock; the store must still hold the
	// record then, or B's replay would run the branch again.
	horizon := last.Add(skew)
	kept := expiry(flow.Load().(string))
	assert.False(t, kept.Before(horizon),
		"the record is dropped at %s, %s before an instance whose clock runs %s behind stops opening the flow's state (%s)",
		kept.UTC().Format(time.RFC3339Nano), horizon.Sub(kept), skew, horizon.UTC().Format(time.RFC3339Nano))
}
