package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// shipEnv runs the ship tool: speed is a run-time choice, and Accept asks the
// Approve question after computing a price.
type shipEnv struct {
	t    *testing.T
	h    *fixture.ShipRecorder
	flow *engine.Flow
	opts *engine.Options
}

func newShip(t *testing.T, speeds ...engine.Choice) *shipEnv {
	h := &fixture.ShipRecorder{Speeds: speeds, Price: 10, Stock: 5}
	return &shipEnv{t: t, h: h, flow: fixture.NewShipFlow(h),
		opts: &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}}
}

func (e *shipEnv) call(r *protocol.Request) *engine.Response {
	e.t.Helper()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.NoError(e.t, err)
	return resp
}

var fastSlow = []engine.Choice{{Value: "fast", Title: "Fast"}, {Value: "slow", Title: "Slow"}}

func schemaJSON(t *testing.T, er *protocol.ElicitRequest) string {
	b, err := json.Marshal(er.RequestedSchema)
	require.NoError(t, err)
	return string(b)
}

// The whole path: the run-time choice is asked as a titled select, Accept
// then asks its question with the computed message, a wrong typed echo is
// asked again with the reason, the right one completes; the price computed
// in the first round is the one every later round sees.
func TestQuestionMidBranch(t *testing.T) {
	e := newShip(t, fastSlow...)
	r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
	key, q, fields := question(t, r1)
	assert.Equal(t, "ship", key)
	assert.Equal(t, []string{"speed"}, fields)
	assert.JSONEq(t, `{"type":"object","properties":{"speed":{"oneOf":[{"const":"fast","title":"Fast"},{"const":"slow","title":"Slow"}],"title":"Speed","type":"string"}},"required":["speed"]}`, schemaJSON(t, q))

	r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": "fast"})))
	key, q, fields = question(t, r2)
	assert.Equal(t, "approve", key, "the branch's question, under its own name")
	assert.Equal(t, []string{"code", "note"}, fields)
	assert.Equal(t, "Ship P1 by fast for 10 (5 in stock)?", q.Message)
	assert.Zero(t, e.h.Count(), "nothing recorded while the question is open")

	e.h.Set(func(h *fixture.ShipRecorder) { h.Price = 99 }) // the data changes; the kept price does not
	r3 := e.call(req(`{"parcel":"P1"}`, r2.RequestState, accept("approve", map[string]any{"code": "P2"})))
	key, q, fields = question(t, r3)
	assert.Equal(t, "approve_3", key)
	assert.Equal(t, []string{"code"}, fields, "only the failing field is asked again")
	assert.Contains(t, q.Message, `code: must be exactly "P1"`)
	assert.Contains(t, q.Message, "for 10 ")
	assert.Zero(t, e.h.Count())

	r4 := e.call(req(`{"parcel":"P1"}`, r3.RequestState, accept("approve_3", map[string]any{"code": "P1"})))
	require.NotNil(t, r4.Result)
	runs := e.h.Runs()
	require.Len(t, runs, 1)
	assert.Equal(t, engine.Accept, runs[0].Action)
	assert.JSONEq(t, `{"args":{"parcel":"P1","speed":"fast"},"price":10,"approve":{"code":"P1"}}`, string(runs[0].Args))
	assert.Equal(t, 1, e.h.Computed(), "the price is computed once and carried in the seal")
}

// A question whose computed message changes between rounds is asked again:
// the old answer does not apply to the new question.
func TestChangedQuestionIsAskedAgain(t *testing.T) {
	e := newShip(t, fastSlow...)
	r1 := e.call(req(`{"parcel":"P1","speed":"slow"}`, "", nil))
	key, q, _ := question(t, r1)
	require.Equal(t, "approve", key)
	assert.Contains(t, q.Message, "(5 in stock)")

	e.h.Set(func(h *fixture.ShipRecorder) { h.Stock = 0 })
	r2 := e.call(req(`{"parcel":"P1","speed":"slow"}`, r1.RequestState, accept("approve", map[string]any{"code": "P1"})))
	key, q, _ = question(t, r2)
	assert.Equal(t, "approve_2", key)
	assert.Contains(t, q.Message, "(0 in stock)")
	assert.Zero(t, e.h.Count(), "the answer to the old question ran nothing")

	r3 := e.call(req(`{"parcel":"P1","speed":"slow"}`, r2.RequestState, accept("approve_2", map[string]any{"code": "P1"})))
	require.NotNil(t, r3.Result)
	assert.Equal(t, 1, e.h.Count())
}

// Decline and cancel of a question come back to the branch as the action.
func TestQuestionDeclineAndCancelReachTheBranch(t *testing.T) {
	for _, a := range []engine.Action{engine.Decline, engine.Cancel} {
		e := newShip(t, fastSlow...)
		r1 := e.call(req(`{"parcel":"P1","speed":"fast"}`, "", nil))
		r2 := e.call(req(`{"parcel":"P1","speed":"fast"}`, r1.RequestState, act("approve", a)))
		require.NotNil(t, r2.Result, "%s ends the call", a)
		runs := e.h.Runs()
		require.Len(t, runs, 1)
		assert.Equal(t, a, runs[0].Action, "Accept saw the action and returned it")
	}
}

