package runtime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// A branch or a Choices method that panics ends its call in an error that
// says so, never the server; a branch that panicked counts as run, so a
// replay of its retry returns the same error and runs nothing again.
func TestPanicsEndTheCallNotTheServer(t *testing.T) {
	opts := &runtime.Options{Keys: runtime.EphemeralKeyRing()}
	ctx := context.Background()
	runs := 0
	f := fixture.NewTripFlow(&fixture.TripRecorder{})
	f.Dispatch = func(context.Context, runtime.Args, runtime.Outcome) (*runtime.Result, error) {
		runs++
		panic("boom")
	}
	first, err := f.Call(ctx, opts, req(`{"city":"Paris"}`, "", nil))
	require.NoError(t, err)
	for range 2 {
		_, err = f.Call(ctx, opts, req(`{"city":"Paris"}`, first.RequestState, accept("plan_trip", goodAnswer)))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "plan_trip's accept branch panicked: boom")
	}
	assert.Equal(t, 1, runs, "the replay ran nothing")

	ship := fixture.NewShipFlow(&fixture.ShipRecorder{})
	ship.Choices["speed"] = func(context.Context, runtime.Args) ([]runtime.Choice, error) { panic("no speeds") }
	_, err = ship.Call(ctx, opts, req(`{"parcel":"P1"}`, "", nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ship's speed choices panicked: no speeds")
}
