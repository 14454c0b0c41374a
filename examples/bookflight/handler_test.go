package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/elicittest"
)

// These tests drive the generated flow against this package's handler
// in-process with runtime/elicittest: no server, no client.

func TestHandlerDeclineBooksNothing(t *testing.T) {
	t.Parallel()
	tr := elicittest.New(NewBookFlightArgsFlow(bookFlightArgsHandler{}))
	step, err := tr.Call(t.Context(), map[string]any{"origin": "CDG", "destination": "JFK"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "a date is missing, so the user is asked")
	assert.Equal(t, []string{"date", "window", "passengers"}, step.Question.Fields)
	assert.Equal(t, []string{"date"}, step.Question.Required)

	step, err = step.Decline(t.Context())
	require.NoError(t, err)
	require.True(t, step.Done(), "a decline ends the call")
	assert.False(t, step.Result.IsError, "declining is not an error")
	assert.Equal(t, "The user declined to give date, window, passengers: nothing booked.", step.Result.Text)
}

func TestHandlerAcceptAfterAWrongDate(t *testing.T) {
	t.Parallel()
	tr := elicittest.New(NewBookFlightArgsFlow(bookFlightArgsHandler{}))
	step, err := tr.Call(t.Context(), map[string]any{"origin": "CDG", "destination": "JFK", "passengers": 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"date", "window"}, step.Question.Fields, "passengers was given")

	step, err = step.Accept(t.Context(), map[string]any{"date": "24/12/2026", "window": "evening"})
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, []string{"date"}, step.Question.Fields, "only the wrong field is asked again")
	assert.Contains(t, step.Question.Message, "date: must be a date")

	step, err = step.Accept(t.Context(), map[string]any{"date": "2026-12-24"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Booked 2 passengers from CDG to JFK on 2026-12-24 (evening).", step.Result.Text)
}
