package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// server builds a go-sdk server with plan_trip and pick_seats.
func server(opts *mcpsdk.Options, trip *fixture.TripRecorder, picks *fixture.PicksRecorder) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, nil)
	mcpsdk.AddTool(s, fixture.NewTripFlow(trip), opts)
	mcpsdk.AddTool(s, fixture.NewPicksFlow(picks), opts)
	return s
}

// connect opens a 2026-07-28 client session on endpoint that hands the
// rounds to the test (MultiRoundTrip disabled). With elicit false the client
// declares no elicitation capability. hc may be nil.
func connect(t testing.TB, endpoint string, elicit bool, hc *http.Client) *mcp.ClientSession {
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
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTrip(cs *mcp.ClientSession, args map[string]any, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
	return cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "plan_trip", Arguments: args, InputResponses: answers, RequestState: state,
	})
}

func accept(key string, content map[string]any) mcp.InputResponseMap {
	return mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept", Content: content}}
}

func text(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) != 1 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// onlyKey returns the key of res's only input request.
func onlyKey(res *mcp.CallToolResult) (string, *mcp.ElicitParams, error) {
	if !res.NeedsInput() || len(res.InputRequests) != 1 {
		return "", nil, fmt.Errorf("want one input request, got complete=%v %v (%s)", !res.NeedsInput(), res.InputRequests, text(res))
	}
	for k, v := range res.InputRequests {
		ep, ok := v.(*mcp.ElicitParams)
		if !ok {
			return "", nil, fmt.Errorf("input request %q is %T", k, v)
		}
		return k, ep, nil
	}
	return "", nil, nil
}

func requireCode(t *testing.T, err error, code int64) *jsonrpc.Error {
	t.Helper()
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	require.Equal(t, code, je.Code, "error: %v", err)
	return je
}

