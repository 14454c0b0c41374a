package mcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	mgclient "github.com/mark3labs/mcp-go/client"
	mgtransport "github.com/mark3labs/mcp-go/client/transport"
	mg "github.com/mark3labs/mcp-go/mcp"
	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

var good = map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "fish"}

// rejections counts what a server's rejection hook received.
type rejections struct {
	mu      sync.Mutex
	reasons []string
}

func (r *rejections) hook(_ context.Context, rj runtime.Rejection) {
	r.mu.Lock()
	r.reasons = append(r.reasons, rj.Reason)
	r.mu.Unlock()
}

func (r *rejections) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reasons)
}

// mcpgoServer serves plan_trip with mcp-go over stateless Streamable HTTP.
func mcpgoServer(t *testing.T, rec *fixture.TripRecorder, rj *rejections) string {
	t.Helper()
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithToolCapabilities(false), mgserver.WithElicitation())
	mcpgo.AddTool(s, fixture.NewTripFlow(rec), &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(), OnReject: rj.hook}})
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// sdkServer serves plan_trip with go-sdk over stateless Streamable HTTP.
func sdkServer(t *testing.T, rec *fixture.TripRecorder, rj *rejections) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, nil)
	mcpsdk.AddTool(s, fixture.NewTripFlow(rec), &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(), OnReject: rj.hook}})
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

