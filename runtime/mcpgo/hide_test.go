package mcpgo_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

	mgclient "github.com/mark3labs/mcp-go/client"
	mgtransport "github.com/mark3labs/mcp-go/client/transport"
	mg "github.com/mark3labs/mcp-go/mcp"
	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

func mgToolNames(t *testing.T, c *mgclient.Client) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mg.ListToolsRequest{})
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// HideUnaskable leaves plan_trip out of tools/list for a client that
// declared no form elicitation, in either era; a call of it by name still
// gets the fallback.
func TestMCPGoHideUnaskable(t *testing.T) {
	rec := &fixture.TripRecorder{}
	hooks := &mgserver.Hooks{}
	mcpgo.HideUnaskable(hooks, "plan_trip")
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithElicitation(), mgserver.WithHooks(hooks))
	opts := &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpgo.AddTool(s, fixture.NewTripFlow(rec), opts)
	mcpgo.AddTool(s, fixture.NewPicksFlow(&fixture.PicksRecorder{}), opts)
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)

	// 2026-07-28: the request's capabilities.
	assert.Equal(t, []string{"pick_seats", "plan_trip"}, mgToolNames(t, mcpgoClient(t, srv.URL, &answerer{}, nil)))
	tr, err := mgtransport.NewStreamableHTTP(srv.URL)
	require.NoError(t, err)
	bare := mgclient.NewClient(tr) // no elicitation handler: no elicitation capability
	require.NoError(t, bare.Start(context.Background()))
	t.Cleanup(func() { bare.Close() })
	_, err = bare.Initialize(context.Background(), mg.InitializeRequest{})
	require.NoError(t, err)
	assert.Equal(t, []string{"pick_seats"}, mgToolNames(t, bare))
	res, err := callPlanTrip(bare)
	require.NoError(t, err, "a hidden tool can still be called")
	assert.True(t, res.IsError)
	assert.Contains(t, mgText(res), "plan_trip needs input from the user, but this client declared no form elicitation")
	assert.Zero(t, rec.Count())

	// 2025-11-25 on a session: what it declared at initialize.
	for _, forms := range []bool{true, false} {
		copts := []mgclient.ClientOption{mgclient.WithProtocolVersion(protocol.Version20251125)}
		if forms {
			copts = append(copts, mgclient.WithElicitationHandler(&answerer{}))
		}
		c, err := mgclient.NewInProcessClientWithOptions(s, copts...)
		require.NoError(t, err)
		require.NoError(t, c.Start(context.Background()))
		t.Cleanup(func() { c.Close() })
		init := mg.InitializeRequest{}
		init.Params.ProtocolVersion = protocol.Version20251125
		if forms {
			init.Params.Capabilities.Elicitation = &mg.ElicitationCapability{}
		}
		_, err = c.Initialize(context.Background(), init)
		require.NoError(t, err)
		want := []string{"pick_seats"}
		if forms {
			want = append(want, "plan_trip")
		}
		assert.Equal(t, want, mgToolNames(t, c), "forms declared: %v", forms)
	}
}