// roundRobin is a plain load balancer: request i goes to backend i mod n.
func roundRobin(t testing.TB, backends ...string) string {
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

// TestConcurrentFlowsBehindRoundRobin runs 200 flows at once, each of three
// input-required rounds (a wrong email, then none, then a right one), spread
// round robin over three instances that share nothing but the key ring.
// Every flow must complete with its own answers.
func TestConcurrentFlowsBehindRoundRobin(t *testing.T) {
	const flows = 200
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	var recs [3]*fixture.TripRecorder
	var hits [3]atomic.Int64
	var rejects atomic.Int64
	var backends []string
	for i := range recs {
		recs[i] = &fixture.TripRecorder{}
		opts := &mcpsdk.Options{Flow: runtime.Options{Keys: keys,
			OnReject: func(context.Context, runtime.Rejection) { rejects.Add(1) }}}
		h := mcpsdk.NewHTTPHandler(server(opts, recs[i], &fixture.PicksRecorder{}), nil)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		backends = append(backends, srv.URL)
	}
	lb := roundRobin(t, backends...)
	sessions := make([]*mcp.ClientSession, 8)
	for i := range sessions {
		sessions[i] = connect(t, lb, true, nil)
	}

	flow := func(i int) error {
		cs := sessions[i%len(sessions)]
		name, email, nights := fmt.Sprintf("flow-%03d", i), fmt.Sprintf("u%03d@example.com", i), 1+i%14
		args := map[string]any{"city": fmt.Sprintf("city-%03d", i)}
		res, err := callTrip(cs, args, nil, "")
		if err != nil {
			return err
		}
		answers := []map[string]any{
			{"name": name, "email": "not-an-email", "nights": nights},
			{},
			{"email": email},
		}
		for round, content := range answers {
			key, _, err := onlyKey(res)
			if err != nil {
				return fmt.Errorf("round %d: %w", round+1, err)
			}
			if res, err = callTrip(cs, args, accept(key, content), res.RequestState); err != nil {
				return fmt.Errorf("round %d: %w", round+1, err)
			}
		}
		if res.NeedsInput() || res.IsError {
			return fmt.Errorf("not complete: %s", text(res))
		}
		var got fixture.Trip
		if err := json.Unmarshal([]byte(strings.TrimPrefix(text(res), "accept ")), &got); err != nil {
			return fmt.Errorf("result %q: %w", text(res), err)
		}
		if got.City != args["city"] || got.Name != name || got.Email != email || got.Nights == nil || *got.Nights != nights {
			return fmt.Errorf("flow %d got someone else's answers: %+v", i, got)
		}
		return nil
	}

	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, flows)
	for i := 0; i < flows; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := flow(i); err != nil {
				errs <- fmt.Errorf("flow %d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	var failed []error
	for err := range errs {
		failed = append(failed, err)
	}
	require.Empty(t, failed)
	total := 0
	for i := range recs {
		n := recs[i].Count()
		total += n
		assert.Positive(t, hits[i].Load(), "instance %d served requests", i)
		for _, run := range recs[i].Runs() {
			assert.Equal(t, runtime.Accept, run.Action)
			assert.Equal(t, 3, run.Round)
		}
	}
	assert.Equal(t, flows, total, "exactly one Accept per flow, wherever it landed")
	assert.Zero(t, rejects.Load())
	t.Logf("%d flows x 3 rounds over 3 instances in %v; hits %d/%d/%d", flows, time.Since(start).Round(time.Millisecond),
		hits[0].Load(), hits[1].Load(), hits[2].Load())
}

func TestBearerPrincipalIsBound(t *testing.T) {
	users := map[string]string{"alice-token": "alice", "bob-token": "bob"}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		u, ok := users[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: u, Expiration: time.Now().Add(time.Hour)}, nil
	}
	rec := &fixture.TripRecorder{}
	var reasons []string
	var mu sync.Mutex
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(),
		OnReject: func(_ context.Context, r runtime.Rejection) {
			mu.Lock()
			reasons = append(reasons, r.Reason)
			mu.Unlock()
		}}}
	h := auth.RequireBearerToken(verify, nil)(mcpsdk.NewHTTPHandler(server(opts, rec, &fixture.PicksRecorder{}), nil))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	as := func(token string) *http.Client {
		return &http.Client{Transport: bearer{token}}
	}
	alice := connect(t, srv.URL, true, as("alice-token"))
	bob := connect(t, srv.URL, true, as("bob-token"))
	args := map[string]any{"city": "Paris"}
	first, err := callTrip(alice, args, nil, "")
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	good := accept("plan_trip", map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2})

	_, err = callTrip(bob, args, good, first.RequestState)
	requireCode(t, err, -32602)
	assert.Zero(t, rec.Count())
	mu.Lock()
	assert.Equal(t, []string{"requestState was issued to another principal"}, reasons)
	mu.Unlock()

	res, err := callTrip(alice, args, good, first.RequestState)
	require.NoError(t, err)
	assert.Contains(t, text(res), `"name":"Ada"`)
	assert.Equal(t, 1, rec.Count())
}

