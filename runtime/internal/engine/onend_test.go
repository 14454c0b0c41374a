package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

// OnEnd hears every request once with its outcome, a rejection's reason in
// one word and the fields asked again; it never receives an answer.
func TestOnEndOutcomesAndReasons(t *testing.T) {
	var evs []engine.Event
	e := newEnv(t, nil)
	e.opts.OnEnd = func(_ context.Context, ev engine.Event) { evs = append(evs, ev) }
	last := func() engine.Event { t.Helper(); require.NotEmpty(t, evs); return evs[len(evs)-1] }

	r1 := e.ask(req(paris, "", nil))
	assert.Equal(t, "asked", last().Outcome)
	assert.Nil(t, last().Reasked)
	bad := map[string]any{"name": "Ada", "email": "not-an-email", "nights": 30}
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", bad)))
	assert.Equal(t, "asked", last().Outcome)
	assert.Equal(t, []string{"email", "nights"}, last().Reasked)

	tampered := []byte(r2.RequestState)
	tampered[len(tampered)/2] ^= 1
	for _, c := range []struct {
		r    string
		args string
		st   string
	}{
		{"tampered", paris, string(tampered)},
		{"other_arguments", `{"city":"Rome"}`, r2.RequestState},
		{"too_large", paris, strings.Repeat("A", 20000)},
	} {
		e.rejected(req(c.args, c.st, nil), c.r)
		assert.Equal(t, "rejected", last().Outcome)
		assert.Equal(t, c.r, last().Reason)
	}
	e.setNow(t0.Add(time.Hour))
	e.rejected(req(paris, r2.RequestState, nil), "expired")
	assert.Equal(t, "expired", last().Reason)
	e.setNow(t0)

	e.done(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "ada@example.com", "nights": 3})))
	assert.Equal(t, "completed", last().Outcome)
	assert.Equal(t, 2, last().Round)
	e.done(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "ada@example.com", "nights": 3})))
	assert.Equal(t, "replayed", last().Outcome)
	assert.Len(t, evs, 8, "one event per request")
}

// The trace context a round's span gives is sealed into the state it
// issues and read back, before the engine runs, only from a state the key
// ring sealed.
func TestTraceContextRidesInTheState(t *testing.T) {
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	e := newEnv(t, nil)
	e.opts.TraceContext = func(context.Context) string { return tp }
	r1 := e.ask(req(paris, "", nil))
	assert.Equal(t, tp, e.opts.CarriedTrace(r1.RequestState))
	assert.NotContains(t, r1.RequestState, "4bf92f35", "sealed, not in clear")

	tampered := []byte(r1.RequestState)
	tampered[len(tampered)/2] ^= 1
	assert.Empty(t, e.opts.CarriedTrace(string(tampered)))
	assert.Empty(t, (&engine.Options{Keys: engine.EphemeralKeyRing()}).CarriedTrace(r1.RequestState), "another key ring")
	assert.Empty(t, e.opts.CarriedTrace(""))

	// A round issued without the hook carries nothing, even when resuming
	// a state that carried one.
	e.opts.TraceContext = nil
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "email": "x", "nights": 3})))
	assert.Empty(t, e.opts.CarriedTrace(r2.RequestState))
	// A hook that returns more than a traceparent seals nothing.
	e.opts.TraceContext = func(context.Context) string { return strings.Repeat("x", 100) }
	r3 := e.ask(req(paris, "", nil))
	assert.Empty(t, e.opts.CarriedTrace(r3.RequestState))
}
