package protocol

import (
	"context"
	"encoding/json"
)

// Request is one tools/call or prompts/get (or, for a runtime.Exchange,
// resources/read) as the flow sees it, filled in by an adapter from the
// SDK's request and passed to runtime.Flow.Call or runtime.NewExchange
// (MCP 2026-07-28, server/tools: CallToolRequest; server/prompts:
// GetPromptRequest; SEP-2322, basic/patterns/mrtr: inputResponses and
// requestState on a retry).
type Request struct {
	// Method is "tools/call", "prompts/get" or (for an Exchange)
	// "resources/read"; it is bound into the state.
	Method string
	// Arguments is the raw arguments object (absent or null means {}).
	Arguments json.RawMessage
	// InputResponses is the retry's inputResponses (SEP-2322), by key.
	InputResponses map[string]InputResponse
	// RequestState is the echoed requestState, or "" on a first call.
	RequestState string
	// FormElicitation reports whether the client declared form elicitation
	// ({"elicitation":{}} or {"elicitation":{"form":{}}}).
	FormElicitation bool
	// URLElicitation reports whether it declared {"elicitation":{"url":{}}}.
	URLElicitation bool
	// Sampling reports whether the client declared {"sampling":{…}}.
	Sampling bool
	// Roots reports whether the client declared {"roots":{…}}.
	Roots bool
	// ProtocolVersion is the request's protocol version ([VersionMRTR],
	// [Version20251125], [Version20250618], …). Before 2026-07-28 the
	// client is asked on its session (see Send).
	ProtocolVersion string
	// Principal identifies the authenticated caller ("" when anonymous); it
	// is bound into the state.
	Principal string
	// ClientAddress is where an HTTP request came from: the peer's IP
	// address, an IPv6 one by its /64 prefix ("" over stdio, or when the
	// server does not serve through the adapter's HTTP handler). The
	// engine counts an anonymous caller's flows by it
	// (runtime.Options.MaxFlowsPerPrincipal); it is bound into nothing.
	ClientAddress string
	// Unaskable, when set, is why this client cannot be sent an input
	// request whatever it declared, e.g. a 2025-11-25 client over stateless
	// HTTP (MCP 2025-11-25, basic/transports: it declared its capabilities
	// at an initialize the server did not keep, and the server cannot send
	// it a request). The tool errors for a missing capability give it in
	// place of "this client declared no …".
	Unaskable string
	// LoadCapabilities, when set, returns the capabilities the client
	// declared, in place of the four fields above; the flow
	// calls it at most once, and only when it needs them (before asking), so
	// that an adapter whose SDK decodes them on each access pays nothing on
	// calls that ask nothing.
	LoadCapabilities func() Capabilities
	// NotifyElicitationComplete, when set, sends
	// notifications/elicitation/complete with elicitationId id to the
	// client (MCP 2025-11-25, client/elicitation, URL mode): an adapter sets
	// it for a client on a stateful session of a protocol before
	// 2026-07-28, which learns that a URL-mode step finished only that way.
	NotifyElicitationComplete func(ctx context.Context, id string) error
	// Send, when set, sends ir to the client as a server-to-client request
	// on the open call and returns the client's answer: an adapter sets it
	// for a client on a stateful session of a protocol before 2026-07-28,
	// which the server may send any number of elicitation/create (and
	// sampling/createMessage, roots/list) requests while a tools/call is
	// open (MCP 2025-11-25, client/elicitation and basic/transports). The
	// flow then runs every round of the call within this one request (see
	// runtime.Converse): each input-required result it would return is sent
	// this way and its answers are fed back, until the call completes.
	//
	// An answer the client refused itself, sending an error with its reason
	// instead (go-sdk's client checks its own answer against the
	// requestedSchema), is an accepted [ElicitResult] with Refused set: the
	// form is asked again with the reason. Any error (the client answered
	// with another JSON-RPC error, its stream or session went away, ctx
	// ended) ends the call with nothing run.
	Send func(ctx context.Context, ir InputRequest) (InputResponse, error)
}

// Capabilities returns the client capabilities the request declared (from
// LoadCapabilities, called once, when it is set; the result is then stored
// in the four capability fields and LoadCapabilities is cleared).
func (r *Request) Capabilities() Capabilities {
	if r.LoadCapabilities != nil {
		c := r.LoadCapabilities()
		r.FormElicitation, r.URLElicitation, r.Sampling, r.Roots = c.FormElicitation, c.URLElicitation, c.Sampling, c.Roots
		r.LoadCapabilities = nil
	}
	return Capabilities{FormElicitation: r.FormElicitation, URLElicitation: r.URLElicitation, Sampling: r.Sampling, Roots: r.Roots}
}

// Protocol versions the flow distinguishes, as found in
// [Request.ProtocolVersion] (the version the client negotiated, MCP
// 2026-07-28, basic/lifecycle). Versions are dates and compare as strings.
const (
	// VersionMRTR is the first version with input-required results
	// (SEP-2322, basic/patterns/mrtr); a client before it is asked through
	// server-to-client requests on its session ([Request.Send]).
	VersionMRTR = "2026-07-28"
	// Version20251125 is the first version whose form elicitation knows the
	// whole requestedSchema grammar of 2026-07-28 (multi selects, titled
	// selects, defaults); an older client is sent a reduced schema.
	Version20251125 = "2025-11-25"
	// Version20250618 is the first version with elicitation
	// (MCP 2025-06-18, client/elicitation).
	Version20250618 = "2025-06-18"
)