// A verifier that leaves TokenInfo.UserID empty would make every
// authenticated user the same anonymous principal, able to resume anyone's
// state: such requests are refused with a JSON-RPC error that says what to
// set, and no flow runs. Options.Principal fixes it.
func TestAuthenticatedRequestWithoutUserIDIsRefused(t *testing.T) {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "any-token" && token != "other-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"sub": token}}, nil // no UserID
	}
	serve := func(principal func(context.Context, *mcp.RequestExtra) string) (string, *fixture.TripRecorder) {
		rec := &fixture.TripRecorder{}
		opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}, Principal: principal}
		srv := httptest.NewServer(auth.RequireBearerToken(verify, nil)(mcpsdk.NewHTTPHandler(server(opts, rec, &fixture.PicksRecorder{}), nil)))
		t.Cleanup(srv.Close)
		return srv.URL, rec
	}
	url, rec := serve(nil)
	_, err := callTrip(connect(t, url, true, &http.Client{Transport: bearer{"any-token"}}), map[string]any{"city": "Paris"}, nil, "")
	je := requireCode(t, err, -32603)
	assert.Contains(t, je.Message, "TokenInfo.UserID is empty")
	assert.Contains(t, je.Message, "mcpsdk.Options.Principal")
	assert.Zero(t, rec.Count())

	// With a Principal that finds the user elsewhere, the flow runs and binds it.
	url, _ = serve(func(_ context.Context, extra *mcp.RequestExtra) string {
		sub, _ := extra.TokenInfo.Extra["sub"].(string)
		return sub
	})
	first, err := callTrip(connect(t, url, true, &http.Client{Transport: bearer{"any-token"}}), map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	good := accept("plan_trip", map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2})
	_, err = callTrip(connect(t, url, true, &http.Client{Transport: bearer{"other-token"}}), map[string]any{"city": "Paris"}, good, first.RequestState)
	requireCode(t, err, -32602)
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestMissingCapabilityPolicies(t *testing.T) {
	for _, policy := range []runtime.CapabilityPolicy{runtime.ToolErrorOnMissingCapability, runtime.ProtocolErrorOnMissingCapability} {
		rec := &fixture.TripRecorder{}
		opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(), MissingCapability: policy}}
		srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(opts, rec, &fixture.PicksRecorder{}), nil))
		t.Cleanup(srv.Close)
		res, err := callTrip(connect(t, srv.URL, false, nil), map[string]any{"city": "Paris"}, nil, "")
		if policy == runtime.ToolErrorOnMissingCapability {
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, text(res), `nights ("Nights"): required integer, minimum 1, maximum 14`)
		} else {
			je := requireCode(t, err, -32021)
			var data map[string]any
			require.NoError(t, json.Unmarshal(je.Data, &data))
			assert.Equal(t, map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, data["requiredCapabilities"])
		}
		assert.Zero(t, rec.Count())
	}
}

func TestTamperedStateOverHTTP(t *testing.T) {
	rec := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, rec, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	cs := connect(t, srv.URL, true, nil)
	first, err := callTrip(cs, map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	good := accept("plan_trip", map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2})
	st := first.RequestState
	mid := len(st) / 2
	flipped := st[:mid] + map[bool]string{true: "B", false: "A"}[st[mid] == 'A'] + st[mid+1:]
	for _, bad := range []string{st + "x", st[:len(st)-4], flipped} {
		_, err = callTrip(cs, map[string]any{"city": "Paris"}, good, bad)
		requireCode(t, err, -32602)
	}
	_, err = callTrip(cs, map[string]any{"city": "Rome"}, good, first.RequestState)
	requireCode(t, err, -32602)
	assert.Zero(t, rec.Count())
}

// legacy connects a client of an older protocol version to a stateful
// in-memory session; its elicitation handler answers with answer and records
// what it was asked.
func legacy(t *testing.T, version string, s *mcp.Server, answer func(n int, p *mcp.ElicitParams) *mcp.ElicitResult) (*mcp.ClientSession, *[]*mcp.ElicitParams) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	var asked []*mcp.ElicitParams
	var mu sync.Mutex
	c := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req.Params)
			return answer(len(asked), req.Params), nil
		},
	})
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
	return cs, &asked
}

