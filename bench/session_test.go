package bench

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionVersion is the protocol of the session benchmarks' clients: the
// last before 2026-07-28, whose clients are asked within the tools/call.
const sessionVersion = "2025-11-25"

// sessionAsks is how many elicitation/create requests one call of the
// session benchmarks sends: the form, answered with a bad date, then the
// date alone, answered well.
const sessionAsks = 2

// sessionBadDate is the date the session benchmarks' client answers first:
// a string, so go-sdk's own check of the answer (which does not assert
// formats) lets it through, and the tool finds it is not a date.
const sessionBadDate = "24/12/2026"

// sessionAnswer is how the session benchmarks' client answers an
// elicitation/create: the first question of a call (its message carries no
// "Please check") with a bad date and the rest of formReply, a question
// asked again with the good date. The call books wantText.
func sessionAnswer(p *mcp.ElicitParams) *mcp.ElicitResult {
	if !strings.Contains(p.Message, "Please check") {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{
			"date": sessionBadDate, "window": formReply["window"], "passengers": formReply["passengers"]}}
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": formReply["date"]}}
}

// asked is one elicitation/create a session's client received, as the
// comparison of the two tools sees it.
type asked struct {
	Message string
	Schema  any // the requestedSchema, decoded
}

// sessionRecorder connects a 2025-11-25 client to url whose answer to the
// n-th question of a call (from 0) is answer(n, params), and returns a
// function that calls tool and returns the questions it was asked and the
// result.
func sessionRecorder(t *testing.T, url string, answer func(n int, p *mcp.ElicitParams) *mcp.ElicitResult) func(tool string) ([]asked, *mcp.CallToolResult) {
	t.Helper()
	var (
		mu  sync.Mutex
		log []asked
	)
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			b, err := json.Marshal(req.Params.RequestedSchema)
			if err != nil {
				return nil, err
			}
			var schema any
			if err := json.Unmarshal(b, &schema); err != nil {
				return nil, err
			}
			mu.Lock()
			defer mu.Unlock()
			log = append(log, asked{req.Params.Message, schema})
			return answer(len(log)-1, req.Params), nil
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp"},
		&mcp.ClientSessionOptions{ProtocolVersion: sessionVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return func(tool string) ([]asked, *mcp.CallToolResult) {
		mu.Lock()
		log = nil
		mu.Unlock()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: routeArgs})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		mu.Lock()
		defer mu.Unlock()
		return log, res
	}
}

