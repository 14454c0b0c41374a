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

// These tests change run-time choices (elicit:"choices") between the rounds
// of a call: the options a retry computes are the ones that count.

// flowCaller returns a function that calls flow with its own keys and
// in-memory store, failing t on an error or a form with no field in it.
func flowCaller(t *testing.T, flow *engine.Flow) func(*protocol.Request) *engine.Response {
	opts := &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}
	return func(r *protocol.Request) *engine.Response {
		t.Helper()
		resp, err := flow.Call(context.Background(), opts, r)
		require.NoError(t, err)
		noEmptyForm(t, resp)
		return resp
	}
}

// noEmptyForm fails when resp asks for a form with no field in it.
func noEmptyForm(t *testing.T, resp *engine.Response) {
	t.Helper()
	for k, ir := range resp.InputRequests {
		if er, ok := ir.(*protocol.ElicitRequest); ok && er.Mode == "form" {
			require.NotNil(t, er.RequestedSchema, "%s: no requestedSchema", k)
			assert.NotZero(t, er.RequestedSchema.Properties.Len(), "%s: an empty form", k)
		}
	}
}

// The tool's own form: the speed asked among two options shrinks to one
// before the retry arrives, and the user answered that one. It is taken
// without asking again (as on a first call), and the call goes on to its
// branch, whose question comes next. (An answer no longer among the options
// is asked again: TestChoicesShrunkToOneNeverReplaceAnAnswer.)
func TestFormChoicesShrunkToOneAreTaken(t *testing.T) {
	for _, answered := range []string{"slow"} {
		e := newShip(t, fastSlow...)
		r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
		key, _, _ := question(t, r1)
		require.Equal(t, "ship", key)

		e.h.Set(func(h *fixture.ShipRecorder) { h.Speeds = []engine.Choice{{Value: "slow", Title: "Slow"}} })
		r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": answered})))
		noEmptyForm(t, r2)
		key, q, _ := question(t, r2)
		assert.Equal(t, "approve", key, "answered %s: nothing is left to ask in the tool's form; Accept runs and asks", answered)
		assert.Equal(t, "Ship P1 by slow for 10 (5 in stock)?", q.Message)

		r3 := e.call(req(`{"parcel":"P1"}`, r2.RequestState, accept("approve", map[string]any{"code": "P1"})))
		require.NotNil(t, r3.Result)
		assert.False(t, r3.Result.IsError, r3.Result.Text)
		runs := e.h.Runs()
		require.Len(t, runs, 1)
		assert.Equal(t, engine.Accept, runs[0].Action)
		assert.JSONEq(t, `{"args":{"parcel":"P1","speed":"slow"},"price":10,"approve":{"code":"P1"}}`, string(runs[0].Args))
	}
}

// A refusal of the form is kept when the options shrink before it arrives:
// the question it refused changed, but nothing is left to ask, and a decline
// is never turned into an accept.
func TestFormChoicesShrunkToOneKeepARefusal(t *testing.T) {
	for _, a := range []engine.Action{engine.Decline, engine.Cancel} {
		e := newShip(t, fastSlow...)
		r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
		e.h.Set(func(h *fixture.ShipRecorder) { h.Speeds = []engine.Choice{{Value: "slow"}} })
		r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, act("ship", a)))
		require.NotNil(t, r2.Result, "%s ends the call", a)
		runs := e.h.Runs()
		require.Len(t, runs, 1)
		assert.Equal(t, a, runs[0].Action)
		if a == engine.Decline {
			assert.Equal(t, []string{"speed"}, runs[0].Declined)
		}
	}
}

// Options that shrink to none end the retry in a tool error naming the field,
// as they end a first call.
func TestFormChoicesShrunkToNoneEndTheCall(t *testing.T) {
	e := newShip(t, fastSlow...)
	r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
	e.h.Set(func(h *fixture.ShipRecorder) { h.Speeds = nil })
	r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": "fast"})))
	require.NotNil(t, r2.Result)
	assert.True(t, r2.Result.IsError)
	assert.Contains(t, r2.Result.Text, `nothing to choose from for speed ("Speed")`)
	assert.Zero(t, e.h.Count())
}

// pizzaShops is an order_pizza handler whose shops a test changes between
// rounds; Accept returns the arguments it got.
type pizzaShops struct{ shops []engine.Choice }

func (h *pizzaShops) ShopChoices(context.Context, *fixture.Pizza) ([]engine.Choice, error) {
	return h.shops, nil
}

