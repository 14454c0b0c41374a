package mcpsdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mrt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

var good = map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "veg"}

func keys() *mcpsdk.Options { return &mcpsdk.Options{Flow: mrt.Options{Keys: mrt.EphemeralKeyRing()}} }

// legacyHTTP connects go-sdk's client, forced to protocol version, over
// Streamable HTTP with a session. answer (nil: the client declares no
// elicitation) answers each elicitation/create; it is given the count so far.
func legacyHTTP(t testing.TB, endpoint, version string, answer func(n int) *mcp.ElicitResult) (*mcp.ClientSession, error) {
	t.Helper()
	return legacyHTTPOver(t, nil, endpoint, version, answer)
}

// legacyHTTPOver is legacyHTTP over hc (nil: http.DefaultClient).
func legacyHTTPOver(t testing.TB, hc *http.Client, endpoint, version string, answer func(n int) *mcp.ElicitResult) (*mcp.ClientSession, error) {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if answer != nil {
		var mu sync.Mutex
		n := 0
		opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			n++
			k := n
			mu.Unlock()
			return answer(k), nil
		}
	} else {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "legacy-http", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	if cs.InitializeResult().ProtocolVersion != version {
		return nil, fmt.Errorf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, version)
	}
	return cs, nil
}

// legacyHTTPRequests is legacyHTTP whose answer sees each request.
func legacyHTTPRequests(t testing.TB, endpoint, version string, answer func(*mcp.ElicitRequest) *mcp.ElicitResult) (*mcp.ClientSession, error) {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "legacy-http", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return answer(req), nil },
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return cs, nil
}

func always(r *mcp.ElicitResult) func(int) *mcp.ElicitResult {
	return func(int) *mcp.ElicitResult { return r }
}

// An older client over HTTP is asked on its session, as over stdio: accept,
// decline and cancel each run their branch once; a bad answer, and one
// go-sdk refuses before the flow sees it, are asked again on the same call
// with the reason; the round limit holds; and a client that declared no
// elicitation is told exactly that.
func TestLegacyClientOverHTTP(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			trip := &fixture.TripRecorder{}
			h := mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), nil)
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			ctx := context.Background()
			paris := &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}}

			cs, err := legacyHTTP(t, srv.URL, version, always(&mcp.ElicitResult{Action: "accept", Content: good}))
			require.NoError(t, err)
			assert.NotEmpty(t, cs.ID(), "a session id")
			res, err := cs.CallTool(ctx, paris)
			require.NoError(t, err)
			require.False(t, res.IsError, text(res))
			assert.Contains(t, text(res), `"meal":"veg"`)

			for _, action := range []string{"decline", "cancel"} {
				cs, err := legacyHTTP(t, srv.URL, version, always(&mcp.ElicitResult{Action: action}))
				require.NoError(t, err)
				res, err := cs.CallTool(ctx, paris)
				require.NoError(t, err)
				assert.False(t, res.IsError, text(res))
			}
			require.Equal(t, 3, trip.Count())
			runs := trip.Runs()
			assert.Equal(t, []mrt.Action{mrt.Accept, mrt.Decline, mrt.Cancel}, []mrt.Action{runs[0].Action, runs[1].Action, runs[2].Action})

			// A bad answer is asked again on the same call, with the
			// reason, and the call completes when the answer is good.
			var messages []string
			var mu sync.Mutex
			cs, err = legacyHTTPRequests(t, srv.URL, version, func(req *mcp.ElicitRequest) *mcp.ElicitResult {
				mu.Lock()
				defer mu.Unlock()
				messages = append(messages, req.Params.Message)
				if len(messages) == 1 {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": "bad", "nights": 2}}
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"email": "ada@example.com"}}
			})
			require.NoError(t, err)
			res, err = cs.CallTool(ctx, paris)
			require.NoError(t, err)
			require.False(t, res.IsError, text(res))
			assert.Contains(t, text(res), `"email":"ada@example.com"`)
			require.Len(t, messages, 2)
			assert.Contains(t, messages[1], "email: must be an email address")
			assert.Equal(t, 4, trip.Count())

			// An answer go-sdk itself refuses (nights beyond its maximum,
			// before the flow sees it) is asked again with the reason, not
			// ended; the value the user typed is not quoted.
			messages = nil
			cs, err = legacyHTTPRequests(t, srv.URL, version, func(req *mcp.ElicitRequest) *mcp.ElicitResult {
				mu.Lock()
				defer mu.Unlock()
				messages = append(messages, req.Params.Message)
				nights := 50
				if len(messages) > 1 {
					nights = 5
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": "ada@example.com", "nights": nights}}
			})
			require.NoError(t, err)
			res, err = cs.CallTool(ctx, paris)
			require.NoError(t, err, "a tool result, not a JSON-RPC error")
			require.False(t, res.IsError, text(res))
			assert.Contains(t, text(res), `"nights":5`)
			require.Len(t, messages, 2)
			assert.Contains(t, messages[1], "nights breaks its maximum rule")
			assert.NotContains(t, messages[1], "50", "the value the user typed is not quoted")
			assert.Equal(t, 5, trip.Count())

			// An answer that stays bad ends at the round limit, as for a
			// client that retries by itself.
			cs, err = legacyHTTP(t, srv.URL, version, always(&mcp.ElicitResult{Action: "accept",
				Content: map[string]any{"name": "Ada", "email": "bad", "nights": 2}}))
			require.NoError(t, err)
			res, err = cs.CallTool(ctx, paris)
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, text(res), "gave up after 3 rounds")

			cs, err = legacyHTTP(t, srv.URL, version, nil)
			require.NoError(t, err)
			res, err = cs.CallTool(ctx, paris)
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, text(res), "this client declared no form elicitation")
			assert.Equal(t, 5, trip.Count(), "no branch ran")
			assert.Equal(t, 7, h.Sessions())
		})
	}
}

