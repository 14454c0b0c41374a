package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// A request's arguments are decoded into values once on the way to the
// branch, by the generated decodeArguments: not for the digest the state
// binds (read in place), not for the input schema's rules (generated), not
// for run-time choices given up front (read from the struct). Every place
// the runtime could decode them reports to the hook.
func TestArgumentsDecodedOnce(t *testing.T) {
	var sites []string
	defer engine.SetDecodedHook(func(site string) { sites = append(sites, site) })()
	opts := &engine.Options{Keys: engine.EphemeralKeyRing()}
	ctx := context.Background()
	call := func(f *engine.Flow, r *protocol.Request) *engine.Response {
		t.Helper()
		sites = nil
		resp, err := f.Call(ctx, opts, r)
		require.NoError(t, err)
		assert.Equal(t, []string{"decodeArguments"}, sites, "decodings of %s", r.Arguments)
		return resp
	}

	trip := fixture.NewTripFlow(&fixture.TripRecorder{})
	full := `{"city":"Paris","budget":900,"name":"Ada","email":"ada@example.com","nights":2}`
	assert.NotNil(t, call(trip, req(full, "", nil)).Result, "every argument given: Accept")
	first := call(trip, req(`{"city":"Paris","budget":900}`, "", nil))
	require.NotEmpty(t, first.RequestState)
	done := call(trip, req(`{"city":"Paris","budget":900}`, first.RequestState, accept("plan_trip", goodAnswer)))
	assert.NotNil(t, done.Result)

	ship := &fixture.ShipRecorder{Price: 3, Stock: 1, Speeds: []engine.Choice{{Value: "slow"}, {Value: "fast"}}}
	resp := call(fixture.NewShipFlow(ship), req(`{"parcel":"P1","speed":"fast"}`, "", nil))
	require.Nil(t, resp.Result, "the speed given up front is among the options; Accept asks its question")
	resp = call(fixture.NewShipFlow(ship), req(`{"parcel":"P1","speed":"teleport"}`, "", nil))
	require.NotNil(t, resp.Result)
	assert.Contains(t, resp.Result.Text, "speed: must be one of: slow, fast")
}