func (h *pizzaShops) Accept(_ context.Context, args *fixture.Pizza) (*engine.Result, error) {
	b, err := json.Marshal(args)
	return engine.Text(string(b)), err
}

func (h *pizzaShops) Decline(context.Context, *fixture.Pizza, []string) (*engine.Result, error) {
	return engine.Text("declined"), nil
}

func (h *pizzaShops) Cancel(context.Context, *fixture.Pizza) (*engine.Result, error) {
	return engine.Text("cancelled"), nil
}

// When the options of one field of the form shrink to the one the user
// answered, that field is taken and the rest of the form is asked again (the
// question changed, so its answer does not apply); the answer to that form
// completes the call with the option taken.
func TestFormChoicesShrunkToOneAskTheRest(t *testing.T) {
	h := &pizzaShops{shops: []engine.Choice{{Value: "north"}, {Value: "south"}}}
	flow := fixture.NewPizzaFlow(h)
	call := flowCaller(t, flow)
	r1 := call(req(`{}`, "", nil))
	_, _, fields := question(t, r1)
	require.Equal(t, []string{"size", "shop", "count"}, fields)

	h.shops = []engine.Choice{{Value: "south"}}
	r2 := call(req(`{}`, r1.RequestState, accept("order_pizza", map[string]any{"size": "m", "shop": "south", "count": 2})))
	key, _, fields := question(t, r2)
	assert.Equal(t, "order_pizza_2", key)
	assert.Equal(t, []string{"size", "count"}, fields, "shop has one option left: taken, not asked")

	r3 := call(req(`{}`, r2.RequestState, accept("order_pizza_2", map[string]any{"size": "l", "count": 3})))
	require.NotNil(t, r3.Result)
	assert.False(t, r3.Result.IsError, r3.Result.Text)
	assert.JSONEq(t, `{"size":"l","shop":"south","count":3}`, r3.Result.Text)
}

// payShip is a ship handler whose speed has one option (never asked) and
// whose Accept asks the Pay question among accounts a test changes between
// rounds.
type payShip struct {
	accounts []engine.Choice
	defaults map[string]any // the question's AskOptions.Defaults
}

func (h *payShip) SpeedChoices(context.Context, *fixture.Ship) ([]engine.Choice, error) {
	return []engine.Choice{{Value: "fast"}}, nil
}

func (h *payShip) Accept(ctx context.Context, args *fixture.Ship) (*engine.Result, error) {
	var q fixture.Pay
	action, err := engine.Ask(ctx, "pay", &q, &engine.AskOptions{Choices: map[string][]engine.Choice{"account": h.accounts},
		Defaults: h.defaults})
	if err != nil {
		return nil, err
	}
	return engine.Textf("%s %s", action, q.Account), nil
}

func (h *payShip) Decline(context.Context, *fixture.Ship, []string) (*engine.Result, error) {
	return engine.ToolError("the tool's form was not asked"), nil
}

func (h *payShip) Cancel(context.Context, *fixture.Ship) (*engine.Result, error) {
	return engine.ToolError("the tool's form was not asked"), nil
}

// A question asked mid-branch (engine.Ask) whose options shrink between the
// rounds: to the one the user answered, the branch gets it without the user
// being asked again; a refusal of the question stands, and the branch is
// told; to none, the call ends in a tool error naming the field. (Another
// answer is asked again: TestChoicesShrunkToOneNeverReplaceAnAnswer.)
func TestAskedChoicesShrunkOnRetry(t *testing.T) {
	two := []engine.Choice{{Value: "chk-1", Title: "Checking"}, {Value: "sav-2", Title: "Savings"}}
	for _, tc := range []struct {
		name   string
		left   []engine.Choice
		answer map[string]protocol.InputResponse
		want   string
		isErr  bool
	}{
		{"one left, it answered", two[1:], accept("pay", map[string]any{"account": "sav-2"}), "accept sav-2", false},
		{"one left, declined", two[1:], act("pay", engine.Decline), "decline ", false},
		{"one left, cancelled", two[1:], act("pay", engine.Cancel), "cancel ", false},
		{"none left", nil, accept("pay", map[string]any{"account": "chk-1"}), `ship: there is nothing to choose from for account ("Account")`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &payShip{accounts: two}
			flow := fixture.NewShipFlow(h)
			opts := &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}
			r1, err := flow.Call(context.Background(), opts, req(`{"parcel":"P1"}`, "", nil))
			require.NoError(t, err)
			key, _, fields := question(t, r1)
			require.Equal(t, "pay", key)
			require.Equal(t, []string{"account"}, fields)

			h.accounts = tc.left
			r2, err := flow.Call(context.Background(), opts, req(`{"parcel":"P1"}`, r1.RequestState, tc.answer))
			require.NoError(t, err)
			noEmptyForm(t, r2)
			require.NotNil(t, r2.Result, "nothing is left to ask")
			assert.Equal(t, tc.isErr, r2.Result.IsError)
			assert.Equal(t, tc.want, r2.Result.Text)
		})
	}
}