// TestSessionToolsAgree holds the session benchmarks' comparison fair: on a
// 2025-11-25 session, the generated book_flight and the hand-written
// book_flight_hand_session ask the same questions (message and
// requestedSchema of every elicitation/create, in order) and end in the
// same result, for the benchmarks' call (a bad date, then a good one) and
// for the other ways a call on a session goes: answered at once, declined,
// cancelled, bad until the round limit, refused by go-sdk's own check of
// the answer (which checks the choices and bounds, not the date's format)
// before a bad date.
func TestSessionToolsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	srv := startServer(t)
	accept := func(content map[string]any) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: content}
	}
	for _, c := range []struct {
		name   string
		answer func(n int, p *mcp.ElicitParams) *mcp.ElicitResult
		asks   int
		want   string // the result's text; a tool error starts with "error: "
	}{
		{"the benchmarks' call: a bad date, then a good one",
			func(_ int, p *mcp.ElicitParams) *mcp.ElicitResult { return sessionAnswer(p) }, sessionAsks, wantText},
		{"answered at once", func(int, *mcp.ElicitParams) *mcp.ElicitResult { return accept(formReply) }, 1, wantText},
		{"defaults applied", func(int, *mcp.ElicitParams) *mcp.ElicitResult {
			return accept(map[string]any{"date": "2026-12-24"})
		}, 1, "Booked 1 passenger from CDG to JFK on 2026-12-24."},
		{"declined", func(int, *mcp.ElicitParams) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} }, 1, "nothing booked"},
		{"cancelled", func(int, *mcp.ElicitParams) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "cancel"} }, 1, "cancelled"},
		{"a bad date until the round limit", func(int, *mcp.ElicitParams) *mcp.ElicitResult {
			return accept(map[string]any{"date": sessionBadDate, "window": "evening", "passengers": 3})
		}, 3, "error: book_flight: gave up after 3 rounds of input requests without a usable answer; " +
			"last problem: date: must be a date as YYYY-MM-DD (RFC 3339 full-date)"},
		{"refused by go-sdk, then good", func(n int, _ *mcp.ElicitParams) *mcp.ElicitResult {
			if n == 0 {
				return accept(map[string]any{"date": "2026-12-24", "passengers": 50})
			}
			return accept(map[string]any{"date": "2026-12-25", "window": "evening", "passengers": 3})
		}, 2, "Booked 3 passengers from CDG to JFK on 2026-12-25."},
		{"refused by go-sdk, then a bad date, then good", func(n int, _ *mcp.ElicitParams) *mcp.ElicitResult {
			switch n {
			case 0: // go-sdk refuses the window (not one of the choices) before the tool sees the date
				return accept(map[string]any{"date": "tomorrow", "window": "night", "passengers": 4})
			case 1: // the form again; passengers left out takes its default
				return accept(map[string]any{"date": "2026-02-30", "window": "afternoon"})
			}
			return accept(map[string]any{"date": "2026-02-28"})
		}, 3, "Booked 1 passenger from CDG to JFK on 2026-02-28."},
	} {
		t.Run(c.name, func(t *testing.T) {
			call := sessionRecorder(t, srv.url, c.answer)
			genAsked, genRes := call(toolGenerated)
			handAsked, handRes := call(toolHandSession)
			for _, r := range []struct {
				tool  string
				asked []asked
				res   *mcp.CallToolResult
			}{{toolGenerated, genAsked, genRes}, {toolHandSession, handAsked, handRes}} {
				if len(r.asked) != c.asks {
					t.Errorf("%s asked %d times, want %d: %+v", r.tool, len(r.asked), c.asks, r.asked)
				}
				if got := resultText(r.res); got != c.want {
					t.Errorf("%s: got %q, want %q", r.tool, got, c.want)
				}
			}
			if !reflect.DeepEqual(genAsked, handAsked) {
				t.Errorf("the tools asked differently:\ngenerated %+v\nhand      %+v", genAsked, handAsked)
			}
		})
	}
}

// resultText is a tools/call result's one text, prefixed "error: " for a
// tool error.
func resultText(res *mcp.CallToolResult) string {
	if res.NeedsInput() || len(res.Content) != 1 {
		b, _ := json.Marshal(res)
		return "not one content item: " + string(b)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "not text"
	}
	if res.IsError {
		return "error: " + tc.Text
	}
	return tc.Text
}

// BenchmarkSessionLatency times a multi-round call on a session: a
// 2025-11-25 client (go-sdk, Streamable HTTP with a session through
// mcpsdk.NewHTTPHandler, the server in its own process) calls book_flight
// without the date, is asked the form within the tools/call
// (elicitation/create on the open call), answers a bad date, is asked the
// date again with the reason, answers a good one, and gets the booking: one
// tools/call, two elicitation/create, three HTTP requests. mcpgen: the
// generated tool (runtime.Converse feeding each round back into the
// engine); hand: book_flight_hand_session, the same questions asked with
// ServerSession.Elicit in a loop (TestSessionToolsAgree). One client per
// tool, one call at a time, alternating in slices of 32 calls; the metrics
// are BenchmarkRoundLatency's, an op one complete call of each tool.
func BenchmarkSessionLatency(b *testing.B) {
	alternateModes(b, 1, 32, roundTripMode{tool: toolGenerated, session: true}, roundTripMode{tool: toolHandSession, session: true})
}

// BenchmarkSessionLatencyNoise is BenchmarkSessionLatency as an A/A run,
// the hand-written session tool on both sides (see
// BenchmarkThroughputNoise).
func BenchmarkSessionLatencyNoise(b *testing.B) {
	alternateModes(b, 1, 32, roundTripMode{tool: toolHandSession, session: true}, roundTripMode{tool: toolHandSession, session: true})
}

// BenchmarkSessionThroughput is BenchmarkSessionLatency with 16 clients,
// each on its own session, calling at once, alternating in slices of 128
// calls (see BenchmarkThroughput).
func BenchmarkSessionThroughput(b *testing.B) {
	alternateModes(b, throughputClients, throughputSlice, roundTripMode{tool: toolGenerated, session: true},
		roundTripMode{tool: toolHandSession, session: true})
}
