package mcpgo_test

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	mg "github.com/mark3labs/mcp-go/mcp"
	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
)

// AddTools registers every flow of the generated Flows, and a call of one
// runs its rounds with an mcp-go client.
func TestMCPGoAddTools(t *testing.T) {
	rec := &fixture.TripRecorder{}
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithElicitation())
	opts := &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpgo.AddTools(s, fixture.Flows(fixture.Handlers{Trip: rec, Picks: &fixture.PicksRecorder{}, Quote: &fixture.QuoteRecorder{}, Ship: &fixture.ShipRecorder{}}), opts)
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	c := mcpgoClient(t, srv.URL, &answerer{content: []map[string]any{good}}, nil)
	assert.Equal(t, []string{"order_pizza", "pick_seats", "plan_trip", "quote", "ship"}, mgToolNames(t, c))
	res, err := callPlanTrip(c)
	require.NoError(t, err)
	assert.False(t, res.IsError, mgText(res))
	assert.Equal(t, 1, rec.Count())

	trip := fixture.NewTripFlow(rec)
	assert.PanicsWithValue(t, `mcpgo.AddTools: flows[0] and flows[1] are both the tool "plan_trip"; a server keeps one tool per name`,
		func() { mcpgo.AddTools(s, []*runtime.Flow{trip, trip}, opts) })
	assert.PanicsWithValue(t, "mcpgo.AddTools: flows[0] is nil", func() { mcpgo.AddTools(s, []*runtime.Flow{nil}, opts) })
	assert.PanicsWithValue(t, `mcpgo.Tool "plan_trip": Options.Flow.Keys is required`, func() { mcpgo.Tool(trip, &mcpgo.Options{}) })
}

// Tool's value, registered through a server's own path (a read-only gate
// and a middleware of its own around the handler), serves the tool as
// AddTool does.
func TestMCPGoToolOnAServersOwnPath(t *testing.T) {
	rec := &fixture.TripRecorder{}
	s := mgserver.NewMCPServer("own", "1", mgserver.WithElicitation())
	opts := &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	var calls atomic.Int32
	for _, flow := range fixture.Flows(fixture.Handlers{Trip: rec, Picks: &fixture.PicksRecorder{}, Quote: &fixture.QuoteRecorder{}, Ship: &fixture.ShipRecorder{}}) {
		if flow.Name() != "plan_trip" {
			continue // the server's read-only gate
		}
		st := mcpgo.Tool(flow, opts)
		st.Tool.Annotations.ReadOnlyHint = mg.ToBoolPtr(true)
		next := st.Handler
		st.Handler = func(ctx context.Context, req mg.CallToolRequest) (*mg.CallToolResult, error) {
			calls.Add(1) // the server's own middleware
			return next(ctx, req)
		}
		s.AddTools(st)
	}
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	c := mcpgoClient(t, srv.URL, &answerer{content: []map[string]any{good}}, nil)
	assert.Equal(t, []string{"plan_trip"}, mgToolNames(t, c))
	res, err := callPlanTrip(c)
	require.NoError(t, err)
	assert.False(t, res.IsError, mgText(res))
	assert.Equal(t, 1, rec.Count())
	assert.Positive(t, calls.Load())
}
