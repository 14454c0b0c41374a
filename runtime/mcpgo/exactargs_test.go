package mcpgo_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
)

// Through mcp-go, as through go-sdk, a key that differs from a field's JSON
// name only in case fills no field: "Budget" does not pass budget's
// maximum, and "Speed" does not give ship a speed outside its run-time
// options (it stays missing and is asked for).
func TestCaseVariantKeysFillNoFieldMCPGo(t *testing.T) {
	trip, ship := &fixture.TripRecorder{}, &fixture.ShipRecorder{Price: 7, Stock: 3}
	ship.Speeds = []runtime.Choice{{Value: "slow"}, {Value: "fast"}}
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithToolCapabilities(false), mgserver.WithElicitation())
	opts := &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpgo.AddTool(s, fixture.NewTripFlow(trip), opts)
	mcpgo.AddTool(s, fixture.NewShipFlow(ship), opts)
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)

	c := mcp.NewClient(&mcp.Implementation{Name: "go-sdk", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	ctx := context.Background()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })

	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		return res
	}
	trip1 := func(key string) map[string]any {
		return map[string]any{"city": "Paris", "name": "Ada", "email": "ada@example.com", "nights": 2, key: 999999}
	}
	res := call("plan_trip", trip1("budget"))
	assert.True(t, res.IsError, "the exact name is held to the maximum: %s", sdkText(res))
	for _, key := range []string{"Budget", "BUDGET", "budgeT"} {
		res := call("plan_trip", trip1(key))
		require.False(t, res.IsError, "%s: %s", key, sdkText(res))
	}
	require.Equal(t, 3, trip.Count())
	for _, run := range trip.Runs() {
		assert.NotContains(t, string(run.Args), "999999")
	}

	for _, key := range []string{"Speed", "SPEED", "\u017fpeed"} {
		res := call("ship", map[string]any{"parcel": "P1", key: "teleport"})
		require.True(t, res.NeedsInput(), "%s: %s", key, sdkText(res))
		ep, ok := res.InputRequests["ship"].(*mcp.ElicitParams)
		require.True(t, ok, "%s: asked %v", key, res.InputRequests)
		b, err := json.Marshal(ep.RequestedSchema)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"speed"`, "%s: speed is still missing", key)
	}
	assert.Zero(t, ship.Count())
}
