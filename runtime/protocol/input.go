package protocol

// The input requests a server may embed besides elicitation (SEP-2322,
// MCP 2026-07-28 basic/patterns/mrtr: inputRequests values are
// elicitation/create, sampling/createMessage or roots/list requests), and the
// client's answers to them. Sampling and roots are deprecated in 2026-07-28
// (SEP-2577) but still served during the deprecation window.

// SamplingMessage is one text message of a sampling request
// (MCP 2026-07-28, client/sampling: SamplingMessage with text content).
type SamplingMessage struct {
	Role string // "user" or "assistant"
	Text string // the message's text content
}

// SamplingRequest is the params of a sampling/createMessage input request
// (MCP 2026-07-28, client/sampling: CreateMessageRequest): text messages for
// the client's model. Only text content is modelled; an adapter sends the
// SDK's own params type for anything richer.
type SamplingRequest struct {
	Messages     []SamplingMessage // the conversation, oldest first; at least one
	SystemPrompt string            // optional system prompt ("" = none)
	MaxTokens    int64             // upper bound on tokens to sample; required by the spec, > 0
}

// Method returns "sampling/createMessage".
func (*SamplingRequest) Method() string { return "sampling/createMessage" }

// SamplingResult is a client's answer to a sampling/createMessage request
// (MCP 2026-07-28, client/sampling: CreateMessageResult). Text joins the
// text content items of the answer ("" when it had none, e.g. only an image).
type SamplingResult struct {
	Role       string // normally "assistant"
	Text       string // the sampled text
	Model      string // the model the client used
	StopReason string // "endTurn", "stopSequence", "maxTokens", … ("" when not given)
}

func (*SamplingResult) isInputResponse() {}

// RootsRequest is the (empty) params of a roots/list input request
// (MCP 2026-07-28, client/roots: ListRootsRequest).
type RootsRequest struct{}

// Method returns "roots/list".
func (*RootsRequest) Method() string { return "roots/list" }

// Root is one root the client exposes (MCP 2026-07-28, client/roots: Root).
type Root struct {
	URI  string // a file:// URI
	Name string // optional display name
}

// RootsResult is a client's answer to a roots/list request
// (MCP 2026-07-28, client/roots: ListRootsResult).
type RootsResult struct {
	Roots []Root
}

func (*RootsResult) isInputResponse() {}

// Capabilities are the client capabilities a request declared in
// _meta["io.modelcontextprotocol/clientCapabilities"] (MCP 2026-07-28,
// basic: capabilities are per request and never inferred), reduced to what
// decides which input requests may be sent.
type Capabilities struct {
	// FormElicitation: {"elicitation":{}} or {"elicitation":{"form":{}}}.
	FormElicitation bool
	// URLElicitation: {"elicitation":{"url":{}}}.
	URLElicitation bool
	// Sampling: {"sampling":{…}}.
	Sampling bool
	// Roots: {"roots":{…}}.
	Roots bool
}

// Supports reports whether a client with these capabilities may be sent ir
// (MCP 2026-07-28, basic/patterns/mrtr: a server asks only for what the
// client declared). Unknown InputRequest types are not supported.
func (c Capabilities) Supports(ir InputRequest) bool {
	switch r := ir.(type) {
	case *ElicitRequest:
		if r.Mode == "url" {
			return c.URLElicitation
		}
		return c.FormElicitation
	case *SamplingRequest:
		return c.Sampling
	case *RootsRequest:
		return c.Roots
	}
	return false
}

// Filter returns the requests a client with these capabilities may be sent,
// by key, leaving out the rest (nil when none is left): the way to choose
// among alternative input requests by declared capability (MCP 2026-07-28,
// basic/patterns/mrtr: ask only for what the client declared).
func (c Capabilities) Filter(requests map[string]InputRequest) map[string]InputRequest {
	var out map[string]InputRequest
	for k, ir := range requests {
		if c.Supports(ir) {
			if out == nil {
				out = make(map[string]InputRequest, len(requests))
			}
			out[k] = ir
		}
	}
	return out
}
