package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// A user's answer is never replaced by the option left when run-time
// options shrink to one between the rounds of a call (issue 37, F2): the
// answer no longer among the options is asked again with the reason, the
// option left pre-filled as the field's default, and the branch runs only
// with what the user then picks. The tool's own form, a question asked
// mid-branch, and the tool's form settled before a question are each held.
func TestChoicesShrunkToOneNeverReplaceAnAnswer(t *testing.T) {
	t.Run("the tool's form", func(t *testing.T) {
		e := newShip(t, fastSlow...)
		r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
		e.h.Set(func(h *fixture.ShipRecorder) { h.Speeds = []engine.Choice{{Value: "slow", Title: "Slow"}} })
		r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": "fast"})))
		require.Nil(t, r2.Result, "the user's fast is not replaced by slow")
		key, q, fields := question(t, r2)
		assert.Equal(t, "ship_2", key)
		assert.Equal(t, []string{"speed"}, fields)
		assert.Contains(t, q.Message, `speed: "fast" is no longer one of the options (must be one of: slow)`)
		assert.JSONEq(t, `{"type":"object","properties":{"speed":{"oneOf":[{"const":"slow","title":"Slow"}],"title":"Speed","type":"string","default":"slow"}},"required":["speed"]}`,
			schemaJSON(t, q), "the one option left is pre-filled, not taken")
		assert.Zero(t, e.h.Count())

		r3 := e.call(req(`{"parcel":"P1"}`, r2.RequestState, accept(key, map[string]any{"speed": "slow"})))
		key, _, _ = question(t, r3)
		assert.Equal(t, "approve", key, "the user picked slow: Accept runs and asks")
		r4 := e.call(req(`{"parcel":"P1"}`, r3.RequestState, accept("approve", map[string]any{"code": "P1"})))
		require.NotNil(t, r4.Result)
		assert.False(t, r4.Result.IsError, r4.Result.Text)
		runs := e.h.Runs()
		require.Len(t, runs, 1)
		assert.JSONEq(t, `{"args":{"parcel":"P1","speed":"slow"},"price":10,"approve":{"code":"P1"}}`, string(runs[0].Args))
	})

	t.Run("a question mid-branch", func(t *testing.T) {
		h := &payShip{accounts: []engine.Choice{{Value: "chk-1", Title: "Checking"}, {Value: "sav-2", Title: "Savings"}}}
		call := flowCaller(t, fixture.NewShipFlow(h))
		r1 := call(req(`{"parcel":"P1"}`, "", nil))
		h.accounts = h.accounts[1:]
		r2 := call(req(`{"parcel":"P1"}`, r1.RequestState, accept("pay", map[string]any{"account": "chk-1"})))
		require.Nil(t, r2.Result, "Accept does not go on with sav-2, which the user did not pick")
		key, q, fields := question(t, r2)
		assert.Equal(t, "pay_2", key)
		assert.Equal(t, []string{"account"}, fields)
		assert.Contains(t, q.Message, `account: "chk-1" is no longer one of the options (must be one of: sav-2)`)
		assert.Contains(t, schemaJSON(t, q), `"default":"sav-2"`)

		r3 := call(req(`{"parcel":"P1"}`, r2.RequestState, accept(key, map[string]any{"account": "chk-1"})))
		key, q, _ = question(t, r3)
		assert.Equal(t, "pay_3", key, "the old answer again is asked again, as any answer not among the options")
		assert.Contains(t, q.Message, "account: must be one of: sav-2")

		r4 := call(req(`{"parcel":"P1"}`, r3.RequestState, accept(key, map[string]any{"account": "sav-2"})))
		require.NotNil(t, r4.Result)
		assert.Equal(t, "accept sav-2", r4.Result.Text)
	})

	t.Run("the tool's form settled before a question", func(t *testing.T) {
		h := &pizzaPay{pizzaShops{shops: []engine.Choice{{Value: "north"}, {Value: "south"}}}}
		opts := &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore(), MaxRounds: 4}
		flow := fixture.NewPizzaFlow(h)
		call := func(r *protocol.Request) *engine.Response {
			t.Helper()
			resp, err := flow.Call(t.Context(), opts, r)
			require.NoError(t, err)
			return resp
		}
		r1 := call(req(`{"size":"m"}`, "", nil))
		r2 := call(req(`{"size":"m"}`, r1.RequestState, accept("order_pizza", map[string]any{"shop": "north", "count": 3})))
		key, _, _ := question(t, r2)
		require.Equal(t, "pay", key)
		h.shops = []engine.Choice{{Value: "south"}}
		r3 := call(req(`{"size":"m"}`, r2.RequestState, accept("pay", map[string]any{"account": "chk-1"})))
		require.Nil(t, r3.Result, "the branch does not run with south, which the user did not pick")
		key, q, fields := question(t, r3)
		assert.Equal(t, "order_pizza_3", key)
		assert.Equal(t, []string{"shop", "count"}, fields)
		assert.Contains(t, q.Message, `shop: "north" is no longer one of the options (must be one of: south)`)
		assert.Contains(t, schemaJSON(t, q), `"default":"south"`)

		r4 := call(req(`{"size":"m"}`, r3.RequestState, accept(key, map[string]any{"shop": "south", "count": 2})))
		key, _, _ = question(t, r4)
		assert.Equal(t, "pay", key, "the branch runs on the new answer, and asks its question on it")
		r5 := call(req(`{"size":"m"}`, r4.RequestState, accept(key, map[string]any{"account": "sav-2"})))
		require.NotNil(t, r5.Result)
		assert.Equal(t, `accept sav-2 {"size":"m","shop":"south","count":2}`, r5.Result.Text)
	})

	t.Run("with another field to fill", func(t *testing.T) {
		h := &pizzaShops{shops: []engine.Choice{{Value: "north"}, {Value: "south"}}}
		call := flowCaller(t, fixture.NewPizzaFlow(h))
		r1 := call(req(`{}`, "", nil))
		h.shops = []engine.Choice{{Value: "south"}}
		r2 := call(req(`{}`, r1.RequestState, accept("order_pizza", map[string]any{"size": "m", "shop": "north", "count": 2})))
		key, q, fields := question(t, r2)
		assert.Equal(t, "order_pizza_2", key)
		assert.Equal(t, []string{"size", "shop", "count"}, fields)
		assert.Contains(t, q.Message, `shop: "north" is no longer one of the options (must be one of: south)`)
		r3 := call(req(`{}`, r2.RequestState, accept(key, map[string]any{"size": "l", "shop": "south", "count": 3})))
		require.NotNil(t, r3.Result, "the answer to the form as shown applies: not asked a third time")
		assert.JSONEq(t, `{"size":"l","shop":"south","count":3}`, r3.Result.Text)
	})

	t.Run("the answer is the option left", func(t *testing.T) {
		h := &payShip{accounts: []engine.Choice{{Value: "chk-1"}, {Value: "sav-2"}}}
		call := flowCaller(t, fixture.NewShipFlow(h))
		r1 := call(req(`{"parcel":"P1"}`, "", nil))
		h.accounts = h.accounts[1:]
		r2 := call(req(`{"parcel":"P1"}`, r1.RequestState, accept("pay", map[string]any{"account": "sav-2"})))
		require.NotNil(t, r2.Result, "the user's own pick: nothing to ask")
		assert.Equal(t, "accept sav-2", r2.Result.Text)
	})
}
