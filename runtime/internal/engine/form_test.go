package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// These tests hold the tool's own form to what a question can do: one form
// engine asks both, so run-time echoes (Equal), run-time defaults and a
// run-time message shape the tool's form too, through the handler's
// optional FormOptions method.

// tripCall runs one request of plan_trip whose handler's FormOptions is form.
type tripEnv struct {
	t    *testing.T
	h    *fixture.TripRecorder
	flow *engine.Flow
	opts *engine.Options
}

func newTrip(t *testing.T, form func(ctx context.Context, args *fixture.Trip) (*engine.AskOptions, error)) *tripEnv {
	h := &fixture.TripRecorder{Form: form}
	return &tripEnv{t: t, h: h, flow: fixture.NewTripFlow(h),
		opts: &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}}
}

func (e *tripEnv) call(r *protocol.Request) *engine.Response {
	e.t.Helper()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.NoError(e.t, err)
	return resp
}

// A typed echo on the tool's own form: a wrong answer is asked again, alone,
// with the reason, and the valid answers are kept; the right one runs Accept.
func TestToolFormEqual(t *testing.T) {
	e := newTrip(t, func(ctx context.Context, args *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Message: "Booking " + args.City + ": type Ada to confirm.", Equal: map[string]string{"name": "Ada"}}, nil
	})
	r1 := e.call(req(paris, "", nil))
	key, q, fields := question(t, r1)
	assert.Equal(t, "plan_trip", key)
	assert.Equal(t, "Booking Paris: type Ada to confirm.", q.Message, "the handler's message replaces //mcpgen:message")
	assert.Equal(t, []string{"name", "email", "nights", "meal", "tags", "quiet"}, fields)

	r2 := e.call(req(paris, r1.RequestState, accept(key, map[string]any{"name": "Bob", "email": "bob@example.com", "nights": 2})))
	require.Nil(t, r2.Result, "a wrong echo is asked again")
	key, q, fields = question(t, r2)
	assert.Equal(t, "plan_trip_2", key)
	assert.Equal(t, []string{"name"}, fields, "only the failing field")
	assert.Contains(t, q.Message, `name: must be exactly "Ada"`)
	assert.Zero(t, e.h.Count())

	r3 := e.call(req(paris, r2.RequestState, accept(key, map[string]any{"name": "Ada"})))
	require.NotNil(t, r3.Result)
	assert.False(t, r3.Result.IsError, r3.Result.Text)
	trip := lastArgs(t, e.h)
	assert.Equal(t, "Ada", trip.Name)
	assert.Equal(t, "bob@example.com", trip.Email, "the valid answers of round 1 are kept")
	require.NotNil(t, trip.Nights)
	assert.Equal(t, 2, *trip.Nights)
}

// An argument given up front must equal the echo, as an answer must: the
// model cannot fill in the user's confirmation.
func TestToolFormEqualHoldsArguments(t *testing.T) {
	e := newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Equal: map[string]string{"name": "Ada"}}, nil
	})
	resp := e.call(req(`{"city":"Paris","name":"Bob","email":"b@example.com","nights":1}`, "", nil))
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, `name: must be exactly "Ada"`)
	assert.Zero(t, e.h.Count())

	resp = e.call(req(`{"city":"Paris","name":"Ada","email":"a@example.com","nights":1}`, "", nil))
	require.NotNil(t, resp.Result)
	assert.False(t, resp.Result.IsError, resp.Result.Text)
	assert.Equal(t, 1, e.h.Count())
}

// Run-time defaults pre-fill the tool's form and fill an optional field the
// user left empty.
func TestToolFormDefaults(t *testing.T) {
	e := newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Defaults: map[string]any{"meal": "fish", "name": "Ada"}}, nil
	})
	r1 := e.call(req(paris, "", nil))
	key, q, _ := question(t, r1)
	b, err := json.Marshal(q.RequestedSchema)
	require.NoError(t, err)
	var s struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Equal(t, "fish", s.Properties["meal"].Default)
	assert.Equal(t, "Ada", s.Properties["name"].Default, "a required field is pre-filled too")

	r2 := e.call(req(paris, r1.RequestState, accept(key, goodAnswer)))
	require.NotNil(t, r2.Result)
	assert.False(t, r2.Result.IsError, r2.Result.Text)
	assert.Equal(t, "fish", lastArgs(t, e.h).Meal, "an optional field left empty takes the run-time default")
}

// The form's options are part of its digest: when the echo changes between
// rounds (the data changed), the old answer is not applied and the new form
// is asked whole.
func TestToolFormOptionsChangedAskAgain(t *testing.T) {
	want := "Ada"
	e := newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Equal: map[string]string{"name": want}}, nil
	})
	r1 := e.call(req(paris, "", nil))
	key, _, _ := question(t, r1)
	want = "Grace"
	r2 := e.call(req(paris, r1.RequestState, accept(key, goodAnswer)))
	require.Nil(t, r2.Result, "an answer to another form is not applied")
	key, _, fields := question(t, r2)
	assert.Equal(t, "plan_trip_2", key)
	assert.Equal(t, []string{"name", "email", "nights", "meal", "tags", "quiet"}, fields)
	assert.Zero(t, e.h.Count())
}