// A 2025-11-25 client that declared elicitation but reaches a stateless-only
// handler is told that the transport is why, not that it declared nothing.
func TestLegacyClientOverStatelessHTTPIsToldWhy(t *testing.T) {
	trip := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), &mcpsdk.HTTPOptions{MaxSessions: -1}))
	t.Cleanup(srv.Close)
	cs, err := legacyHTTP(t, srv.URL, "2025-11-25", always(&mcp.ElicitResult{Action: "accept", Content: good}))
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "this protocol 2025-11-25 client reached the server over stateless HTTP")
	assert.NotContains(t, text(res), "declared no")
	assert.Zero(t, trip.Count())
}

// Over the limit a new session is refused with 503 and a text; a session
// idle past the timeout is closed, frees its slot, and its client is told
// the session is gone. (Every client here is at 127.0.0.1: no bound per
// address, whose fair share would stop it at one of the two sessions.)
func TestSessionBounds(t *testing.T) {
	h := mcpsdk.NewHTTPHandler(server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{}),
		&mcpsdk.HTTPOptions{MaxSessions: 2, MaxSessionsPerPrincipal: -1, SessionIdleTimeout: 1500 * time.Millisecond})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	acc := always(&mcp.ElicitResult{Action: "accept", Content: good})
	first, err := legacyHTTP(t, srv.URL, "2025-11-25", acc)
	require.NoError(t, err)
	_, err = legacyHTTP(t, srv.URL, "2025-11-25", acc)
	require.NoError(t, err)
	// The handler records a session once its initialize response is out, so
	// the client may be a step ahead of the count; the idle timeout is long
	// enough that neither session closes before the third initialize, even
	// under -race on a loaded machine.
	require.Eventually(t, func() bool { return h.Sessions() == 2 }, time.Second, 5*time.Millisecond)

	status, body := initialize(t, srv.URL)
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Contains(t, body, "limit of 2 MCP sessions")
	_, err = legacyHTTP(t, srv.URL, "2025-11-25", acc)
	require.Error(t, err, "the go-sdk client is refused too")

	// 2026-07-28 clients need no session: they are served at the limit.
	cs := connect(t, srv.URL, true, nil)
	res, err := callTrip(cs, map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	assert.True(t, res.NeedsInput())

	require.Eventually(t, func() bool { return h.Sessions() == 0 }, 5*time.Second, 20*time.Millisecond, "idle sessions close")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = first.CallTool(ctx, &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.Error(t, err)
	assert.ErrorIs(t, err, mcp.ErrSessionMissing, "%v", err)
	require.NoError(t, ctx.Err(), "no hang")

	_, err = legacyHTTP(t, srv.URL, "2025-11-25", acc)
	require.NoError(t, err, "slots are free again")
}

// initialize posts a raw 2025-11-25 initialize and returns the status and body.
func initialize(t testing.TB, url string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// When the instance holding a session stops and another answers at its
// address, the session's next request fails at once with "session not
// found" (no hang), and a new session works.
func TestSessionOnStoppedInstance(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	start := func(ln net.Listener) *httptest.Server {
		srv := httptest.NewUnstartedServer(mcpsdk.NewHTTPHandler(server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{}), nil))
		srv.Listener.Close()
		srv.Listener = ln
		srv.Start()
		return srv
	}
	a := start(ln)
	url := "http://" + addr
	acc := always(&mcp.ElicitResult{Action: "accept", Content: good})
	// No connection is kept between requests: a pooled one to the stopped
	// instance, or one the new instance closed after answering the
	// session's event stream, would fail a POST with "server closed idle
	// connection" before it reaches the new instance, which is not what
	// this test is about.
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	cs, err := legacyHTTPOver(t, fresh, url, "2025-11-25", acc)
	require.NoError(t, err)
	paris := &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}}
	_, err = cs.CallTool(context.Background(), paris)
	require.NoError(t, err)

	a.CloseClientConnections()
	a.Close()
	ln, err = net.Listen("tcp", addr)
	require.NoError(t, err)
	b := start(ln)
	t.Cleanup(b.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	began := time.Now()
	_, err = cs.CallTool(ctx, paris)
	require.Error(t, err)
	assert.ErrorIs(t, err, mcp.ErrSessionMissing, "%v", err)
	assert.Less(t, time.Since(began), 2*time.Second)

	cs2, err := legacyHTTP(t, url, "2025-11-25", acc)
	require.NoError(t, err)
	res, err := cs2.CallTool(context.Background(), paris)
	require.NoError(t, err)
	assert.False(t, res.IsError, text(res))
}

