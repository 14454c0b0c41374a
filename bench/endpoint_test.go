package bench

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// endpointMeta is what a 2026-07-28 client sends with every request
// (basic/patterns/mrtr: no session; version and capabilities per request).
const endpointMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}`

// endpointPost serves one 2026-07-28 tools/call of book_flight with params
// through h, in process (no network), and returns the JSON-RPC result.
func endpointPost(tb testing.TB, h http.Handler, params string) map[string]any {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book_flight",` + params + `,` + endpointMeta + `}}`
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "book_flight")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		line = strings.TrimPrefix(line, "data: ")
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var msg struct {
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.Result == nil {
			tb.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		return msg.Result
	}
	tb.Fatalf("status %d, no JSON-RPC response: %s", rec.Code, rec.Body)
	return nil
}

// endpointRound runs one 2026-07-28 round through h: the call without the
// date (input-required), then the retry with the answer and the state.
func endpointRound(tb testing.TB, h http.Handler) {
	first := endpointPost(tb, h, `"arguments":{"origin":"CDG","destination":"JFK"}`)
	state, _ := first["requestState"].(string)
	if state == "" {
		tb.Fatalf("no requestState: %v", first)
	}
	stateJSON, _ := json.Marshal(state)
	done := endpointPost(tb, h, `"arguments":{"origin":"CDG","destination":"JFK"},`+
		`"inputResponses":{"book_flight":{"action":"accept","content":{"date":"2026-12-24","window":"morning","passengers":2}}},`+
		`"requestState":`+string(stateJSON))
	if done["isError"] == true || done["resultType"] == "input_required" {
		tb.Fatalf("not booked: %v", done)
	}
}

func endpointServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}), &mcpsdk.Options{Flow: runtime.Options{MaxFlowsPerPrincipal: -1, Keys: runtime.EphemeralKeyRing(), Store: benchStore()}})
	return s
}

// BenchmarkEndpoint times one 2026-07-28 round (first call and retry, two
// requests) served in process through mcpsdk.NewHTTPHandler, which also
// keeps sessions for older clients (dual), and through the stateless one
// (HTTPOptions.MaxSessions -1), on the same server: the cost of routing by
// protocol.
func BenchmarkEndpoint(b *testing.B) {
	s := endpointServer()
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"stateless", mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1})},
		{"dual", mcpsdk.NewHTTPHandler(s, nil)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range 20 {
				endpointRound(b, c.h)
			}
			for b.Loop() {
				endpointRound(b, c.h)
			}
		})
	}
}

// TestEndpointRound checks that the benchmarked round books through both
// endpoints.
func TestEndpointRound(t *testing.T) {
	s := endpointServer()
	endpointRound(t, mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1}))
	endpointRound(t, mcpsdk.NewHTTPHandler(s, nil))
}
