package elicittest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

var ctx = context.Background()

func TestAcceptOverTwoRounds(t *testing.T) {
	rec := &fixture.TripRecorder{}
	tr := elicittest.New(fixture.NewTripFlow(rec))
	step, err := tr.Call(ctx, map[string]any{"city": "Paris"})
	require.NoError(t, err)
	require.False(t, step.Done())
	q := step.Question
	assert.Equal(t, "plan_trip", q.Key)
	assert.Equal(t, 1, q.Round)
	assert.Equal(t, "Tell us about your trip.", q.Message)
	assert.Equal(t, []string{"name", "email", "nights", "meal", "tags", "quiet"}, q.Fields)
	assert.Equal(t, []string{"name", "email", "nights"}, q.Required)
	email, ok := q.Schema.Properties.Get("email")
	require.True(t, ok)
	assert.Equal(t, "email", email.Format)
	assert.NotEmpty(t, step.RequestState)

	step, err = step.Accept(ctx, map[string]any{"name": "Ada", "email": "nope", "nights": 2})
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, "plan_trip_2", step.Question.Key)
	assert.Equal(t, 2, step.Question.Round)
	assert.Equal(t, []string{"email"}, step.Question.Fields)
	assert.Contains(t, step.Question.Message, "email: must be")
	assert.Zero(t, rec.Count())

	step, err = step.Accept(ctx, map[string]any{"email": "ada@example.com"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Nil(t, step.Question)
	var got fixture.Trip
	runs := rec.Runs()
	require.Len(t, runs, 1)
	require.NoError(t, json.Unmarshal(runs[0].Args, &got))
	assert.Equal(t, "Ada", got.Name)
	assert.Equal(t, "ada@example.com", got.Email)
	assert.Equal(t, 2, runs[0].Round)

	_, err = step.Accept(ctx, nil)
	assert.ErrorIs(t, err, elicittest.ErrDone)
}

func TestDeclineAndCancel(t *testing.T) {
	for _, action := range []runtime.Action{runtime.Decline, runtime.Cancel} {
		rec := &fixture.TripRecorder{}
		tr := elicittest.New(fixture.NewTripFlow(rec))
		step, err := tr.Call(ctx, json.RawMessage(`{"city":"Oslo","name":"Bo"}`))
		require.NoError(t, err)
		assert.Equal(t, []string{"email", "nights", "meal", "tags", "quiet"}, step.Question.Fields)
		if action == runtime.Decline {
			step, err = step.Decline(ctx)
		} else {
			step, err = step.Cancel(ctx)
		}
		require.NoError(t, err)
		require.True(t, step.Done())
		assert.Contains(t, step.Result.Text, string(action)+" ")
		runs := rec.Runs()
		require.Len(t, runs, 1)
		assert.Equal(t, action, runs[0].Action)
		if action == runtime.Decline {
			assert.Equal(t, []string{"email", "nights", "meal", "tags", "quiet"}, runs[0].Declined)
		}
	}
}

func TestCompleteWithoutQuestion(t *testing.T) {
	rec := &fixture.TripRecorder{}
	step, err := elicittest.New(fixture.NewTripFlow(rec)).Call(ctx, fixture.Trip{City: "Rome", Name: "Al", Email: "al@example.com", Nights: new(int)})
	require.NoError(t, err)
	// Nights 0 is present but breaks minimum 1: a tool error, no question, no branch.
	require.True(t, step.Done())
	assert.True(t, step.Result.IsError)
	assert.Contains(t, step.Result.Text, "nights")
	assert.Zero(t, rec.Count())
}

func TestRespondAndOptions(t *testing.T) {
	rec := &fixture.TripRecorder{}
	tr := elicittest.New(fixture.NewTripFlow(rec))
	tr.Principal = "alice"
	step, err := tr.Call(ctx, map[string]any{"city": "Paris"})
	require.NoError(t, err)

	// An answer under a key that was not asked: asked again.
	again, err := step.Respond(ctx, step.RequestState, map[string]protocol.InputResponse{
		"other": &protocol.ElicitResult{Action: runtime.Accept, Content: map[string]any{"name": "Ada"}}})
	require.NoError(t, err)
	assert.Equal(t, "plan_trip_2", again.Question.Key)

	// A tampered state: -32602.
	_, err = step.Respond(ctx, step.RequestState+"A", nil)
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32602, pe.Code)

	// Another principal cannot use alice's state.
	tr.Principal = "bob"
	_, err = step.Accept(ctx, map[string]any{"name": "Ada", "email": "a@b.c", "nights": 1})
	require.ErrorAs(t, err, &pe)
	assert.Zero(t, rec.Count())

	// A client without form elicitation gets the tool error naming the fields.
	tr = elicittest.New(fixture.NewTripFlow(rec))
	tr.NoElicitation = true
	step, err = tr.Call(ctx, map[string]any{"city": "Paris"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.True(t, step.Result.IsError)
	assert.Contains(t, step.Result.Text, `email ("Email")`)

	// A 2025-06-18 client is sent the downgraded schema.
	tr = elicittest.New(fixture.NewTripFlow(rec))
	tr.ProtocolVersion = protocol.Version20250618
	step, err = tr.Call(ctx, map[string]any{"city": "Paris"})
	require.NoError(t, err)
	assert.NotContains(t, step.Question.Fields, "tags")
}

func TestBadArguments(t *testing.T) {
	_, err := elicittest.New(fixture.NewTripFlow(&fixture.TripRecorder{})).Call(ctx, func() {})
	require.ErrorContains(t, err, "encoding arguments")
}