// 1000 idle sessions (the default limit) neither stop a 2026-07-28 client
// from completing a flow nor grow memory without bound; the 1001st session
// is refused. (They all come from one anonymous address, so the
// per-principal bound is lifted.)
func TestThousandIdleSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	trip := &fixture.TripRecorder{}
	h := mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), &mcpsdk.HTTPOptions{MaxSessionsPerPrincipal: -1})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for i := 0; i < mcpsdk.DefaultMaxSessions; i++ {
		status, body := initialize(t, srv.URL)
		require.Equal(t, http.StatusOK, status, body)
	}
	require.Equal(t, mcpsdk.DefaultMaxSessions, h.Sessions())
	after := heap()
	grown := int64(after) - int64(before)
	t.Logf("1000 idle sessions: heap %d KiB -> %d KiB (+%d KiB, %d B per session)", before>>10, after>>10, grown>>10, grown/1000)
	assert.Less(t, grown, int64(64<<20), "memory of 1000 idle sessions")
	status, _ := initialize(t, srv.URL)
	assert.Equal(t, http.StatusServiceUnavailable, status)

	cs := connect(t, srv.URL, true, nil)
	res, err := callTrip(cs, map[string]any{"city": "Paris"}, nil, "")
	require.NoError(t, err)
	key, _, err := onlyKey(res)
	require.NoError(t, err)
	res, err = callTrip(cs, map[string]any{"city": "Paris"}, accept(key, good), res.RequestState)
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	assert.Equal(t, 1, trip.Count())

	h.CloseSessions()
	require.Eventually(t, func() bool { return h.Sessions() == 0 }, 5*time.Second, 20*time.Millisecond)
}

