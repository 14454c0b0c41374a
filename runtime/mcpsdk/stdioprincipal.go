package mcpsdk

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EnvPrincipal is the environment variable that names the caller of a
// server served over stdio ([StdioPrincipal]), e.g. MCPGEN_PRINCIPAL=alice.
const EnvPrincipal = "MCPGEN_PRINCIPAL"

// StdioPrincipal returns an [Options].Principal for a server served over
// stdio, where no request carries a bearer token: stdio is a local
// transport whose one client started the server as a user of this machine,
// so every request is that user's. The principal is MCPGEN_PRINCIPAL when it
// is set and not empty, else the name of the operating system's user the
// process runs as (os/user.Current). A branch reads it with
// runtime.Principal (a tool that offers the caller's own accounts, for
// one), and it is bound into every requestState as over HTTP.
//
// A MCPGEN_PRINCIPAL with leading or trailing space, or a control
// character (" ", "a\nb"), is an error: it would name no user, or forge a
// log line.
//
// The hook ignores its arguments: call it with (ctx, nil) to log who the
// server serves. The error, when neither names a user, says to set
// MCPGEN_PRINCIPAL.
func StdioPrincipal() (func(context.Context, *mcp.RequestExtra) string, error) {
	name := os.Getenv(EnvPrincipal)
	if name != "" && (strings.TrimSpace(name) != name || strings.IndexFunc(name, unicode.IsControl) >= 0) {
		return nil, fmt.Errorf("mcpsdk: %s=%q: a principal has no leading or trailing space and no control character", EnvPrincipal, name)
	}
	if name == "" {
		u, err := user.Current()
		if err != nil || u.Username == "" {
			return nil, fmt.Errorf("mcpsdk: no principal for stdio: %s is not set and the operating system's user is unknown (%v); set %s", EnvPrincipal, err, EnvPrincipal)
		}
		name = u.Username
	}
	return func(context.Context, *mcp.RequestExtra) string { return name }, nil
}