// A run-time default of a field with run-time choices must be one of them:
// a pre-filled option the form does not offer ends the call in a tool error
// naming it, as a default that breaks a tag's rule does.
func TestDefaultOutsideTheChoices(t *testing.T) {
	two := []engine.Choice{{Value: "chk-1", Title: "Checking"}, {Value: "sav-2", Title: "Savings"}}
	for _, tc := range []struct {
		def  string
		want string // in the tool error; "" when the question is asked
	}{
		{"zz", `the default of account, "zz", is not one of its Choices`},
		{"sav-2", ""},
		{"", ""}, // no default: a "last used" account of a user who has none
	} {
		h := &payShip{accounts: two, defaults: map[string]any{"account": tc.def}}
		opts := &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}
		r1, err := fixture.NewShipFlow(h).Call(context.Background(), opts, req(`{"parcel":"P1"}`, "", nil))
		require.NoError(t, err)
		if tc.want == "" {
			_, q, _ := question(t, r1)
			if tc.def != "" {
				assert.Contains(t, schemaJSON(t, q), `"default":"`+tc.def+`"`)
			}
			continue
		}
		require.NotNil(t, r1.Result, "default %q", tc.def)
		assert.True(t, r1.Result.IsError)
		assert.Contains(t, r1.Result.Text, tc.want)
	}
}

// When a choices field is left with one option and the rest of the form is
// optional, nothing is left that the user must fill: the answer to the form
// the user was shown is taken for the form as it is now, as on a first call
// no form of optional fields alone is asked. A refusal runs its branch; the
// optional values answered are kept (re-asked when they break a rule); the
// round limit is not spent on a form with nothing to fill.
func TestFormChoicesShrunkToOneRestOptional(t *testing.T) {
	ns := []engine.Choice{{Value: "north"}, {Value: "south"}}
	south := []engine.Choice{{Value: "south"}}
	setup := func(t *testing.T) (*pizzaShops, func(*protocol.Request) *engine.Response, *engine.Response) {
		h := &pizzaShops{shops: ns}
		flow := fixture.NewPizzaFlow(h)
		call := flowCaller(t, flow)
		r1 := call(req(`{"size":"m"}`, "", nil))
		_, _, fields := question(t, r1)
		require.Equal(t, []string{"shop", "count"}, fields)
		h.shops = south
		return h, call, r1
	}
	t.Run("accepted", func(t *testing.T) {
		_, call, r1 := setup(t)
		r2 := call(req(`{"size":"m"}`, r1.RequestState, accept("order_pizza", map[string]any{"shop": "south", "count": 3})))
		require.NotNil(t, r2.Result, "nothing left to fill: the branch runs")
		assert.JSONEq(t, `{"size":"m","shop":"south","count":3}`, r2.Result.Text, "the count answered is kept")
	})
	for _, a := range []engine.Action{engine.Decline, engine.Cancel} {
		t.Run(string(a), func(t *testing.T) {
			_, call, r1 := setup(t)
			r2 := call(req(`{"size":"m"}`, r1.RequestState, act("order_pizza", a)))
			require.NotNil(t, r2.Result, "the refusal runs its branch, no form of count alone")
			assert.Equal(t, map[engine.Action]string{engine.Decline: "declined", engine.Cancel: "cancelled"}[a], r2.Result.Text)
		})
	}
	t.Run("a count out of range is asked again", func(t *testing.T) {
		_, call, r1 := setup(t)
		r2 := call(req(`{"size":"m"}`, r1.RequestState, accept("order_pizza", map[string]any{"shop": "south", "count": 9})))
		key, q, fields := question(t, r2)
		assert.Equal(t, "order_pizza_2", key)
		assert.Equal(t, []string{"count"}, fields)
		assert.Contains(t, q.Message, "count")
		r3 := call(req(`{"size":"m"}`, r2.RequestState, accept(key, map[string]any{"count": 2})))
		require.NotNil(t, r3.Result)
		assert.JSONEq(t, `{"size":"m","shop":"south","count":2}`, r3.Result.Text)
	})
	t.Run("at the round limit", func(t *testing.T) {
		h, call, r1 := setup(t)
		h.shops = []engine.Choice{{Value: "p1"}, {Value: "p2"}}
		r2 := call(req(`{"size":"m"}`, r1.RequestState, accept("order_pizza", map[string]any{"shop": "north"})))
		key, _, _ := question(t, r2)
		h.shops = []engine.Choice{{Value: "q1"}, {Value: "q2"}}
		r3 := call(req(`{"size":"m"}`, r2.RequestState, accept(key, map[string]any{"shop": "p1"})))
		key, _, _ = question(t, r3)
		require.Equal(t, "order_pizza_3", key)
		h.shops = []engine.Choice{{Value: "q2"}}
		r4 := call(req(`{"size":"m"}`, r3.RequestState, accept(key, map[string]any{"shop": "q2", "count": 3})))
		require.NotNil(t, r4.Result)
		assert.False(t, r4.Result.IsError, r4.Result.Text)
		assert.JSONEq(t, `{"size":"m","shop":"q2","count":3}`, r4.Result.Text)
	})
}

