package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/impl"
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// quoteEnv runs the quote tool, whose arguments have no elicitable field:
// its handler has Accept only, which asks Approve for an order over 10.
type quoteEnv struct {
	t       *testing.T
	h       *fixture.QuoteRecorder
	flow    *engine.Flow
	opts    *engine.Options
	rejects []engine.Rejection
}

func newQuote(t *testing.T) *quoteEnv {
	e := &quoteEnv{t: t, h: &fixture.QuoteRecorder{Limit: 10}}
	e.flow = fixture.NewQuoteFlow(e.h)
	e.opts = &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore(),
		OnReject: func(_ context.Context, r engine.Rejection) { e.rejects = append(e.rejects, r) }}
	return e
}

func (e *quoteEnv) call(r *protocol.Request) *engine.Response {
	e.t.Helper()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.NoError(e.t, err)
	return resp
}

// A first call completes at once through Accept: nothing is asked before the
// branch, not even of a client that declared no form elicitation.
func TestAcceptOnlyFirstCallCompletes(t *testing.T) {
	for _, forms := range []bool{true, false} {
		e := newQuote(t)
		r := req(`{"parcel":"P1","count":3}`, "", nil)
		r.FormElicitation = forms
		resp := e.call(r)
		require.NotNil(t, resp.Result, "complete on the first call")
		assert.False(t, resp.Result.IsError, resp.Result.Text)
		runs := e.h.Runs()
		require.Len(t, runs, 1)
		assert.Equal(t, engine.Accept, runs[0].Action)
		assert.JSONEq(t, `{"parcel":"P1","count":3}`, string(runs[0].Args))
		assert.Zero(t, runs[0].Round)
	}
	// The plain arguments are still held to the input schema.
	e := newQuote(t)
	resp := e.call(req(`{"parcel":"P1","count":0}`, "", nil))
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "invalid arguments")
	assert.Zero(t, e.h.Count())
}

// A question Accept asks round-trips under its own name, and the user's
// action, whatever it is, comes back to Accept: accept completes with the
// answer, decline and cancel end in Accept's own result.
func TestAcceptOnlyBranchQuestion(t *testing.T) {
	const args = `{"parcel":"P1","count":50}`
	e := newQuote(t)
	r1 := e.call(req(args, "", nil))
	key, q, fields := question(t, r1)
	assert.Equal(t, "approve", key)
	assert.Equal(t, []string{"code", "note"}, fields)
	assert.Equal(t, "Order 50 of P1?", q.Message)
	assert.Zero(t, e.h.Count(), "nothing recorded while the question is open")

	r2 := e.call(req(args, r1.RequestState, accept("approve", map[string]any{"code": "P1"})))
	require.NotNil(t, r2.Result)
	assert.False(t, r2.Result.IsError, r2.Result.Text)
	runs := e.h.Runs()
	require.Len(t, runs, 1)
	assert.Equal(t, engine.Accept, runs[0].Action)
	assert.JSONEq(t, `{"args":{"parcel":"P1","count":50},"approve":{"code":"P1"}}`, string(runs[0].Args))
	assert.Equal(t, 1, runs[0].Round)
	assert.NotEmpty(t, runs[0].FlowID)

	for _, a := range []engine.Action{engine.Decline, engine.Cancel} {
		e := newQuote(t)
		r1 := e.call(req(args, "", nil))
		r2 := e.call(req(args, r1.RequestState, act("approve", a)))
		require.NotNil(t, r2.Result, "%s ends the call", a)
		assert.False(t, r2.Result.IsError)
		runs := e.h.Runs()
		require.Len(t, runs, 1)
		assert.Equal(t, a, runs[0].Action, "Accept saw the question's action and returned it")
	}
}

// A requestState of another flow of the same name that had elicitable
// fields (an earlier version of the tool), sealed with the same keys, is
// refused with -32602 before anything runs: one that asked a form, and one
// whose Decline branch asked a question. The quote tool's flow dispatches
// Accept only, and its handler has nothing else.
func TestAcceptOnlyRefusesOtherBranches(t *testing.T) {
	const args = `{"parcel":"P1","count":50}`
	e := newQuote(t)
	old := impl.NewFlow(impl.FlowSpec[fixture.Picks]{Name: "quote", Key: "quote", Fields: []string{"seats"},
		Dispatch: func(ctx context.Context, _ *fixture.Picks, action engine.Action, _ []string) (*engine.Result, error) {
			var q fixture.Approve
			if _, err := engine.Ask(ctx, "approve", &q, nil); err != nil {
				return nil, err
			}
			return engine.Text(string(action)), nil
		}})
	oldCall := func(r *protocol.Request) *engine.Response {
		resp, err := old.Call(context.Background(), e.opts, r)
		require.NoError(t, err)
		require.Nil(t, resp.Result)
		return resp
	}
	form := oldCall(req(args, "", nil))
	key, _, fields := question(t, form)
	require.Equal(t, "quote", key)
	require.Equal(t, []string{"seats"}, fields)
	declined := oldCall(req(args, form.RequestState, act("quote", engine.Decline)))
	key, _, _ = question(t, declined)
	require.Equal(t, "approve", key, "the old tool's Decline asked a question")

	for name, r := range map[string]*protocol.Request{
		"a form":            req(args, form.RequestState, accept("quote", map[string]any{"seats": []any{"aisle"}})),
		"a Decline branch":  req(args, declined.RequestState, accept("approve", map[string]any{"code": "P1"})),
		"a Decline, unsent": req(args, declined.RequestState, nil),
	} {
		e.rejects = nil
		_, err := e.flow.Call(context.Background(), e.opts, r)
		var pe *protocol.Error
		require.True(t, errors.As(err, &pe), "%s: want a protocol error, got %v", name, err)
		assert.Equal(t, int64(protocol.CodeInvalidParams), pe.Code, name)
		assert.Contains(t, pe.Message, "this tool has no elicitable field", name)
		require.Len(t, e.rejects, 1, name)
	}
	assert.Zero(t, e.h.Count(), "no branch ran")
}
