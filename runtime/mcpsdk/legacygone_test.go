package mcpsdk_test

import (
	"context"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
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

// conns is an http.Client whose every TCP connection is recorded, so that a
// test can drop them all at once, as a client whose network went away.
type conns struct {
	mu   sync.Mutex
	list []net.Conn
}

func (c *conns) client() *http.Client {
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := d.DialContext(ctx, network, addr)
		if err == nil {
			c.mu.Lock()
			c.list = append(c.list, conn)
			c.mu.Unlock()
		}
		return conn, err
	}}}
}

// drop closes every connection the client opened so far.
func (c *conns) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.list {
		conn.Close()
	}
}

// goneServer serves plan_trip over Streamable HTTP with sessions and with
// answer as HTTPOptions.AnswerTimeout. ended receives, for every tools/call
// the server finishes, its result's text (or the error's), once the
// handler returned; events receives every Options.OnEnd outcome.
func goneServer(t *testing.T, answer time.Duration) (url string, trip *fixture.TripRecorder, ended <-chan string, events func() []string) {
	t.Helper()
	trip = &fixture.TripRecorder{}
	var mu sync.Mutex
	var outcomes []string
	opts := keys()
	opts.Flow.OnEnd = func(_ context.Context, e mrt.Event) {
		mu.Lock()
		defer mu.Unlock()
		outcomes = append(outcomes, e.Outcome)
	}
	s := server(opts, trip, &fixture.PicksRecorder{})
	done := make(chan string, 8)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				switch r, _ := res.(*mcp.CallToolResult); {
				case err != nil:
					done <- "error: " + err.Error()
				default:
					done <- text(r)
				}
			}
			return res, err
		}
	})
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{AnswerTimeout: answer}))
	t.Cleanup(srv.Close)
	return srv.URL, trip, done, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), outcomes...)
	}
}

// pendingClient connects a 2025-11-25 client over hc whose elicitation
// handler signals entered and then waits for release alone (a person who
// has not answered the form: it does not look at its context), and starts
// a plan_trip call in the background; the call's error goes to callErr.
// The returned free releases the handler (idempotent; also at cleanup,
// before the session closes).
func pendingClient(t *testing.T, url string, hc *http.Client) (cs *mcp.ClientSession, callCancel context.CancelFunc, callErr <-chan error, free func()) {
	t.Helper()
	entered := make(chan struct{}, 4)
	release := make(chan struct{})
	var once sync.Once
	free = func() { once.Do(func() { close(release) }) }
	c := mcp.NewClient(&mcp.Implementation{Name: "gone", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			entered <- struct{}{}
			<-release
			// A map of its own: go-sdk's client fills the schema's
			// defaults into the content it is handed.
			return &mcp.ElicitResult{Action: "accept", Content: maps.Clone(good)}, nil
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	require.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	t.Cleanup(func() { cs.Close() })
	t.Cleanup(free) // runs first: the session's Close waits for the handler
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
		errc <- err
	}()
	select {
	case <-entered:
	case <-time.After(20 * time.Second):
		t.Fatal("the client was never asked")
	}
	return cs, cancel, errc, free
}

// serverEnd waits for the server to finish one tools/call, at most until
// the test's deadline, and returns what it ended in.
func serverEnd(t *testing.T, ctx context.Context, ended <-chan string) string {
	t.Helper()
	select {
	case s := <-ended:
		return s
	case <-ctx.Done():
		t.Fatal("the server still holds the call")
		return ""
	}
}

// afterwards checks that a new session on url completes a call normally.
func afterwards(t *testing.T, url string, trip *fixture.TripRecorder) {
	t.Helper()
	cs, err := legacyHTTP(t, url, "2025-11-25", func(int) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: maps.Clone(good)}
	})
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	assert.Contains(t, text(res), `"meal":"veg"`)
	require.Equal(t, 1, trip.Count())
	assert.Equal(t, mrt.Accept, trip.Runs()[0].Action)
}

// A 2025-11-25 client over Streamable HTTP whose TCP connections drop
// while it is asked (its elicitation handler entered, no answer sent):
// the server ends the call at once, because the POST that carried the
// question went away (its stream cannot be resumed), long before
// AnswerTimeout (an hour here); no branch ran, nothing completed, and a new
// session completes a call.
func TestLegacyClientDroppedWhileAsked(t *testing.T) {
	url, trip, ended, events := goneServer(t, time.Hour)
	var cc conns
	_, cancel, callErr, free := pendingClient(t, url, cc.client())

	ctx, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	cc.drop()
	end := serverEnd(t, ctx, ended)
	assert.Contains(t, end, "the client's HTTP request that carried the question went away")
	assert.Contains(t, end, "nothing ran")
	assert.NotContains(t, end, "AnswerTimeout")

	// The client's late answer reaches no call.
	free()
	cancel()
	require.Error(t, <-callErr)
	assert.Zero(t, trip.Count(), "no branch ran")
	assert.Equal(t, []string{"asked"}, events(), "asked once, nothing completed")

	afterwards(t, url, trip)
	assert.Equal(t, []string{"asked", "asked", "completed"}, events())
}

// A 2025-11-25 client that calls ClientSession.Close while it is asked
// (its elicitation handler entered, no answer sent). go-sdk v1.8.0's Close
// waits for the session's calls in flight, the question its handler holds
// included, before it sends DELETE or drops a connection (jsonrpc2
// Connection.Close), so the server cannot see the client going: the POST
// that carries the question stays open. The bound that ends the server's
// wait is HTTPOptions.AnswerTimeout (short here); the call ends in a tool
// error that names it, no branch runs, nothing completes, and Close
// returns only once the handler does. A new session completes a call.
func TestLegacyClientClosedWhileAsked(t *testing.T) {
	const answer = 500 * time.Millisecond
	url, trip, ended, events := goneServer(t, answer)
	cs, _, callErr, free := pendingClient(t, url, nil)

	ctx, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	closed := make(chan error, 1)
	go func() { closed <- cs.Close() }()
	end := serverEnd(t, ctx, ended)
	assert.Contains(t, end, "none within "+answer.String()+" (mcpsdk.HTTPOptions.AnswerTimeout)")
	assert.Contains(t, end, "nothing ran")

	// The tool error reached the client's call; its Close still waits for
	// its own elicitation handler, which has not returned.
	select {
	case err := <-callErr:
		require.NoError(t, err, "the call ends in a tool error, not a transport error")
	case <-ctx.Done():
		t.Fatal("the client's call did not end")
	}
	select {
	case <-closed:
		t.Fatal("go-sdk's Close returned while its elicitation handler was still running")
	default:
	}
	free()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close did not return once the handler did")
	}
	assert.Zero(t, trip.Count(), "no branch ran")
	assert.Equal(t, []string{"asked"}, events(), "asked once, nothing completed")

	afterwards(t, url, trip)
	assert.Equal(t, []string{"asked", "asked", "completed"}, events())
}
