package mcpsdk_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// bodies is an http.RoundTripper that keeps every response body the
// client reads, as the server wrote it.
type bodies struct {
	mu  sync.Mutex
	all [][]byte
}

func (b *bodies) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.all = append(b.all, body)
	b.mu.Unlock()
	res.Body = io.NopCloser(bytes.NewReader(body))
	return res, nil
}

// with reports whether a body the client read holds s.
func (b *bodies) with(s string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, body := range b.all {
		if bytes.Contains(body, []byte(s)) {
			return true
		}
	}
	return false
}

// fixtureFlows is the generated Flows of the fixture package, with its
// recorders as handlers.
func fixtureFlows(trip *fixture.TripRecorder) []*runtime.Flow {
	return fixture.Flows(fixture.Handlers{Trip: trip, Picks: &fixture.PicksRecorder{}, Quote: &fixture.QuoteRecorder{}, Ship: &fixture.ShipRecorder{}})
}

// AddTools registers every flow of the generated Flows; a call of one runs
// its rounds as AddTool's do.
func TestAddTools(t *testing.T) {
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	trip := &fixture.TripRecorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, nil)
	mcpsdk.AddTools(s, fixtureFlows(trip), opts)
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	cs := connect(t, srv.URL, true, nil)
	assert.Equal(t, []string{"order_pizza", "pick_seats", "plan_trip", "quote", "ship"}, toolNames(t, cs))
	res, err := callTrip(cs, map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	key, _, err := onlyKey(res)
	require.NoError(t, err)
	res, err = callTrip(cs, map[string]any{"city": "Paris"}, accept(key, map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "veg"}), res.RequestState)
	require.NoError(t, err)
	assert.False(t, res.IsError, text(res))
	assert.Equal(t, 1, trip.Count())
}

// AddTools refuses, before registering any, a list a server could not
// serve as given: no key ring, a nil flow, two flows of one name.
func TestAddToolsRefuses(t *testing.T) {
	keys := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	trip := fixture.NewTripFlow(&fixture.TripRecorder{})
	for name, tc := range map[string]struct {
		flows []*runtime.Flow
		opts  *mcpsdk.Options
		want  string
	}{
		"no keys":   {[]*runtime.Flow{trip}, &mcpsdk.Options{}, `mcpsdk.AddTools "plan_trip": Options.Flow.Keys is required`},
		"nil flow":  {[]*runtime.Flow{trip, nil}, keys, "mcpsdk.AddTools: flows[1] is nil"},
		"same name": {[]*runtime.Flow{trip, fixture.NewPicksFlow(&fixture.PicksRecorder{}), fixture.NewTripFlow(&fixture.TripRecorder{})}, keys, `mcpsdk.AddTools: flows[0] and flows[2] are both the tool "plan_trip"; a server keeps one tool per name`},
	} {
		t.Run(name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, nil)
			assert.PanicsWithValue(t, tc.want, func() { mcpsdk.AddTools(s, tc.flows, tc.opts) })
		})
	}
	assert.PanicsWithValue(t, `mcpsdk.Tool "plan_trip": Options.Flow.Keys is required`, func() { mcpsdk.Tool(trip, &mcpsdk.Options{}) })
}

// Tool's tool and handler, registered through a server's own path (a
// read-only gate that leaves out every tool but one) and served by go-sdk's
// own Streamable HTTP handler: without Install a call is a JSON-RPC error
// that names it and runs nothing; with it, the rounds run, and the
// input-required result carries no "content": null, as with AddTool.
func TestToolOnAServersOwnPath(t *testing.T) {
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	trip := &fixture.TripRecorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "own", Version: "1"}, nil)
	var gated []string
	for _, flow := range fixtureFlows(trip) {
		if flow.Name() != "plan_trip" {
			gated = append(gated, flow.Name())
			continue // the server's read-only gate
		}
		tool, handler := mcpsdk.Tool(flow, opts)
		tool.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return handler(ctx, req) // the server's own middleware would be here
		})
	}
	assert.Len(t, gated, 4)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	seen := &bodies{}
	cs := connect(t, srv.URL, true, &http.Client{Transport: seen})
	assert.Equal(t, []string{"plan_trip"}, toolNames(t, cs))

	_, err := callTrip(cs, map[string]any{"city": "Paris"}, nil, "")
	je := requireCode(t, err, -32603)
	assert.Contains(t, je.Message, `the tool "plan_trip" comes from mcpsdk.Tool, and its server lacks mcpgen's middleware: call mcpsdk.Install(s) once`)
	assert.Zero(t, trip.Count())

	mcpsdk.Install(s)
	mcpsdk.Install(s) // once is enough; again does nothing
	res, err := callTrip(cs, map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	key, _, err := onlyKey(res)
	require.NoError(t, err)
	assert.True(t, seen.with(`"inputRequests"`), "no input-required result was read")
	assert.False(t, seen.with(`"content":null`), "an input-required result carries content: null")
	res, err = callTrip(cs, map[string]any{"city": "Paris"}, accept(key, map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "veg"}), res.RequestState)
	require.NoError(t, err)
	assert.False(t, res.IsError, text(res))
	assert.Equal(t, 1, trip.Count())
}

// A server whose tools come from Tool and that is served by this package's
// endpoint, or over stdio by ServeStdio, needs no Install: those install
// it. Here NewHTTPHandler, and a 2025-11-25 session client's rounds on its
// call.
func TestToolServedByHTTPHandlerNeedsNoInstall(t *testing.T) {
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	trip := &fixture.TripRecorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "own", Version: "1"}, nil)
	s.AddTool(mcpsdk.Tool(fixture.NewTripFlow(trip), opts))
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	res, err := callTrip(connect(t, srv.URL, true, nil), map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	_, _, err = onlyKey(res)
	require.NoError(t, err)

	good := map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "veg"}
	cs, asked := legacy(t, "2025-11-25", s, func(int, *mcp.ElicitParams) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: good}
	})
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	assert.False(t, res.IsError, text(res))
	assert.Len(t, *asked, 1)
	assert.Equal(t, 1, trip.Count())
}
