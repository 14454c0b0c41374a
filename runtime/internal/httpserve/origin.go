package httpserve

import (
	"fmt"
	"net/http"
	"slices"
)

// OriginGuard validates the Origin header of every request, as MCP
// 2025-11-25 (basic/transports, Streamable HTTP, security warning) requires
// of servers ("MUST validate the Origin header on all incoming connections",
// an invalid one answered with HTTP 403): it keeps a web page that a user
// visits from driving a local server through the user's browser (DNS
// rebinding, cross-site requests). The check is net/http's
// CrossOriginProtection (Go 1.25+), applied to every method: the standard
// type lets GET, HEAD and OPTIONS through, but the GET of a session's event
// stream is a connection too.
//
// Both adapters' HTTP handlers (runtime/mcpsdk, runtime/mcpgo) use it, so
// that Origin is judged one way whichever SDK serves the request.
type OriginGuard struct {
	cop    *http.CrossOriginProtection // nil: every origin is allowed
	option string                      // the option that lists allowed origins, for the 403's text
}

// NewOriginGuard returns the guard for allowed, the entries of the adapter's
// option named option (e.g. "mcpsdk.HTTPOptions.AllowedOrigins"): "*" allows
// every origin; any other entry is an origin "scheme://host[:port]" trusted
// besides the request's own host. It panics, naming the option and the
// entry, on one that is not an origin (a configuration mistake, found when
// the handler is built).
func NewOriginGuard(option string, allowed []string) OriginGuard {
	if slices.Contains(allowed, "*") {
		return OriginGuard{option: option}
	}
	cop := http.NewCrossOriginProtection()
	for _, o := range allowed {
		if err := cop.AddTrustedOrigin(o); err != nil {
			panic(fmt.Sprintf("mcpgen: %s: %v", option, err))
		}
	}
	return OriginGuard{cop: cop, option: option}
}

// Allow reports whether r may go on. A request without an Origin header
// (and without a browser's Sec-Fetch-Site: cross-site) goes on, as does one
// whose Origin's host[:port] equals its Host or is a trusted origin; any
// other is answered here with HTTP 403 and a text naming the origin and
// the option that would allow it.
func (g OriginGuard) Allow(w http.ResponseWriter, r *http.Request) bool {
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
		"to allow it, list it in %s", origin, r.Host, g.option), http.StatusForbidden)
	return false
}
