package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// Most tests here wait on Redis servers, HTTP round trips and leases, not
// on the CPU: they call t.Parallel, and redistest.Main runs up to
// redistest.Parallel of them at once. Each starts its own servers,
// listeners and key ring.
func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }

// countingHandler wraps the example's handler and counts branch runs.
// hook, when set (before the instance serves the calls it concerns), runs
// in Accept after the count and before the booking: a branch that takes
// time.
type countingHandler struct {
	bookFlightArgsHandler
	accept, decline, cancel atomic.Int32
	hook                    func(ctx context.Context)
	byDate                  sync.Map // Accept's runs by departure date: string → *atomic.Int32
}

func (h *countingHandler) Accept(ctx context.Context, a *BookFlightArgs) (*runtime.Result, error) {
	h.accept.Add(1)
	n, _ := h.byDate.LoadOrStore(a.Date, new(atomic.Int32))
	n.(*atomic.Int32).Add(1)
	if h.hook != nil {
		h.hook(ctx)
	}
	return h.bookFlightArgsHandler.Accept(ctx, a)
}

func (h *countingHandler) Decline(ctx context.Context, a *BookFlightArgs, d []string) (*runtime.Result, error) {
	h.decline.Add(1)
	return h.bookFlightArgsHandler.Decline(ctx, a, d)
}

func (h *countingHandler) Cancel(ctx context.Context, a *BookFlightArgs) (*runtime.Result, error) {
	h.cancel.Add(1)
	return h.bookFlightArgsHandler.Cancel(ctx, a)
}

func (h *countingHandler) runs() int32 { return h.accept.Load() + h.decline.Load() + h.cancel.Load() }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// The handler's "booked" lines go to the default logger: not in tests.
func init() { slog.SetDefault(quiet) }

// instance starts one bookflight server over stateless HTTP and counts the
// requests it serves.
type instance struct {
	url   string
	h     *countingHandler
	hits  atomic.Int32
	redis redis.UniversalClient // the instance's own Redis client, when it has one
}

func startInstance(t *testing.T, keys *runtime.KeyRing) *instance {
	t.Helper()
	return startInstanceWith(t, runtime.Options{Keys: keys})
}

// startInstanceWith starts an instance on opts (keys, store, clock).
func startInstanceWith(t *testing.T, opts runtime.Options) *instance {
	t.Helper()
	in := &instance{h: &countingHandler{}}
	handler := mcpsdk.NewHTTPHandler(newServer(opts, nil, in.h, quiet), nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in.hits.Add(1)
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	in.url = srv.URL
	return in
}

// roundRobin is a plain load balancer: request i goes to backend i mod n.
func roundRobin(t *testing.T, backends ...string) string {
	t.Helper()
	var proxies []*httputil.ReverseProxy
	for _, b := range backends {
		u, err := url.Parse(b)
		require.NoError(t, err)
		proxies = append(proxies, httputil.NewSingleHostReverseProxy(u))
	}
	var n atomic.Uint64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxies[int(n.Add(1)-1)%len(proxies)].ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// connect opens a 2026-07-28 client session that drives the rounds itself.
// With elicit false the client declares no elicitation capability.
func connect(t *testing.T, endpoint string, elicit bool) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	if elicit {
		opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by the test")
		}
	} else {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

var route = map[string]any{"origin": "CDG", "destination": "JFK"}

func call(t *testing.T, cs *mcp.ClientSession, args map[string]any, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
	t.Helper()
	return cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "book_flight", Arguments: args, InputResponses: answers, RequestState: state,
	})
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.False(t, res.NeedsInput(), "expected a complete result")
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	return tc.Text
}

func answer(action string, content map[string]any) mcp.InputResponseMap {
	return mcp.InputResponseMap{"book_flight": &mcp.ElicitResult{Action: action, Content: content}}
}

func requireCode(t *testing.T, err error, code int64) {
	t.Helper()
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	require.Equal(t, code, je.Code, "error: %v", err)
}

