package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// What clients in the field do with forms, and what the flow does about it.

// A client that cannot show a form (one that turns a form with a number
// field into a yes/no box) answers accept with no content. Once is asked
// again; the second time, on either era, the call ends in the tool error
// that names what is needed, so the model can pass it as arguments, instead
// of asking again to the round limit.
func TestEmptyAcceptTwiceNamesWhatIsNeeded(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	key, _, _ := question(t, r1)
	r2 := e.ask(req(paris, r1.RequestState, accept(key, map[string]any{})))
	key2, q2, _ := question(t, r2)
	assert.Contains(t, q2.Message, "name")
	res := e.done(req(paris, r2.RequestState, accept(key2, nil)))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "accepted the form twice with nothing filled in")
	assert.Contains(t, res.Text, "Pass these as arguments and call again")
	assert.Contains(t, res.Text, `nights ("Nights"): required integer, minimum 1, maximum 14`)
	assert.Zero(t, e.rec.Count())

	// On a session, within the one call.
	e2 := newEnv(t, nil)
	c := &sessionClient{answer: func(int, *protocol.ElicitRequest) (protocol.InputResponse, error) {
		return &protocol.ElicitResult{Action: engine.Accept}, nil
	}}
	res = e2.done(onSession(req(paris, "", nil), protocol.Version20251125, c))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "accepted the form twice")
	assert.Len(t, c.sent, 2)

	// An empty accept followed by a real answer completes.
	e3 := newEnv(t, nil)
	c = &sessionClient{answer: func(n int, _ *protocol.ElicitRequest) (protocol.InputResponse, error) {
		if n == 1 {
			return &protocol.ElicitResult{Action: engine.Accept}, nil
		}
		return accepted(goodAnswer), nil
	}}
	res = e3.done(onSession(req(paris, "", nil), protocol.Version20251125, c))
	assert.False(t, res.IsError, res.Text)
	assert.Equal(t, 1, e3.rec.Count())
}

// An elicitable argument sent as "" (a tool form's cleared field) holds no
// answer: it is asked, not refused; "" for a plain argument is its value.
func TestEmptyStringArgumentIsAsked(t *testing.T) {
	e := newEnv(t, nil)
	r := e.ask(req(`{"city":"Paris","email":"","meal":"","name":"Ada"}`, "", nil))
	_, _, fields := question(t, r)
	assert.Equal(t, []string{"email", "nights", "meal", "tags", "quiet"}, fields)
	res := e.done(req(`{"city":"Paris","email":"","meal":"","name":"Ada"}`, r.RequestState,
		accept("plan_trip", map[string]any{"email": "ada@example.com", "nights": 2})))
	assert.False(t, res.IsError, res.Text)
	require.Equal(t, 1, e.rec.Count())
	assert.JSONEq(t, `{"city":"Paris","name":"Ada","email":"ada@example.com","nights":2,"quiet":true}`, string(e.rec.Runs()[0].Args))

	// A wrong value is still refused.
	resp, err := e.flow.Call(context.Background(), e.opts, req(`{"city":"Paris","email":"nope"}`, "", nil))
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.Contains(t, resp.Result.Text, "email")
}