// An answer to the question sent under the key of the round before is not
// applied: the question is asked again.
func TestQuestionAnswerUnderAnotherKeyIsNotApplied(t *testing.T) {
	e := newShip(t, fastSlow...)
	r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
	r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": "fast"})))
	r3 := e.call(req(`{"parcel":"P1"}`, r2.RequestState, accept("ship", map[string]any{"code": "P1", "speed": "fast"})))
	key, _, _ := question(t, r3)
	assert.Equal(t, "approve_3", key)
	assert.Zero(t, e.h.Count())
}

// Run-time choices: an answer not among the options is asked again with the
// reason; an argument not among them is a tool error; one option is taken
// without asking; none is a tool error naming the field.
func TestRunTimeChoices(t *testing.T) {
	e := newShip(t, fastSlow...)
	r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
	r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": "warp"})))
	key, q, fields := question(t, r2)
	assert.Equal(t, "ship_2", key)
	assert.Equal(t, []string{"speed"}, fields)
	assert.Contains(t, q.Message, "speed: must be one of: fast, slow")

	bad := e.call(req(`{"parcel":"P1","speed":"warp"}`, "", nil))
	require.NotNil(t, bad.Result)
	assert.True(t, bad.Result.IsError)
	assert.Contains(t, bad.Result.Text, "speed: must be one of: fast, slow")

	one := newShip(t, engine.Choice{Value: "slow"})
	r := one.call(req(`{"parcel":"P1"}`, "", nil))
	key, _, _ = question(t, r)
	assert.Equal(t, "approve", key, "the only speed is taken; the first question is Accept's")

	none := newShip(t)
	res := none.call(req(`{"parcel":"P1"}`, "", nil)).Result
	require.NotNil(t, res)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, `speed ("Speed")`)
	assert.Zero(t, none.h.Count())

	// The options changed between the rounds: the answer is not applied to a
	// question the caller was not shown, and the new options are asked.
	e2 := newShip(t, fastSlow...)
	s1 := e2.call(req(`{"parcel":"P1"}`, "", nil))
	e2.h.Set(func(h *fixture.ShipRecorder) { h.Speeds = []engine.Choice{{Value: "fast"}, {Value: "drone"}} })
	s2 := e2.call(req(`{"parcel":"P1"}`, s1.RequestState, accept("ship", map[string]any{"speed": "slow"})))
	_, q, _ = question(t, s2)
	assert.JSONEq(t, `{"type":"object","properties":{"speed":{"enum":["fast","drone"],"title":"Speed","type":"string"}},"required":["speed"]}`, schemaJSON(t, q))
}

// Ask outside a branch is an error, not a panic.
func TestAskOutsideABranch(t *testing.T) {
	_, err := engine.Ask(context.Background(), "x", &fixture.Approve{}, nil)
	assert.ErrorContains(t, err, "outside a flow branch")
	n, err := engine.Keep(context.Background(), "k", func() (int, error) { return 7, nil })
	require.NoError(t, err)
	assert.Equal(t, 7, n)
}

// A required select settled by its only option is not asked, and does not
// take optional fields with defaults out of the form: they are still asked.
func TestOneOptionKeepsOptionalFieldsInTheForm(t *testing.T) {
	flow := fixture.NewPizzaFlow(fixture.PizzaSkeleton())
	opts := &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}
	r1, err := flow.Call(context.Background(), opts, req(`{}`, "", nil))
	require.NoError(t, err)
	key, q, fields := question(t, r1)
	assert.Equal(t, "order_pizza", key)
	assert.Equal(t, []string{"size", "count"}, fields)
	assert.Equal(t, []string{"size"}, q.RequestedSchema.Required)

	r2, err := flow.Call(context.Background(), opts, req(`{}`, r1.RequestState, accept("order_pizza", map[string]any{"size": "m", "count": 2})))
	require.NoError(t, err)
	require.NotNil(t, r2.Result)
	assert.Contains(t, r2.Result.Text, `"size":"m","shop":"example","count":2`)
}

// Plain arguments are held to the input schema tools/list shows: a required
// one missing is a tool error before anything is asked.
func TestPlainArgumentsFollowTheInputSchema(t *testing.T) {
	e := newEnv(t, nil)
	resp, err := e.flow.Call(context.Background(), e.opts, req(`{"name":"Ada"}`, "", nil))
	require.NoError(t, err)
	require.NotNil(t, resp.Result, "no form for a call that is already invalid")
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "invalid arguments")
	assert.Contains(t, resp.Result.Text, "city")
	assert.Zero(t, e.rec.Count())
}
