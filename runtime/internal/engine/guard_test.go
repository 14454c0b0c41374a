package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// panicTrip runs the plan_trip tool with branches that count their runs and
// panic (its FormOptions are the recorder's).
type panicTrip struct {
	*fixture.TripRecorder
	runs *int
}

func (h panicTrip) Accept(context.Context, *fixture.Trip) (*engine.Result, error) {
	*h.runs++
	panic("boom")
}

func (h panicTrip) Decline(context.Context, *fixture.Trip, []string) (*engine.Result, error) {
	*h.runs++
	panic("boom")
}

func (h panicTrip) Cancel(context.Context, *fixture.Trip) (*engine.Result, error) {
	*h.runs++
	panic("boom")
}

// panicShip runs the ship tool with a SpeedChoices method that panics.
type panicShip struct{ *fixture.ShipRecorder }

func (panicShip) SpeedChoices(context.Context, *fixture.Ship) ([]engine.Choice, error) {
	panic("no speeds")
}

// A branch or a Choices method that panics ends its call in an error that
// says so, never the server; a branch that panicked counts as run, so a
// replay of its retry returns the same error and runs nothing again.
func TestPanicsEndTheCallNotTheServer(t *testing.T) {
	opts := &engine.Options{Keys: engine.EphemeralKeyRing()}
	ctx := context.Background()
	runs := 0
	f := fixture.NewTripFlow(panicTrip{&fixture.TripRecorder{}, &runs})
	first, err := f.Call(ctx, opts, req(`{"city":"Paris"}`, "", nil))
	require.NoError(t, err)
	for range 2 {
		_, err = f.Call(ctx, opts, req(`{"city":"Paris"}`, first.RequestState, accept("plan_trip", goodAnswer)))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "plan_trip's accept branch panicked: boom")
	}
	assert.Equal(t, 1, runs, "the replay ran nothing")

	ship := fixture.NewShipFlow(panicShip{&fixture.ShipRecorder{}})
	_, err = ship.Call(ctx, opts, req(`{"parcel":"P1"}`, "", nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ship's speed choices panicked: no speeds")
}

// A Flow is opaque: only a generated New<T>Flow makes one. The zero Flow,
// which none made, refuses to run and has no input schema.
func TestFlowIsOpaque(t *testing.T) {
	ft := reflect.TypeFor[engine.Flow]()
	for i := range ft.NumField() {
		assert.False(t, ft.Field(i).IsExported(), "engine.Flow.%s is exported", ft.Field(i).Name)
	}
	var zero engine.Flow
	assert.Empty(t, zero.Name())
	_, err := zero.Call(context.Background(), &engine.Options{Keys: engine.EphemeralKeyRing()}, req(`{}`, "", nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not made by a generated New<T>Flow")
	assert.Panics(t, func() { zero.InputSchema() })

	f := fixture.NewTripFlow(&fixture.TripRecorder{})
	assert.Equal(t, "plan_trip", f.Name())
	assert.Equal(t, "Plan a trip to a city.", f.Description())
}