func TestFirstCallAsksForMissingFields(t *testing.T) {
	t.Parallel()
	in := startInstance(t, runtime.EphemeralKeyRing())
	res, err := call(t, connect(t, in.url, true), route, nil, "")
	require.NoError(t, err)
	require.True(t, res.NeedsInput())
	require.NotEmpty(t, res.RequestState)
	require.Empty(t, res.Content)
	require.Len(t, res.InputRequests, 1)
	ep, ok := res.InputRequests["book_flight"].(*mcp.ElicitParams)
	require.True(t, ok, "input request is %T", res.InputRequests["book_flight"])
	schema, ok := ep.RequestedSchema.(map[string]any)
	require.True(t, ok)
	props := schema["properties"].(map[string]any)
	assert.Equal(t, []any{"date"}, schema["required"])

	date := props["date"].(map[string]any)
	assert.Equal(t, "string", date["type"])
	assert.Equal(t, "date", date["format"])
	assert.Equal(t, "Departure date", date["title"])

	window := props["window"].(map[string]any)
	assert.Equal(t, "string", window["type"])
	assert.Equal(t, []any{
		map[string]any{"const": "morning", "title": "Morning"},
		map[string]any{"const": "afternoon", "title": "Afternoon"},
		map[string]any{"const": "evening", "title": "Evening"},
	}, window["oneOf"])

	pass := props["passengers"].(map[string]any)
	assert.Equal(t, "integer", pass["type"])
	assert.EqualValues(t, 1, pass["minimum"])
	assert.EqualValues(t, 9, pass["maximum"])
	assert.EqualValues(t, 1, pass["default"])
	assert.Zero(t, in.h.runs(), "no branch runs before the user answers")
}

func TestAcceptDeclineCancel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		action  string
		content map[string]any
		want    string
		count   func(*countingHandler) int32
	}{
		{"accept", map[string]any{"date": "2026-12-24", "passengers": 2}, "Booked", func(h *countingHandler) int32 { return h.accept.Load() }},
		{"decline", nil, "nothing booked", func(h *countingHandler) int32 { return h.decline.Load() }},
		{"cancel", nil, "cancelled", func(h *countingHandler) int32 { return h.cancel.Load() }},
	}
	for _, tc := range cases {
		t.Run(tc.action, func(t *testing.T) {
			t.Parallel()
			in := startInstance(t, runtime.EphemeralKeyRing())
			cs := connect(t, in.url, true)
			first, err := call(t, cs, route, nil, "")
			require.NoError(t, err)
			require.True(t, first.NeedsInput())
			res, err := call(t, cs, route, answer(tc.action, tc.content), first.RequestState)
			require.NoError(t, err)
			got := text(t, res)
			assert.Contains(t, got, tc.want)
			assert.False(t, res.IsError)
			if tc.action == "accept" {
				assert.Contains(t, got, "2026-12-24")
				assert.Contains(t, got, "2 passenger")
			}
			assert.EqualValues(t, 1, tc.count(in.h))
			assert.EqualValues(t, 1, in.h.runs(), "exactly one branch runs")
		})
	}
}

func TestCompleteArgumentsBookAtOnce(t *testing.T) {
	t.Parallel()
	in := startInstance(t, runtime.EphemeralKeyRing())
	args := map[string]any{"origin": "CDG", "destination": "JFK", "date": "2026-12-24"}
	res, err := call(t, connect(t, in.url, true), args, nil, "")
	require.NoError(t, err)
	got := text(t, res)
	assert.Contains(t, got, "Booked 1 passenger", "the optional passengers field takes its default")
	assert.Contains(t, got, "2026-12-24")
	assert.EqualValues(t, 1, in.h.accept.Load())
}

