package deleterepo

import (
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// auditLog records the tool names the server's middleware saw.
type auditLog struct {
	mu    sync.Mutex
	calls []string
}

func (a *auditLog) record(tool string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, tool)
}

func (a *auditLog) all() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.calls)
}

// serveInventory serves the inventory, registered with Register, over
// Streamable HTTP, and connects a 2026-07-28 client that answers forms.
func serveInventory(t *testing.T, b *Backend, readOnly bool, audit *auditLog) *mcp.ClientSession {
	t.Helper()
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	s := mcp.NewServer(&mcp.Implementation{Name: "inventory", Version: "1"}, nil)
	Register(s, Inventory(b, opts), readOnly, audit.record)
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		Capabilities:   &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
	})
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func listed(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var out []string
	for _, tool := range res.Tools {
		out = append(out, tool.Name)
	}
	slices.Sort(out)
	return out
}

// In read-only mode the server's gate registers only list_repositories:
// mcpgen's destructive tools are neither listed nor callable. Otherwise
// delete_repository runs its rounds (the typed name) through the server's
// own middleware, which saw every call.
func TestInventoryReadOnlyGate(t *testing.T) {
	b := NewBackend("octo/hello", "octo/world")
	audit := &auditLog{}
	ro := serveInventory(t, b, true, audit)
	assert.Equal(t, []string{"list_repositories"}, listed(t, ro))
	_, err := ro.CallTool(t.Context(), &mcp.CallToolParams{Name: "delete_repository", Arguments: map[string]any{"owner": "octo", "repo": "hello"}})
	require.Error(t, err, "a tool the gate left out is unknown")
	assert.Empty(t, b.Deleted())

	rw := serveInventory(t, b, false, audit)
	assert.Equal(t, []string{"delete_repository", "list_repositories", "service_delete"}, listed(t, rw))
	args := map[string]any{"owner": "octo", "repo": "hello"}
	res, err := rw.CallTool(t.Context(), &mcp.CallToolParams{Name: "delete_repository", Arguments: args})
	require.NoError(t, err)
	require.True(t, res.NeedsInput(), "the first round asks the typed name")
	var key string
	for k := range res.InputRequests {
		key = k
	}
	res, err = rw.CallTool(t.Context(), &mcp.CallToolParams{Name: "delete_repository", Arguments: args, RequestState: res.RequestState,
		InputResponses: mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": "octo/hello"}}}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.Equal(t, []string{"octo/hello"}, b.Deleted())
	res, err = rw.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_repositories"})
	require.NoError(t, err)
	assert.Equal(t, "octo/world", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, []string{"delete_repository", "delete_repository", "list_repositories"}, audit.all())
}