// Serve shuts down at once, with nil, while an older client's session
// holds a GET stream open: the sessions are closed first.
func TestServeShutdownWithOpenSession(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	h := mcpsdk.NewHTTPHandler(server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{}), nil)
	go func() { errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, nil, func(a net.Addr) { addrc <- a }) }()
	url := "http://" + (<-addrc).String() + "/mcp"
	cs, err := legacyHTTP(t, url, "2025-11-25", always(&mcp.ElicitResult{Action: "accept", Content: good}))
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	began := time.Now()
	cancel()
	select {
	case err := <-errc:
		require.NoError(t, err)
		assert.Less(t, time.Since(began), 3*time.Second)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// A session's client that cancels its tools/call while it is asked
// (notifications/cancelled, MCP 2025-11-25, basic/utilities/cancellation)
// ends the call: the handler returns at once, and no branch runs, also
// when the client's form answers afterwards. (The test waits for the
// server to end the call before the form answers: the notification and
// the answer travel on separate HTTP requests, and an answer that arrives
// first is a call answered before it was cancelled.)
func TestLegacyCancelledCallRunsNothing(t *testing.T) {
	url, trip, ended, events := goneServer(t, 0)
	cs, cancel, callErr, free := pendingClient(t, url, nil)
	ctx, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	cancel()
	require.Error(t, <-callErr)
	assert.Contains(t, serverEnd(t, ctx, ended), "nothing ran")
	// The answer the client's form gives now reaches no one.
	free()
	_, err := cs.ListTools(context.Background(), nil)
	assert.NoError(t, err, "the session goes on")
	assert.Zero(t, trip.Count(), "no branch ran")
	assert.Equal(t, []string{"asked"}, events())
}

// A session's answers are judged by the flow's own rules, as on 2026-07-28,
// in its words, only the failing fields asked again; an accept with nothing
// in it, twice, ends in the tool error that names what is needed, here
// from go-sdk's client, which refuses its own empty answer (it checks it
// against the schema) and answers with an error instead.
func TestLegacyAnswersJudgedByTheFlow(t *testing.T) {
	trip := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	paris := &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}}
	var messages []string
	var fields [][]string
	cs, err := legacyHTTPRequests(t, srv.URL, "2025-11-25", func(req *mcp.ElicitRequest) *mcp.ElicitResult {
		messages = append(messages, req.Params.Message)
		s, _ := json.Marshal(req.Params.RequestedSchema)
		var schema struct{ Properties map[string]any }
		_ = json.Unmarshal(s, &schema)
		fields = append(fields, slices.Sorted(maps.Keys(schema.Properties)))
		if len(messages) == 1 {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": "bad", "nights": 2}}
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"email": "ada@example.com"}}
	})
	require.NoError(t, err)
	res, err := cs.CallTool(ctx, paris)
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	require.Len(t, messages, 2)
	assert.Contains(t, messages[1], "email: must be an email address")
	assert.Equal(t, []string{"email"}, fields[1], "only the failing field again")

	cs, err = legacyHTTPRequests(t, srv.URL, "2025-11-25", func(*mcp.ElicitRequest) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}
	})
	require.NoError(t, err)
	res, err = cs.CallTool(ctx, paris)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "accepted the form twice with nothing filled in")
	assert.Contains(t, text(res), "Pass these as arguments and call again")
	assert.Equal(t, 1, trip.Count())
}

// An answer in a body larger than the server accepts (go-sdk answers that
// POST 413) ends the call that waits for it at once, with a tool error that
// says why, not at AnswerTimeout; nothing runs.
func TestLegacyOversizedAnswerEndsTheCall(t *testing.T) {
	trip := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	huge := strings.Repeat("a", int(mcp.DefaultMaxRequestBodyBytes)+10)
	cs, err := legacyHTTPRequests(t, srv.URL, "2025-11-25", func(*mcp.ElicitRequest) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": huge, "nights": 2}}
	})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "larger than the server accepts")
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Zero(t, trip.Count())
}