func TestRetryOnAnotherInstanceBehindRoundRobin(t *testing.T) {
	t.Parallel()
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	a, b := startInstance(t, keys), startInstance(t, keys)
	lb := roundRobin(t, a.url, b.url)
	cs := connect(t, lb, true)
	aBefore, bBefore := a.hits.Load(), b.hits.Load()
	first, err := call(t, cs, route, nil, "")
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	firstOnA := a.hits.Load() > aBefore
	res, err := call(t, cs, route, answer("accept", map[string]any{"date": "2027-01-02"}), first.RequestState)
	require.NoError(t, err)
	assert.Contains(t, text(t, res), "Booked")
	// The retry landed on the other instance, which resumed the call.
	if firstOnA {
		assert.EqualValues(t, 1, b.h.accept.Load())
		assert.Greater(t, b.hits.Load(), bBefore)
	} else {
		assert.EqualValues(t, 1, a.h.accept.Load())
	}

	// An instance with a different key cannot open the state.
	other := startInstance(t, runtime.EphemeralKeyRing())
	_, err = call(t, connect(t, other.url, true), route, answer("accept", map[string]any{"date": "2027-01-02"}), first.RequestState)
	requireCode(t, err, -32602)
	assert.Zero(t, other.h.runs())
}

func TestTamperedStateIsRejected(t *testing.T) {
	t.Parallel()
	in := startInstance(t, runtime.EphemeralKeyRing())
	cs := connect(t, in.url, true)
	first, err := call(t, cs, route, nil, "")
	require.NoError(t, err)
	st := []byte(first.RequestState)
	for _, i := range []int{0, len(st) / 2, len(st) - 1} {
		bad := append([]byte(nil), st...)
		bad[i] = flip(bad[i])
		_, err := call(t, cs, route, answer("accept", map[string]any{"date": "2027-01-02"}), string(bad))
		requireCode(t, err, -32602)
	}
	assert.Zero(t, in.h.runs(), "no branch runs on a rejected state")
}

// flip changes a base64url character to another valid one.
func flip(c byte) byte {
	if c == 'A' {
		return 'B'
	}
	return 'A'
}

func TestClientWithoutElicitationGetsToolError(t *testing.T) {
	t.Parallel()
	in := startInstance(t, runtime.EphemeralKeyRing())
	res, err := call(t, connect(t, in.url, false), route, nil, "")
	require.NoError(t, err)
	require.False(t, res.NeedsInput(), "no form for a client that cannot show one")
	assert.True(t, res.IsError)
	got := text(t, res)
	assert.Contains(t, got, "date")
	assert.Contains(t, got, "Departure date")
	assert.Contains(t, got, "format date")
	assert.Zero(t, in.h.runs())
}

func TestLegacyClientThroughBridge(t *testing.T) {
	t.Parallel()
	h := &countingHandler{}
	server := newServer(runtime.Options{Keys: runtime.EphemeralKeyRing()}, nil, h, quiet)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	var asked *mcp.ElicitParams
	c := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = req.Params
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": "2026-12-31", "window": "evening"}}, nil
		},
	})
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	require.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "book_flight", Arguments: route})
	require.NoError(t, err)
	require.NotNil(t, asked, "the user was asked on the session")
	got := text(t, res)
	assert.Contains(t, got, "Booked")
	assert.Contains(t, got, "2026-12-31 (evening)")
	assert.EqualValues(t, 1, h.accept.Load())
}

// Not parallel: t.Setenv (run reads the key ring from the environment
// only) and run's slog.SetDefault change the process for every test.
func TestRunFlags(t *testing.T) {
	t.Cleanup(func() { slog.SetDefault(quiet) })
	assert.Equal(t, 2, run([]string{}), "neither -http nor -stdio")
	assert.Equal(t, 2, run([]string{"-http", "127.0.0.1:0", "-stdio"}), "both")
	t.Setenv(runtime.EnvStateKeys, "not-a-key")
	assert.Equal(t, 2, run([]string{"-http", "127.0.0.1:0"}), "bad key ring")
}
