package mcpsdk_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
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
func TestHideUnaskable(t *testing.T) {
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	rec := &fixture.TripRecorder{}
	s := server(opts, rec, &fixture.PicksRecorder{})
	mcpsdk.HideUnaskable(s, "plan_trip")
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)

	// 2026-07-28: the request's capabilities.
	assert.Equal(t, []string{"pick_seats", "plan_trip"}, toolNames(t, connect(t, srv.URL, true, nil)))
	bare := connect(t, srv.URL, false, nil)
	assert.Equal(t, []string{"pick_seats"}, toolNames(t, bare))
	res, err := callTrip(bare, map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "plan_trip needs input from the user, but this client declared no form elicitation")
	assert.Zero(t, rec.Count())

	// 2025-11-25 on a session: what it declared at initialize.
	withForms, _ := legacy(t, "2025-11-25", s, func(int, *mcp.ElicitParams) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "cancel"} })
	assert.Equal(t, []string{"pick_seats", "plan_trip"}, toolNames(t, withForms))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil).
		Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	assert.Equal(t, []string{"pick_seats"}, toolNames(t, cs))
}
