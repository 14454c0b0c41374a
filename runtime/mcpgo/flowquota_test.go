package mcpgo_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mgserver "github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
)

// forgedFrom is a transport whose connections come from ip (a loopback
// address) and whose requests claim, in the header the adapter uses to
// carry the client's address, to come from elsewhere.
func forgedFrom(t *testing.T, ip string) *http.Client {
	tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Mcpgen-Client-Address", "203.0.113.9")
		return tr.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// mcpgo.NewHTTPHandler hands the client's address to the engine, which counts
// an anonymous client's flows by it (Options.MaxFlowsPerPrincipal): the
// client at 127.0.0.2 is refused its second flow whatever address its
// header claims, and the client at 127.0.0.3 is served.
func TestMCPGoCountsAnonymousFlowsByAddress(t *testing.T) {
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithToolCapabilities(false), mgserver.WithElicitation())
	mcpgo.AddTool(s, fixture.NewTripFlow(&fixture.TripRecorder{}), &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(),
		Store: runtime.NewMemoryStore(), MaxFlowsPerPrincipal: 1}})
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)

	complete := func(ip string) error {
		c := mcp.NewClient(&mcp.Implementation{Name: "go-sdk", Version: "1"}, &mcp.ClientOptions{
			MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return nil, errors.New("rounds are driven by the test")
			},
		})
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: forgedFrom(t, ip)}, nil)
		require.NoError(t, err)
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}}
		first, err := cs.CallTool(context.Background(), params)
		require.NoError(t, err)
		require.True(t, first.NeedsInput())
		params.InputResponses = mcp.InputResponseMap{"plan_trip": &mcp.ElicitResult{Action: "accept", Content: good}}
		params.RequestState = first.RequestState
		res, err := cs.CallTool(context.Background(), params)
		if err == nil {
			require.False(t, res.NeedsInput() || res.IsError, sdkText(res))
		}
		return err
	}
	require.NoError(t, complete("127.0.0.2"))
	err := complete("127.0.0.2")
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Contains(t, je.Message, "the anonymous client at 127.0.0.2 already has 1 call completed")
	assert.Contains(t, je.Message, "Options.MaxFlowsPerPrincipal")
	require.NoError(t, complete("127.0.0.3"))
}