// pizzaPay is an order_pizza handler whose Accept asks the pay question
// among two accounts; a test changes the shops between rounds.
type pizzaPay struct{ pizzaShops }

func (h *pizzaPay) Accept(ctx context.Context, args *fixture.Pizza) (*engine.Result, error) {
	var q fixture.Pay
	two := []engine.Choice{{Value: "chk-1"}, {Value: "sav-2"}}
	action, err := engine.Ask(ctx, "pay", &q, &engine.AskOptions{Choices: map[string][]engine.Choice{"account": two}})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(args)
	return engine.Textf("%s %s %s", action, q.Account, b), err
}

// What the user answered survives options that change under it: the
// tool's form settled with a count keeps it when a later round settles it
// again with one shop left, the one the user picked; a field never asked,
// left with one option, takes the option
// it has now, not the one it had when the form was asked; and a retry that
// carries no answer, once nothing is left to fill, is settled as a first
// call is, not asked a form of optional fields alone.
func TestFormChoicesChangedKeepWhatWasAnswered(t *testing.T) {
	t.Run("the count answered before a question", func(t *testing.T) {
		h := &pizzaPay{pizzaShops{shops: []engine.Choice{{Value: "north"}, {Value: "south"}}}}
		call := flowCaller(t, fixture.NewPizzaFlow(h))
		r1 := call(req(`{"size":"m"}`, "", nil))
		r2 := call(req(`{"size":"m"}`, r1.RequestState, accept("order_pizza", map[string]any{"shop": "south", "count": 3})))
		key, _, _ := question(t, r2)
		require.Equal(t, "pay", key)
		h.shops = []engine.Choice{{Value: "south"}}
		r3 := call(req(`{"size":"m"}`, r2.RequestState, accept("pay", map[string]any{"account": "chk-1"})))
		require.NotNil(t, r3.Result)
		assert.Equal(t, `accept chk-1 {"size":"m","shop":"south","count":3}`, r3.Result.Text)
	})
	t.Run("the one option as it is now", func(t *testing.T) {
		h := &pizzaShops{shops: []engine.Choice{{Value: "south"}}}
		call := flowCaller(t, fixture.NewPizzaFlow(h))
		r1 := call(req(`{}`, "", nil))
		_, _, fields := question(t, r1)
		require.Equal(t, []string{"size", "count"}, fields)
		h.shops = []engine.Choice{{Value: "west"}}
		r2 := call(req(`{}`, r1.RequestState, accept("order_pizza", map[string]any{"size": "l"})))
		require.NotNil(t, r2.Result)
		assert.JSONEq(t, `{"size":"l","shop":"west","count":1}`, r2.Result.Text)
	})
	t.Run("no answer once nothing is left to fill", func(t *testing.T) {
		h := &pizzaShops{shops: []engine.Choice{{Value: "north"}, {Value: "south"}}}
		call := flowCaller(t, fixture.NewPizzaFlow(h))
		r1 := call(req(`{"size":"m"}`, "", nil))
		h.shops = []engine.Choice{{Value: "south"}}
		r2 := call(req(`{"size":"m"}`, r1.RequestState, nil))
		require.NotNil(t, r2.Result, "no form of count alone")
		assert.JSONEq(t, `{"size":"m","shop":"south","count":1}`, r2.Result.Text)
	})
}