func sdkText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestGoSDKClientToMCPGoServer(t *testing.T) {
	rec, rj := &fixture.TripRecorder{}, &rejections{}
	url := mcpgoServer(t, rec, rj)
	c := mcp.NewClient(&mcp.Implementation{Name: "go-sdk", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by the test")
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })

	params := &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}}
	first, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	ep, ok := first.InputRequests["plan_trip"].(*mcp.ElicitParams)
	require.True(t, ok, "input requests: %v", first.InputRequests)
	assert.Equal(t, "Tell us about your trip.", ep.Message)
	b, err := json.Marshal(ep.RequestedSchema)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"required":["name","email","nights"]`)

	// A tampered state: a JSON-RPC error (mcp-go reports it as -32603 carrying the flow's -32602), no branch.
	st := first.RequestState
	for _, bad := range []string{st + "A", st[:len(st)/2], strings.Replace(st, st[10:11], flipChar(st[10]), 1)} {
		params.InputResponses = mcp.InputResponseMap{"plan_trip": &mcp.ElicitResult{Action: "accept", Content: good}}
		params.RequestState = bad
		_, err = cs.CallTool(context.Background(), params)
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je)
		assert.Contains(t, je.Message, "invalid requestState")
		assert.Contains(t, je.Message, "-32602")
	}
	assert.Zero(t, rec.Count())
	assert.Equal(t, 3, rj.count())

	// The real answer, in two rounds.
	params.InputResponses = mcp.InputResponseMap{"plan_trip": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "nights": 2}}}
	params.RequestState = st
	second, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.True(t, second.NeedsInput())
	require.Contains(t, second.InputRequests, "plan_trip_2")
	params.InputResponses = mcp.InputResponseMap{"plan_trip_2": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"email": "ada@example.com"}}}
	params.RequestState = second.RequestState
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.NeedsInput())
	assert.False(t, res.IsError)
	assert.Contains(t, sdkText(res), `"name":"Ada","email":"ada@example.com","nights":2`)
	assert.Equal(t, 1, rec.Count())
}

func flipChar(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

// answerer is an mcp-go elicitation handler that accepts with content and
// records what it was asked.
type answerer struct {
	mu      sync.Mutex
	content []map[string]any // one per round
	asked   []mg.ElicitationParams
}

func (a *answerer) Elicit(_ context.Context, req mg.ElicitationRequest) (*mg.ElicitationResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req.Params)
	n := min(len(a.asked), len(a.content)) - 1
	return &mg.ElicitationResult{ElicitationResponse: mg.ElicitationResponse{Action: mg.ElicitationResponseActionAccept, Content: a.content[n]}}, nil
}

// tamperer is an attacker between the mcp-go client and the server: it
// rewrites the requestState of every retry.
type tamperer struct{ hits int }

func (tp *tamperer) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		var msg map[string]any
		if json.Unmarshal(body, &msg) == nil {
			if params, ok := msg["params"].(map[string]any); ok {
				if st, ok := params["requestState"].(string); ok && st != "" {
					params["requestState"] = st[:len(st)-2] + flipChar(st[len(st)-2]) + st[len(st)-1:]
					tp.hits++
					body, _ = json.Marshal(msg)
				}
			}
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	return http.DefaultTransport.RoundTrip(r)
}

func mcpgoClient(t *testing.T, url string, a *answerer, hc *http.Client) *mgclient.Client {
	t.Helper()
	var topts []mgtransport.StreamableHTTPCOption
	if hc != nil {
		topts = append(topts, mgtransport.WithHTTPBasicClient(hc))
	}
	tr, err := mgtransport.NewStreamableHTTP(url, topts...)
	require.NoError(t, err)
	c := mgclient.NewClient(tr, mgclient.WithElicitationHandler(a))
	require.NoError(t, c.Start(context.Background()))
	t.Cleanup(func() { c.Close() })
	init := mg.InitializeRequest{}
	init.Params.ClientInfo = mg.Implementation{Name: "mcp-go", Version: "1"}
	res, err := c.Initialize(context.Background(), init)
	require.NoError(t, err)
	require.Equal(t, protocol.VersionMRTR, res.ProtocolVersion)
	return c
}

func mgText(res *mg.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mg.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func callPlanTrip(c *mgclient.Client) (*mg.CallToolResult, error) {
	var req mg.CallToolRequest
	req.Params.Name = "plan_trip"
	req.Params.Arguments = map[string]any{"city": "Paris"}
	return c.CallTool(context.Background(), req)
}

func TestMCPGoClientToGoSDKServer(t *testing.T) {
	rec, rj := &fixture.TripRecorder{}, &rejections{}
	url := sdkServer(t, rec, rj)

	// Two rounds: the first answer lacks the email.
	a := &answerer{content: []map[string]any{{"name": "Ada", "nights": 2}, {"email": "ada@example.com"}}}
	res, err := callPlanTrip(mcpgoClient(t, url, a, nil))
	require.NoError(t, err)
	require.False(t, res.NeedsInput())
	assert.False(t, res.IsError, mgText(res))
	assert.Contains(t, mgText(res), `"name":"Ada","email":"ada@example.com","nights":2`)
	require.Len(t, a.asked, 2)
	assert.Contains(t, a.asked[1].Message, "email: is required")
	assert.Equal(t, 1, rec.Count())

	// An attacker rewrites the state on the retry: -32602, no branch.
	tp := &tamperer{}
	_, err = callPlanTrip(mcpgoClient(t, url, &answerer{content: []map[string]any{good}}, &http.Client{Transport: tp}))
	require.Error(t, err)
	assert.ErrorIs(t, err, mg.ErrInvalidParams)
	assert.Contains(t, err.Error(), "invalid requestState")
	assert.Equal(t, 1, tp.hits)
	assert.Equal(t, 1, rec.Count())
	assert.Equal(t, 1, rj.count())
}

func TestMCPGoClientToMCPGoServer(t *testing.T) {
	rec, rj := &fixture.TripRecorder{}, &rejections{}
	url := mcpgoServer(t, rec, rj)
	a := &answerer{content: []map[string]any{{"name": "Ada", "email": "bad", "nights": 2}, {"email": "ada@example.com"}}}
	res, err := callPlanTrip(mcpgoClient(t, url, a, nil))
	require.NoError(t, err)
	assert.False(t, res.IsError, mgText(res))
	assert.Contains(t, mgText(res), `"email":"ada@example.com"`)
	require.Len(t, a.asked, 2)
	assert.Contains(t, a.asked[1].Message, "email: must be")

	tp := &tamperer{}
	_, err = callPlanTrip(mcpgoClient(t, url, &answerer{content: []map[string]any{good}}, &http.Client{Transport: tp}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid requestState")
	assert.Equal(t, 1, rec.Count())
	assert.Equal(t, 1, rj.count())
}

func TestMCPGoMissingCapability(t *testing.T) {
	rec := &fixture.TripRecorder{}
	s := mgserver.NewMCPServer("fixture", "1")
	mcpgo.AddTool(s, fixture.NewTripFlow(rec), &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}})
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	tr, err := mgtransport.NewStreamableHTTP(srv.URL)
	require.NoError(t, err)
	c := mgclient.NewClient(tr) // no elicitation handler: no elicitation capability
	require.NoError(t, c.Start(context.Background()))
	t.Cleanup(func() { c.Close() })
	_, err = c.Initialize(context.Background(), mg.InitializeRequest{})
	require.NoError(t, err)
	res, err := callPlanTrip(c)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, mgText(res), `email ("Email"): required string, format email`)
	assert.Zero(t, rec.Count())
}

func TestMCPGoPrincipal(t *testing.T) {
	type userKey struct{}
	rec, rj := &fixture.TripRecorder{}, &rejections{}
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithElicitation())
	mcpgo.AddTool(s, fixture.NewTripFlow(rec), &mcpgo.Options{
		Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(), OnReject: rj.hook},
		Principal: func(ctx context.Context, _ mg.CallToolRequest) string {
			u, _ := ctx.Value(userKey{}).(string)
			return u
		},
	})
	user := mgserver.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		return context.WithValue(ctx, userKey{}, r.Header.Get("X-User"))
	})
	srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, &mcpgo.HTTPOptions{StreamableHTTP: []mgserver.StreamableHTTPOption{user}}))
	t.Cleanup(srv.Close)

	// alice's state, replayed by bob through a proxy that swaps the user.
	swap := &userSwap{}
	a := &answerer{content: []map[string]any{good}}
	_, err := callPlanTrip(mcpgoClient(t, srv.URL, a, &http.Client{Transport: swap}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another principal")
	assert.Zero(t, rec.Count())
	assert.Equal(t, 1, rj.count())
}

// userSwap sends first calls as alice and retries as bob.
type userSwap struct{}

func (userSwap) RoundTrip(r *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(r.Body)
	r = r.Clone(r.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	if bytes.Contains(body, []byte(`"requestState"`)) {
		r.Header.Set("X-User", "bob")
	} else {
		r.Header.Set("X-User", "alice")
	}
	return http.DefaultTransport.RoundTrip(r)
}

// An mcp-go client pinned to 2025-11-25 on a stateful (in-process) session
// is asked every round on the call: one round works, a bad answer is asked
// again, and the round limit holds.
func TestMCPGoLegacyClientOnItsSession(t *testing.T) {
	rec, rj := &fixture.TripRecorder{}, &rejections{}
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithElicitation())
	mcpgo.AddTool(s, fixture.NewTripFlow(rec), &mcpgo.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(), OnReject: rj.hook}})
	legacy := func(a *answerer) *mgclient.Client {
		c, err := mgclient.NewInProcessClientWithOptions(s, mgclient.WithElicitationHandler(a), mgclient.WithProtocolVersion(protocol.Version20251125))
		require.NoError(t, err)
		require.NoError(t, c.Start(context.Background()))
		t.Cleanup(func() { c.Close() })
		init := mg.InitializeRequest{}
		init.Params.ProtocolVersion = protocol.Version20251125
		init.Params.Capabilities.Elicitation = &mg.ElicitationCapability{}
		res, err := c.Initialize(context.Background(), init)
		require.NoError(t, err)
		require.Equal(t, protocol.Version20251125, res.ProtocolVersion)
		return c
	}
	a := &answerer{content: []map[string]any{good}}
	res, err := callPlanTrip(legacy(a))
	require.NoError(t, err)
	assert.False(t, res.IsError, mgText(res))
	assert.Contains(t, mgText(res), `"meal":"fish"`)
	require.Len(t, a.asked, 1)
	assert.Equal(t, 1, rec.Count())

	// A bad answer is asked again on the same call, with the reason.
	a = &answerer{content: []map[string]any{{"name": "Ada", "email": "bad", "nights": 2}, {"email": "ada@example.com"}}}
	res, err = callPlanTrip(legacy(a))
	require.NoError(t, err)
	assert.False(t, res.IsError, mgText(res))
	require.Len(t, a.asked, 2)
	assert.Contains(t, a.asked[1].Message, "email: must be an email address")
	assert.Equal(t, 2, rec.Count())

	// One that stays bad ends at the round limit.
	a = &answerer{content: []map[string]any{{"name": "Ada", "email": "bad", "nights": 2}}}
	res, err = callPlanTrip(legacy(a))
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, mgText(res), "gave up after 3 rounds")
	assert.Len(t, a.asked, 3)
	assert.Equal(t, 2, rec.Count())
	assert.Zero(t, rj.count())
}
