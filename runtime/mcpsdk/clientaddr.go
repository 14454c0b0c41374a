package mcpsdk

import (
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
)

// ClientAddresses wraps next, an HTTP handler of a server's own (go-sdk's
// mcp.NewStreamableHTTPHandler serving tools from [Tool], for one), so that
// each request carries its client's address to mcpgen's handlers: its IP
// address, or for IPv6 its /64 prefix (RFC 6177). A caller with no
// principal is counted by it against [runtime.Options.MaxFlowsPerPrincipal];
// without it every anonymous caller of next counts as one, "the anonymous
// callers", and one of them at the limit refuses all the others. A value a
// client sends under the same header name is replaced, never trusted.
//
// The handler of [NewHTTPHandler] does this itself (with the Origin check,
// the answer's bounds and the session limits); wrap only a handler that is
// not one of its. Behind a reverse proxy every client's address is the
// proxy's.
func ClientAddresses(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpserve.MarkClient(r)
		next.ServeHTTP(w, r)
	})
}
