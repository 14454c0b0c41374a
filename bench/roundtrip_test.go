package bench

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// roundTripMode is one way of calling one of the two tools.
type roundTripMode struct {
	name  string
	tool  string
	round bool // call without the date, so that the tool asks for it
	auto  bool // let the SDK's client run the rounds (ElicitationHandler)
	// session: a 2025-11-25 client on a session, asked within the one
	// tools/call (elicitation/create on the open call), answering as
	// sessionAnswer does: a bad date first, then a good one (implies round).
	session bool
}

var roundTripModes = []roundTripMode{
	{name: "mcpgen/plain", tool: toolGenerated},
	{name: "mcpgen/manual", tool: toolGenerated, round: true},
	{name: "mcpgen/auto", tool: toolGenerated, round: true, auto: true},
	{name: "hand/plain", tool: toolHand},
	{name: "hand/manual", tool: toolHand, round: true},
	{name: "hand/auto", tool: toolHand, round: true, auto: true},
}

var (
	routeArgs = map[string]any{"origin": "CDG", "destination": "JFK"}
	fullArgs  = map[string]any{"origin": "CDG", "destination": "JFK", "date": "2026-12-24", "window": "morning", "passengers": 2}
	formReply = map[string]any{"date": "2026-12-24", "window": "morning", "passengers": 2}
)

const wantText = "Booked 2 passengers from CDG to JFK on 2026-12-24."

// roundTripClient is a go-sdk client session for one mode.
type roundTripClient struct {
	mode  roundTripMode
	cs    *mcp.ClientSession
	asked atomic.Int64 // elicitation/create requests the session's client answered
}

func connectMode(tb testing.TB, url string, m roundTripMode) *roundTripClient {
	tb.Helper()
	rc := &roundTripClient{mode: m}
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if m.session {
				rc.asked.Add(1)
				return sessionAnswer(req.Params), nil
			}
			if !m.auto {
				return nil, errors.New("rounds are driven by the benchmark")
			}
			return &mcp.ElicitResult{Action: "accept", Content: formReply}, nil
		},
	}
	var sopts *mcp.ClientSessionOptions
	switch {
	case m.session:
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: sessionVersion}
	case !m.auto:
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, opts)
	// A transport of its own per session, so that modes do not share idle
	// connections.
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}}
	cs, err := c.Connect(context.Background(), tr, sopts)
	if err != nil {
		tb.Fatal(err)
	}
	if m.session && cs.InitializeResult().ProtocolVersion != sessionVersion {
		tb.Fatalf("the session speaks %s, not %s", cs.InitializeResult().ProtocolVersion, sessionVersion)
	}
	tb.Cleanup(func() { _ = cs.Close() })
	rc.cs = cs
	return rc
}

// call makes one complete tool call in the client's mode and returns the
// result's text.
func (c *roundTripClient) call(ctx context.Context) (string, error) {
	text, _, err := c.callState(ctx)
	return text, err
}

// callState is call, also returning the requestState the client echoed
// (manual mode; "" otherwise).
func (c *roundTripClient) callState(ctx context.Context) (string, string, error) {
	args := fullArgs
	if c.mode.round || c.mode.session {
		args = routeArgs
	}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: c.mode.tool, Arguments: args})
	if err != nil {
		return "", "", err
	}
	state := ""
	if res.NeedsInput() {
		state = res.RequestState
		if c.mode.auto || c.mode.session || !c.mode.round {
			return "", "", errors.New("unexpected input-required result")
		}
		res, err = c.cs.CallTool(ctx, &mcp.CallToolParams{
			Name: c.mode.tool, Arguments: args,
			InputResponses: mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept", Content: formReply}},
			RequestState:   res.RequestState,
		})
		if err != nil {
			return "", "", err
		}
	} else if c.mode.round && !c.mode.auto && !c.mode.session {
		return "", "", errors.New("expected an input-required result")
	}
	if res.NeedsInput() || len(res.Content) != 1 {
		return "", "", errors.New("expected one content item in a complete result")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", "", errors.New("expected text content")
	}
	if res.IsError {
		return "", "", errors.New("tool error: " + tc.Text)
	}
	return tc.Text, state, nil
}

// TestRoundTripModes checks that every benchmarked mode books the flight, so
// the benchmark times complete, successful calls.
func TestRoundTripModes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	srv := startServer(t)
	for _, m := range roundTripModes {
		t.Run(m.name, func(t *testing.T) {
			got, err := connectMode(t, srv.url, m).call(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got != wantText {
				t.Fatalf("got %q, want %q", got, wantText)
			}
		})
	}
}

// BenchmarkRoundTrip times one complete tools/call of book_flight over
// loopback stateless Streamable HTTP, the server in its own process, one call
// at a time:
//
//   - plain: every argument given, no round (one HTTP request);
//   - manual: the date missing, one elicitation round driven by the client
//     itself (MultiRoundTrip disabled; two requests);
//   - auto: the same round run by the SDK's client (ElicitationHandler).
//
// for the generated flow (mcpgen/…) and for a hand-written go-sdk tool doing
// the same round with the same sealing (hand/…). Besides ns/op it reports
// calls/s, p50 and p99 latency in µs, and the server process's CPU time per
// call in µs (server-cpu-us), the client's (this process's: the go-sdk
// client and the benchmark) in µs (client-cpu-us), and in manual mode the size in bytes of the
// requestState the round carried (state-bytes).
func BenchmarkRoundTrip(b *testing.B) {
	srv := startServer(b)
	for _, m := range roundTripModes {
		b.Run(m.name, func(b *testing.B) {
			c := connectMode(b, srv.url, m)
			ctx := context.Background()
			var state string
			for range 20 { // warm up connections and caches
				var err error
				if _, state, err = c.callState(ctx); err != nil {
					b.Fatal(err)
				}
			}
			lat := make([]time.Duration, 0, 1<<14)
			cpu0 := srv.cpu(b)
			client0 := processCPU()
			start := time.Now()
			for b.Loop() {
				t0 := time.Now()
				got, err := c.call(ctx)
				lat = append(lat, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				if !strings.HasPrefix(got, "Booked") {
					b.Fatalf("got %q", got)
				}
			}
			elapsed := time.Since(start)
			client := processCPU() - client0
			cpu := srv.cpu(b) - cpu0
			slices.Sort(lat)
			n := len(lat)
			b.ReportMetric(float64(n)/elapsed.Seconds(), "calls/s")
			b.ReportMetric(us(lat[n/2]), "p50-us")
			b.ReportMetric(us(lat[min(n-1, n*99/100)]), "p99-us")
			b.ReportMetric(float64(cpu)/1e3/float64(n), "server-cpu-us")
			b.ReportMetric(float64(client)/1e3/float64(n), "client-cpu-us")
			if state != "" {
				b.ReportMetric(float64(len(state)), "state-bytes")
			}
		})
	}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
