package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
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
	flow *runtime.Flow
	opts *runtime.Options
}

func newTrip(t *testing.T, form func(ctx context.Context, args *fixture.Trip) (*runtime.AskOptions, error)) *tripEnv {
	h := &fixture.TripRecorder{Form: form}
	return &tripEnv{t: t, h: h, flow: fixture.NewTripFlow(h),
		opts: &runtime.Options{Keys: runtime.EphemeralKeyRing(), Store: runtime.NewMemoryStore()}}
}

func (e *tripEnv) call(r *protocol.Request) *runtime.Response {
	e.t.Helper()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.NoError(e.t, err)
	return resp
}

// A typed echo on the tool's own form: a wrong answer is asked again, alone,
// with the reason, and the valid answers are kept; the right one runs Accept.
func TestToolFormEqual(t *testing.T) {
	e := newTrip(t, func(ctx context.Context, args *fixture.Trip) (*runtime.AskOptions, error) {
		return &runtime.AskOptions{Message: "Booking " + args.City + ": type Ada to confirm.", Equal: map[string]string{"name": "Ada"}}, nil
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
	e := newTrip(t, func(context.Context, *fixture.Trip) (*runtime.AskOptions, error) {
		return &runtime.AskOptions{Equal: map[string]string{"name": "Ada"}}, nil
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
	e := newTrip(t, func(context.Context, *fixture.Trip) (*runtime.AskOptions, error) {
		return &runtime.AskOptions{Defaults: map[string]any{"meal": "fish", "name": "Ada"}}, nil
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
	e := newTrip(t, func(context.Context, *fixture.Trip) (*runtime.AskOptions, error) {
		return &runtime.AskOptions{Equal: map[string]string{"name": want}}, nil
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
	e := newTrip(t, func(context.Context, *fixture.Trip) (*runtime.AskOptions, error) {
		return &runtime.AskOptions{Choices: map[string][]runtime.Choice{"meal": {{Value: "veg"}}}}, nil
	})
	resp := e.call(req(paris, "", nil))
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "FormOptions returned Choices")

	boom := errors.New("directory down")
	e = newTrip(t, func(context.Context, *fixture.Trip) (*runtime.AskOptions, error) { return nil, boom })
	_, err := e.flow.Call(context.Background(), e.opts, req(paris, "", nil))
	assert.ErrorIs(t, err, boom)
	assert.Zero(t, e.h.Count())
}
