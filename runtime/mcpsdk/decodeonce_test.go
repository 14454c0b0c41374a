package mcpsdk_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// countingBody is a request body that counts the bytes read from it.
type countingBody struct {
	r io.Reader
	n int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func (c *countingBody) Close() error { return nil }

// TestHTTPDecodesBodyOnce checks that mcpgen's endpoint adds no reading or
// decoding of a 2026-07-28 request's body to the SDK's own: the handler
// that also keeps sessions for older clients routes it by its headers
// alone, so the SDK reads the body straight from the connection, and
// serving it there allocates no more than through the stateless handler
// (HTTPOptions.MaxSessions -1; a second decoding of the body would allocate
// its values). The SDK's transport checks come first either way
// (TestHTTPMalformedRetryIsInvalidParams and the tests of NewHTTPHandler).
func TestHTTPDecodesBodyOnce(t *testing.T) {
	s := server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, &fixture.TripRecorder{}, &fixture.PicksRecorder{})
	const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"plan_trip","arguments":{"city":"Paris"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}}}`
	serve := func(h http.Handler) (*countingBody, int) {
		cb := &countingBody{r: strings.NewReader(body)}
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Body = cb
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "plan_trip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return cb, rec.Code
	}
	dual, stateless := mcpsdk.NewHTTPHandler(s, nil), mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1})
	for name, h := range map[string]http.Handler{"dual": dual, "stateless": stateless} {
		cb, code := serve(h)
		if code != http.StatusOK || cb.n != len(body) {
			t.Fatalf("%s: status %d, %d of %d body bytes read", name, code, cb.n, len(body))
		}
	}
	// The fewest of three measurements each, and some slack for the SDK's
	// goroutines, timers and pools (more under -race): decoding the body
	// again costs over 50.
	least := func(h http.Handler) float64 {
		return min(testing.AllocsPerRun(50, func() { serve(h) }), testing.AllocsPerRun(50, func() { serve(h) }),
			testing.AllocsPerRun(50, func() { serve(h) }))
	}
	a, b := least(stateless), least(dual)
	if b > a+15 {
		t.Errorf("a request through the handler with sessions allocates %.0f times, through the stateless one %.0f: the endpoint reads or decodes the body again", b, a)
	}
	t.Logf("allocations per request: with sessions %.0f, stateless %.0f", b, a)
}
