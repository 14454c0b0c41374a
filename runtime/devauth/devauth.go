// Package devauth is a DEVELOPMENT-ONLY bearer-token verifier for an MCP
// server on go-sdk: a fixed, public table of tokens → users, checked by
// go-sdk's auth.RequireBearerToken. The user becomes TokenInfo.UserID, which
// mcpsdk binds into every requestState as the principal
// (mcpsdk.DefaultPrincipal) and which a branch reads with runtime.Principal.
//
// The tokens are public, so anyone who can reach the server can be any of
// its users. To keep a development server from being served to others by
// mistake, the verifier refuses non-loopback addresses: [Verifier.CheckAddr]
// refuses to listen on one, and [Verifier.Middleware] answers a request that
// arrived on one with HTTP 403, unless [Verifier.AnyAddr] is set or the
// environment holds MCPGEN_DEV_AUTH_ANY_ADDR=1 ([EnvAnyAddr]). Before serving
// anyone else, replace the middleware with auth.RequireBearerToken and a
// verifier of real tokens (an OAuth 2.1 resource server: MCP 2026-07-28,
// basic/authorization), keeping TokenInfo.UserID and Expiration set. The
// guard judges the address the server listens on, so a reverse proxy on the
// same machine (nginx, HAProxy) defeats it: every request then arrives from
// loopback. Replace devauth before putting a proxy in front of a server
// that others can reach.
//
// [SignIn] is the same for a browser: the development sign-in of the pages
// of URL-mode questions (package runtime/page), fixed passwords for the same
// users, refused beyond loopback in the same way.
package devauth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// EnvAnyAddr is the environment variable that, set to 1, lets a development
// verifier serve on any address, not only loopback ones.
const EnvAnyAddr = "MCPGEN_DEV_AUTH_ANY_ADDR"

// DefaultLifetime is how long a verified token's TokenInfo says it is valid
// (its Expiration) when [Verifier.Lifetime] is zero. go-sdk's
// auth.RequireBearerToken refuses a TokenInfo without an expiration (HTTP
// 401 "token missing expiration") unless told otherwise; a development token
// is valid again at every request, so an hour from now is always true.
const DefaultLifetime = time.Hour

// DefaultTokens returns the development tokens [New] uses: alice-token is
// alice, bob-token is bob.
func DefaultTokens() map[string]string {
	return map[string]string{"alice-token": "alice", "bob-token": "bob"}
}

// Verifier checks fixed development bearer tokens. Its zero value knows no
// token; [New] has [DefaultTokens].
type Verifier struct {
	// Tokens maps each bearer token to its user id. Any other token is
	// refused with HTTP 401.
	Tokens map[string]string
	// AnyAddr lets the verifier serve on non-loopback addresses (as
	// MCPGEN_DEV_AUTH_ANY_ADDR=1 does). Leave it false unless the network
	// around the server is yours alone.
	AnyAddr bool
	// Lifetime sets each TokenInfo's Expiration to now + Lifetime (0:
	// [DefaultLifetime]).
	Lifetime time.Duration
}

// New returns a Verifier of [DefaultTokens].
func New() *Verifier { return &Verifier{Tokens: DefaultTokens()} }

// Verify is an auth.TokenVerifier: it returns the token's user as
// TokenInfo.UserID with an Expiration, or an error wrapping
// auth.ErrInvalidToken (HTTP 401) for a token not in Tokens.
func (v *Verifier) Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	user, ok := v.Tokens[token]
	if !ok {
		return nil, fmt.Errorf("%w: not a development token", auth.ErrInvalidToken)
	}
	life := v.Lifetime
	if life <= 0 {
		life = DefaultLifetime
	}
	return &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(life)}, nil
}

// Middleware returns go-sdk's auth.RequireBearerToken with [Verifier.Verify]
// (a request without one of Tokens gets HTTP 401) behind the loopback guard:
// a request that arrived on a non-loopback local address (the connection's
// http.LocalAddrContextKey) gets HTTP 403 with the reason, unless allowed
// (see [Verifier.CheckAddr]).
func (v *Verifier) Middleware() func(http.Handler) http.Handler {
	bearer := auth.RequireBearerToken(v.Verify, nil)
	return func(next http.Handler) http.Handler {
		checked := bearer(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
				if err := v.CheckAddr(local.String()); err != nil {
					http.Error(w, err.Error(), http.StatusForbidden)
					return
				}
			}
			checked.ServeHTTP(w, r)
		})
	}
}

// CheckAddr returns nil when addr (host:port, as net.Listen takes it) listens
// on loopback only: a loopback IP (127.0.0.0/8, ::1) or "localhost". Any
// other address (an empty host listens on every interface) is an error
// naming addr and how to allow it, unless AnyAddr is set or
// MCPGEN_DEV_AUTH_ANY_ADDR is 1.
func (v *Verifier) CheckAddr(addr string) error {
	if v.AnyAddr || os.Getenv(EnvAnyAddr) == "1" || loopback(addr) {
		return nil
	}
	return fmt.Errorf("devauth: refusing to serve development bearer tokens (public: anyone can use them) on %q, which is not a loopback address; "+
		"listen on 127.0.0.1 or localhost, replace devauth with a verifier of real tokens, or set %s=1 if the network is yours alone", addr, EnvAnyAddr)
}

// loopback reports whether addr's host is a loopback IP or "localhost".
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// Bearer is an http.RoundTripper that sends Token as the bearer token of
// every request through Next (http.DefaultTransport when nil): give it to a
// client's mcp.StreamableClientTransport.HTTPClient.
type Bearer struct {
	Token string
	Next  http.RoundTripper
}

// RoundTrip sends a copy of r with its Authorization header set to
// "Bearer " + Token (RFC 6750, section 2.1).
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	next := b.Next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}

// Client returns an http.Client that sends token as its bearer token.
func Client(token string) *http.Client {
	return &http.Client{Transport: Bearer{Token: token}}
}
