// Package devauth is the development authentication of the examples
// (examples/billing, examples/deploy, examples/connect): the development
// verifier of package runtime/devauth (fixed bearer tokens checked by
// go-sdk's auth.RequireBearerToken, loopback addresses only), whose
// TokenInfo.UserID becomes the principal bound into every requestState
// (mcpsdk.DefaultPrincipal) and what runtime.Principal(ctx) returns in a
// branch, and the examples' user over stdio.
//
// The tokens are fixed and public: never use them outside development.
package devauth

import (
	"context"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	rdevauth "github.com/mcpgen/mcpgen/runtime/devauth"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// Tokens maps each development bearer token to its user: alice-token is
// alice, bob-token is bob (runtime/devauth's DefaultTokens). Any other
// token is refused with HTTP 401.
var Tokens = rdevauth.DefaultTokens()

// StdioUser is the user a server runs as over stdio when MCPGEN_PRINCIPAL
// is not set: there is no HTTP request and so no bearer token; stdio is a
// local, single-user transport, and the examples treat its user as alice.
const StdioUser = "alice"

// Middleware returns runtime/devauth's middleware for [Tokens]: requests
// without one of them get HTTP 401, requests on a non-loopback address 403.
func Middleware() func(http.Handler) http.Handler {
	return (&rdevauth.Verifier{Tokens: Tokens}).Middleware()
}

// StdioPrincipal returns the mcpsdk.Options.Principal of an example served
// over stdio: mcpsdk.StdioPrincipal's (MCPGEN_PRINCIPAL) when the variable
// is set, else [StdioUser] (not the operating system's user, who has no
// accounts in the examples). Its error is mcpsdk.StdioPrincipal's.
func StdioPrincipal() (func(context.Context, *mcp.RequestExtra) string, error) {
	if os.Getenv(mcpsdk.EnvPrincipal) == "" {
		return func(context.Context, *mcp.RequestExtra) string { return StdioUser }, nil
	}
	return mcpsdk.StdioPrincipal()
}

// Client returns an http.Client that sends token as its bearer token.
func Client(token string) *http.Client { return rdevauth.Client(token) }
