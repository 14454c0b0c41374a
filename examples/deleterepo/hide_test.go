package deleterepo

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// With mcpsdk.HideUnaskable, a 2026-07-28 client that declared no form
// elicitation is not offered the two tools; one that did sees them. A call
// by name still gets the fallback.
func TestHiddenFromClientsWithoutForms(t *testing.T) {
	b := NewBackend("octo/hello", "svc-42")
	s := mcp.NewServer(&mcp.Implementation{Name: "deleterepo", Version: "1"}, nil)
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpsdk.AddTool(s, NewDeleteRepositoryArgsFlow(deleteRepositoryArgsHandler{b}), opts)
	mcpsdk.AddTool(s, NewDeleteServiceArgsFlow(deleteServiceArgsHandler{b}), opts)
	mcpsdk.HideUnaskable(s, "delete_repository", "service_delete")
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)

	names := func(caps *mcp.ClientCapabilities) ([]string, *mcp.ClientSession) {
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{Capabilities: caps})
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		return listed(t, cs), cs
	}
	got, _ := names(&mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}})
	assert.Equal(t, []string{"delete_repository", "service_delete"}, got)
	got, bare := names(&mcp.ClientCapabilities{})
	assert.Empty(t, got)

	res, err := bare.CallTool(context.Background(), &mcp.CallToolParams{Name: "delete_repository", Arguments: map[string]any{"owner": "octo", "repo": "hello"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "https://github.com/octo/hello/settings")
	assert.Empty(t, b.Deleted())

	// A 2025-11-25 session that declared no elicitation at initialize: the
	// same, from what it declared then.
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	old, err := mcp.NewClient(&mcp.Implementation{Name: "old", Version: "1"}, nil).
		Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { old.Close() })
	list, err := old.ListTools(t.Context(), nil)
	require.NoError(t, err)
	assert.Empty(t, list.Tools)
	res, err = old.CallTool(t.Context(), &mcp.CallToolParams{Name: "service_delete", Arguments: map[string]any{"service_id": "svc-42"}})
	require.NoError(t, err)
	assert.Equal(t, "service_delete: svc-42 was not deleted: this client cannot ask the user to confirm. "+
		"Ask the user to run `tiger service delete svc-42` in a terminal.", res.Content[0].(*mcp.TextContent).Text)
	assert.Empty(t, b.Deleted())
}
