package protocol

// Client is what the client of a request declared, as a branch, a Choices
// function, FormOptions, an Unaskable fallback or an exchange handler reads
// it (runtime.ClientOf): its capabilities and its protocol era.
//
// The capabilities are the request's (MCP 2026-07-28, basic: a client
// declares its capabilities on every request, in
// _meta["io.modelcontextprotocol/clientCapabilities"], and a server never
// infers them), or, for a client of an earlier protocol on a session, those
// it declared at initialize (MCP 2025-11-25, basic/lifecycle:
// InitializeRequest.params.capabilities), as the adapter read them.
type Client struct {
	// Capabilities are the declared form and URL-mode elicitation, sampling
	// and roots; Capabilities.Supports says whether an input request may be
	// sent.
	Capabilities
	// ProtocolVersion is the request's protocol version ("2026-07-28",
	// "2025-11-25", …), or "" when the adapter did not say (taken as
	// 2026-07-28).
	ProtocolVersion string
	// Unaskable, when set, is why this client cannot be sent any input
	// request whatever it declared ([Request].Unaskable: a 2025-era client
	// over stateless HTTP, whose initialize the server did not keep).
	Unaskable string
}

// ClientOf returns what r's client declared: [Request.Capabilities] (loaded
// once; MCP 2026-07-28, basic: the request's _meta capabilities, or MCP
// 2025-11-25, basic/lifecycle: the session's initialize, as the adapter read
// them), the protocol version and [Request].Unaskable.
func ClientOf(r *Request) Client {
	return Client{Capabilities: r.Capabilities(), ProtocolVersion: r.ProtocolVersion, Unaskable: r.Unaskable}
}

// MRTR reports whether the request is of the 2026-07-28 era: stateless, with
// per-request capabilities and multi round-trip requests (input-required
// results and requestState, MCP 2026-07-28, basic/patterns/mrtr). It is false
// for a 2025-era client (2025-11-25, 2025-06-18, …), which declared its
// capabilities once, at initialize, and is asked on its session (MCP
// 2025-11-25, basic/lifecycle).
func (c Client) MRTR() bool {
	return c.ProtocolVersion == "" || c.ProtocolVersion >= VersionMRTR
}

// CanAsk reports whether a form may be sent to this client: it declared
// form elicitation ({"elicitation":{}} or {"elicitation":{"form":{}}}, MCP
// 2026-07-28, client/elicitation, capabilities) and nothing keeps the
// server from sending it a request (Unaskable is ""). When it is false a
// generated flow does not ask the tool's form (the handler's Unaskable
// fallback runs), runtime.Ask returns runtime.ErrUnaskable, and an adapter
// told to hide a tool from such clients leaves it out of tools/list.
func (c Client) CanAsk() bool { return c.FormElicitation && c.Unaskable == "" }
