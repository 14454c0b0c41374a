package mcpsdk

import (
	"crypto/rand"
	"fmt"
	"regexp"
)

// EnvInstance is the environment variable that names a server instance for
// [InstanceSessionIDs] in mcpgen's examples: MCPGEN_INSTANCE=s1 on the first
// instance, s2 on the second, … (examples/loadbalanced/nginx.conf
// routes on it).
const EnvInstance = "MCPGEN_INSTANCE"

// instanceName is what an instance name may hold: letters, digits, '_' and
// '-', at most 32 of them. No '.', which ends it in a session id; nothing a
// proxy would have to escape in a header or a regular expression.
var instanceName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// InstanceSessionIDs returns a session id generator for go-sdk's
// mcp.ServerOptions.GetSessionID whose ids name this instance:
// "<instance>.<random>", the random part crypto/rand.Text (26 base32
// characters, 130 bits), as go-sdk's own ids are. A load balancer that
// cannot learn session ids from responses (stock nginx) can then keep each
// session of a client older than 2026-07-28 on the instance that holds it by
// routing on the id's prefix (examples/loadbalanced/nginx.conf);
// 2026-07-28 requests carry no session id and go to any instance.
//
// The prefix gives a client nothing it did not have: a session is still
// reached only by its whole id, which is unguessable, and an id whose prefix
// names another instance reaches one that does not hold it, which answers
// HTTP 404 "session not found" (MCP 2025-11-25, basic/transports: session
// management). An empty instance gives go-sdk's default ids (no prefix).
// An instance that is not 1 to 32 letters, digits, '_' or '-' is an error
// naming it.
func InstanceSessionIDs(instance string) (func() string, error) {
	if instance == "" {
		return rand.Text, nil
	}
	if !instanceName.MatchString(instance) {
		return nil, fmt.Errorf("mcpsdk: instance name %q (%s) must be 1 to 32 letters, digits, '_' or '-'", instance, EnvInstance)
	}
	prefix := instance + "."
	return func() string { return prefix + rand.Text() }, nil
}
