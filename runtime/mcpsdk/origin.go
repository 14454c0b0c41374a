package mcpsdk

import (
	"fmt"
	"net/http"
	"slices"
)

// originGuard validates the Origin header of every request, as MCP
// 2025-11-25 (basic/transports, Streamable HTTP, security warning) requires
// of servers ("MUST validate the Origin header on all incoming connections",
// an invalid one answered with HTTP 403): it keeps a web page that a user
// visits from driving a local server through the user's browser (DNS
// rebinding, cross-site requests). The check is net/http's
// CrossOriginProtection (Go 1.25+), applied to every method: the standard
// type lets GET, HEAD and OPTIONS through, but the GET of a session's event
// stream is a connection too.
type originGuard struct {
	cop *http.CrossOriginProtection // nil: every origin is allowed
}

// newOriginGuard returns the guard for allowed, the entries of
// HTTPOptions.AllowedOrigins: "*" allows every origin; any other entry is an
// origin "scheme://host[:port]" trusted besides the request's own host. It
// panics, naming the entry, on one that is not an origin.
func newOriginGuard(allowed []string) originGuard {
	if slices.Contains(allowed, "*") {
		return originGuard{}
	}
	cop := http.NewCrossOriginProtection()
	for _, o := range allowed {
		if err := cop.AddTrustedOrigin(o); err != nil {
			panic(fmt.Sprintf("mcpsdk: HTTPOptions.AllowedOrigins: %v", err))
		}
	}
	return originGuard{cop: cop}
}

// allow reports whether r may go on. A request without an Origin header
// (and without a browser's Sec-Fetch-Site: cross-site) goes on, as does one
// whose Origin's host[:port] equals its Host or is a trusted origin; any
// other is answered here with HTTP 403 and a text naming the origin and
// the option that would allow it.
func (g originGuard) allow(w http.ResponseWriter, r *http.Request) bool {
	if g.cop == nil {
		return true
	}
	var err error
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		// CrossOriginProtection exempts these methods; checked as a POST
		// they get the same verdict as the rest of the session.
		asPost := *r
		asPost.Method = http.MethodPost
		err = g.cop.Check(&asPost)
	default:
		err = g.cop.Check(r)
	}
	if err == nil {
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		origin = "(none; Sec-Fetch-Site: " + r.Header.Get("Sec-Fetch-Site") + ")"
	}
	http.Error(w, fmt.Sprintf("mcpgen: Origin %s is not allowed for host %s "+
		"(MCP 2025-11-25 basic/transports: servers validate Origin, against DNS rebinding); "+
		"to allow it, list it in mcpsdk.HTTPOptions.AllowedOrigins", origin, r.Host), http.StatusForbidden)
	return false
}