// FormOptions' mistakes end the call clearly: Choices belong to the
// <Field>Choices methods, and an error is returned as it is.
func TestToolFormOptionsMistakes(t *testing.T) {
	e := newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Choices: map[string][]engine.Choice{"meal": {{Value: "veg"}}}}, nil
	})
	resp := e.call(req(paris, "", nil))
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "FormOptions returned Choices")

	boom := errors.New("directory down")
	e = newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) { return nil, boom })
	_, err := e.flow.Call(context.Background(), e.opts, req(paris, "", nil))
	assert.ErrorIs(t, err, boom)
	assert.Zero(t, e.h.Count())
}

// The tool's own form is settled only while it stays the form the user
// answered: when its options change while its branch is asking a question,
// the form is asked again under a new key (as a question whose options
// changed is), and the branch runs on the new answer, never on an account
// or speed that is no longer offered. Every request reports the rounds
// before it.
func TestSettledFormAskedAgainWhenItsOptionsChange(t *testing.T) {
	e := newShip(t, fastSlow...)
	e.opts.MaxRounds = 5
	var rounds []int
	e.opts.OnAsk = func(_ context.Context, ev engine.Event) { rounds = append(rounds, ev.Round) }
	r1 := e.call(req(`{"parcel":"P1"}`, "", nil))
	r2 := e.call(req(`{"parcel":"P1"}`, r1.RequestState, accept("ship", map[string]any{"speed": "fast"})))
	key, _, _ := question(t, r2)
	require.Equal(t, "approve", key, "the form is settled; Accept asks its question")

	e.h.Set(func(h *fixture.ShipRecorder) {
		h.Speeds = []engine.Choice{{Value: "slow", Title: "Slow"}, {Value: "medium", Title: "Medium"}}
	})
	r3 := e.call(req(`{"parcel":"P1"}`, r2.RequestState, accept("approve", map[string]any{"code": "P1"})))
	require.Nil(t, r3.Result, "fast is no longer offered: the branch must not run on it")
	key, q, fields := question(t, r3)
	assert.Equal(t, "ship_3", key, "asked again under a new key")
	assert.Equal(t, []string{"speed"}, fields)
	assert.Contains(t, schemaJSON(t, q), `"medium"`)
	assert.Empty(t, e.h.Runs())

	r4 := e.call(req(`{"parcel":"P1"}`, r3.RequestState, accept("ship_3", map[string]any{"speed": "slow"})))
	key, _, _ = question(t, r4)
	require.Equal(t, "approve", key)
	r5 := e.call(req(`{"parcel":"P1"}`, r4.RequestState, accept("approve", map[string]any{"code": "P1"})))
	require.NotNil(t, r5.Result)
	assert.False(t, r5.Result.IsError, r5.Result.Text)
	runs := e.h.Runs()
	require.Len(t, runs, 1)
	assert.JSONEq(t, `{"parcel":"P1","speed":"slow"}`, string(mustField(t, runs[0].Args, "args")))
	assert.Equal(t, []int{0, 1, 2, 3}, rounds, "each request reports the input-required results before it")
}

func mustField(t *testing.T, raw json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	return m[name]
}

// Run-time options that are wrong in themselves end the call in a tool
// error naming each mistake, before anything is asked: a pre-filled value
// the user could not submit, an echo no answer can equal, a name that is no
// field. Nothing runs, and nothing is asked until the round limit.
func TestToolFormOptionsChecked(t *testing.T) {
	e := newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{
			Defaults: map[string]any{"nights": "two", "meal": "beef"},
			Equal:    map[string]string{"name": "A", "nope": "x"},
		}, nil
	})
	resp := e.call(req(paris, "", nil))
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	for _, want := range []string{
		`the default of nights: must be an integer`,
		`the default of meal: must be one of`,
		`the echo (Equal) of name: must be at least 2 characters`,
		`Equal names "nope", which is not an elicitable field`,
	} {
		assert.Contains(t, resp.Result.Text, want)
	}
	assert.Zero(t, e.h.Count())
}

// A wrong answer to a field with a typed echo gets one reason, the type's,
// not the echo's as well.
func TestOneReasonPerField(t *testing.T) {
	e := newTrip(t, func(context.Context, *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Equal: map[string]string{"name": "Ada"}}, nil
	})
	r1 := e.call(req(paris, "", nil))
	key, _, _ := question(t, r1)
	r2 := e.call(req(paris, r1.RequestState, accept(key, map[string]any{"name": 7, "email": "a@example.com", "nights": 1})))
	_, q, _ := question(t, r2)
	assert.Contains(t, q.Message, "name: must be a string")
	assert.NotContains(t, q.Message, "must be exactly")
}

// Options with an empty value (which would fill a required field with no
// answer) or a value twice are a mistake of the handler, named as such.
func TestChoicesChecked(t *testing.T) {
	for opts, want := range map[string][]engine.Choice{
		"hold an option with an empty value": {{Value: ""}, {Value: "fast"}},
		`hold the option "fast" twice`:       {{Value: "fast"}, {Value: "fast"}, {Value: "slow"}},
	} {
		e := newShip(t, want...)
		resp := e.call(req(`{"parcel":"P1"}`, "", nil))
		require.NotNil(t, resp.Result, opts)
		assert.True(t, resp.Result.IsError)
		assert.Contains(t, resp.Result.Text, "Choices of speed "+opts)
	}
}
