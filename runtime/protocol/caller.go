package protocol

import (
	"strconv"
	"strings"
)

// anonymousAt begins the [Caller] of a request with no principal but a
// client address.
const anonymousAt = "the anonymous client at "

// AnonymousCallers is the [Caller] of requests with neither a principal nor
// a client address (stdio; a server's own HTTP handler that does not pass
// the address on): they are counted as one.
const AnonymousCallers = "the anonymous callers"

// Caller is the key by which mcpgen's quotas (flows in the store, older
// clients' sessions) count the caller of a request, as their refusals name
// it: the principal quoted (`"alice"`), else "the anonymous client at "
// and the client's address (an IP address, or an IPv6 /64 prefix), else
// [AnonymousCallers].
func Caller(principal, address string) string {
	switch {
	case principal != "":
		return strconv.Quote(principal)
	case address != "":
		return anonymousAt + address
	}
	return AnonymousCallers
}

// AnonymousAddress reports whether caller, a [Caller], is an anonymous
// client's address (not a principal, not [AnonymousCallers]).
func AnonymousAddress(caller string) bool { return strings.HasPrefix(caller, anonymousAt) }
