// Package devauth is the development authentication of the examples
// (examples/billing, examples/deploy, examples/connect): fixed bearer
// tokens checked by go-sdk's auth.RequireBearerToken, whose
// TokenInfo.UserID becomes the principal bound into every requestState
// (mcpsdk.DefaultPrincipal) and what runtime.Principal(ctx) returns in a
// branch.
//
// The tokens are fixed and public: never use them outside development.
package devauth

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tokens maps each development bearer token to its user: alice-token is
// alice, bob-token is bob. Any other token is refused with HTTP 401.
var Tokens = map[string]string{
	"alice-token": "alice",
	"bob-token":   "bob",
}

// StdioUser is the user a server runs as over stdio, where there is no
// HTTP request and so no bearer token: stdio is a local, single-user
// transport, and the examples treat its user as alice.
const StdioUser = "alice"

// Verify is an auth.TokenVerifier for [Tokens]: it returns the token's user
// as TokenInfo.UserID, or an error wrapping auth.ErrInvalidToken.
func Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	user, ok := Tokens[token]
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: user}, nil
}

// Middleware returns go-sdk's bearer-token middleware with [Verify]: requests
// without one of [Tokens] get HTTP 401. The development tokens carry no
// expiry.
func Middleware() func(http.Handler) http.Handler {
	return auth.RequireBearerToken(Verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
}

// StdioPrincipal is an mcpsdk.Options.Principal for stdio: every request is
// [StdioUser]'s.
func StdioPrincipal(context.Context, *mcp.RequestExtra) string { return StdioUser }

// Bearer is an http.RoundTripper that sends Token as the bearer token of
// every request through Next (http.DefaultTransport when nil): give it to a
// client's StreamableClientTransport.HTTPClient.
type Bearer struct {
	Token string
	Next  http.RoundTripper
}

// RoundTrip sends a copy of r with the Authorization header set.
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