func schemaOf(t *testing.T, p *mcp.ElicitParams) map[string]any {
	t.Helper()
	b, err := json.Marshal(p.RequestedSchema)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func TestLegacyClientsThroughTheBridge(t *testing.T) {
	good := map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "veg"}
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			trip, picks := &fixture.TripRecorder{}, &fixture.PicksRecorder{}
			s := server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, trip, picks)
			cs, asked := legacy(t, version, s, func(n int, _ *mcp.ElicitParams) *mcp.ElicitResult {
				if n == 1 {
					return &mcp.ElicitResult{Action: "accept", Content: good}
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"seats": []any{"aisle"}}}
			})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
			require.NoError(t, err)
			require.False(t, res.IsError, text(res))
			assert.Contains(t, text(res), `"meal":"veg"`)
			require.Len(t, *asked, 1, "the bridge asked once")
			schema := schemaOf(t, (*asked)[0])
			props := schema["properties"].(map[string]any)
			meal := props["meal"].(map[string]any)
			if version == "2025-06-18" {
				assert.Equal(t, []any{"veg", "fish"}, meal["enum"])
				assert.Equal(t, []any{"Vegetarian", "Fish"}, meal["enumNames"])
				assert.NotContains(t, meal, "oneOf")
				assert.NotContains(t, props, "tags", "an optional multi select is left out")
				assert.Equal(t, true, props["quiet"].(map[string]any)["default"], "booleans keep their default")
				for name, p := range props {
					if p.(map[string]any)["type"] != "boolean" {
						assert.NotContains(t, p, "default", name)
					}
				}
			} else {
				assert.Len(t, meal["oneOf"], 2)
				assert.Contains(t, props, "tags")
			}
			assert.Equal(t, 1, trip.Count())

			// A required multi select.
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pick_seats", Arguments: map[string]any{}})
			if version == "2025-06-18" {
				require.NoError(t, err)
				assert.True(t, res.IsError)
				assert.Contains(t, text(res), "seats")
				assert.Contains(t, text(res), "multi-select")
				assert.Zero(t, picks.Count())
				assert.Len(t, *asked, 1, "nothing was asked")
			} else {
				require.NoError(t, err)
				assert.Len(t, *asked, 2)
				assert.False(t, res.IsError, text(res))
				assert.Contains(t, text(res), `"seats":["aisle"]`)
			}
		})
	}
}

// A session's client is asked again on the same call after a bad answer,
// and the call completes with the good one; a decline runs Decline once.
func TestLegacyBadAnswerIsAskedAgainOnTheCall(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		trip := &fixture.TripRecorder{}
		s := server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, trip, &fixture.PicksRecorder{})
		cs, asked := legacy(t, version, s, func(n int, _ *mcp.ElicitParams) *mcp.ElicitResult {
			if n == 1 {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": "bad", "nights": 2}}
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"email": "ada@example.com"}}
		})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
		require.NoError(t, err)
		assert.False(t, res.IsError, text(res))
		require.Len(t, *asked, 2, version)
		assert.Contains(t, (*asked)[1].Message, "email: must be", version)
		assert.Equal(t, 1, trip.Count())
		trip = &fixture.TripRecorder{}
		s = server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, trip, &fixture.PicksRecorder{})

		// Decline on the session runs Decline once.
		cs, _ = legacy(t, version, s, func(int, *mcp.ElicitParams) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} })
		res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
		require.NoError(t, err)
		assert.False(t, res.IsError)
		require.Equal(t, 1, trip.Count())
		assert.Equal(t, runtime.Decline, trip.Runs()[0].Action)
	}
}

// Serve serves the endpoint behind the middleware it was mounted with: a
// request without a valid bearer token is HTTP 401, one with it completes a
// flow (TestBearerPrincipalIsBound shows the token's user bound as principal).
func TestServeWithMiddleware(t *testing.T) {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "alice-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "alice", Expiration: time.Now().Add(time.Hour)}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	rec := &fixture.TripRecorder{}
	s := server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, rec, &fixture.PicksRecorder{})
	h := mcpsdk.NewHTTPHandler(s, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", auth.RequireBearerToken(verify, nil)(h))
	go func() {
		errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, mux, func(a net.Addr) { addrc <- a })
	}()
	url := "http://" + (<-addrc).String() + "/mcp"

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	cs := connect(t, url, true, &http.Client{Transport: bearer{"alice-token"}})
	args := map[string]any{"city": "Paris"}
	first, err := callTrip(cs, args, nil, "")
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	res, err := callTrip(cs, args, accept("plan_trip", map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2}), first.RequestState)
	require.NoError(t, err)
	assert.Contains(t, text(res), `"name":"Ada"`)
	require.Len(t, rec.Runs(), 1)

	// The client goes first: a connection it still holds would make the
	// shutdown wait for it.
	require.NoError(t, cs.Close())
	cancel()
	require.NoError(t, <-errc)
}
