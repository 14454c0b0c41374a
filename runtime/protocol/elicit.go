package protocol

import "github.com/invopop/jsonschema"

// Action is the user's answer to an elicitation (MCP 2026-07-28,
// client/elicitation: ElicitResult.action), one of [Accept], [Decline] and
// [Cancel]. Package runtime re-exports it as runtime.Action.
type Action string

// The three response actions of an ElicitResult (MCP 2026-07-28,
// client/elicitation: the three response actions).
const (
	// Accept: the user submitted the form. The content is still network
	// input and is validated against the schema that was sent.
	Accept Action = "accept"
	// Decline: the user refused this request. It is never asked again.
	Decline Action = "decline"
	// Cancel: the user walked away. The call stops; nothing more is asked.
	Cancel Action = "cancel"
)

// InputRequest is one request a server embeds in an input-required result's
// inputRequests map (SEP-2322, MCP 2026-07-28 basic/patterns/mrtr):
// *[ElicitRequest], *[SamplingRequest] or *[RootsRequest].
type InputRequest interface {
	// Method is the JSON-RPC method the client would have received:
	// "elicitation/create", "sampling/createMessage" or "roots/list".
	Method() string
}

// ElicitRequest is the params of an elicitation/create input request
// (MCP 2026-07-28, client/elicitation): in form mode, RequestedSchema is the
// flat object schema of the fields asked for (the restricted grammar of
// "Requested Schema": primitives and single or multi selects, no nesting); in
// URL mode, URL is the page the user opens.
type ElicitRequest struct {
	Mode            string             // "form" or "url"
	Message         string             // shown to the user; required
	RequestedSchema *jsonschema.Schema // form mode: {"type":"object","properties":{…},"required":[…]}
	// RequestedSchemaJSON is RequestedSchema encoded as JSON when the
	// engine holds it encoded already (a form without run-time rules,
	// whose schema and encoding it keeps for the process), else nil. An
	// adapter sends these bytes as they are rather than encode
	// RequestedSchema again: invopop's encoder takes about 20 µs for a
	// three-field form, most of what a first call costs the engine.
	RequestedSchemaJSON []byte
	URL                 string // URL mode: the page to open (client/elicitation, URL Mode Elicitation Requests)
	// ElicitationID identifies a URL-mode request (MCP 2025-11-25,
	// client/elicitation: the id notifications/elicitation/complete names).
	// 2026-07-28 has no such field; it is sent anyway, harmless, as some
	// clients require it.
	ElicitationID string
}

// Method returns "elicitation/create".
func (*ElicitRequest) Method() string { return "elicitation/create" }

// InputResponse is one answer in a retry's inputResponses map (SEP-2322,
// MCP 2026-07-28 basic/patterns/mrtr): *[ElicitResult], *[SamplingResult]
// or *[RootsResult]; the interface is sealed. An adapter passes an answer it
// cannot decode as nil; the flow then rejects the retry with
// [CodeInvalidParams] (-32602).
type InputResponse interface {
	isInputResponse()
}

// ElicitResult is a client's answer to an elicitation/create request
// (MCP 2026-07-28, client/elicitation: ElicitResult). Content is present
// only with [Accept] and is ignored otherwise (a "content": null is
// tolerated); its values are the decoded JSON of the form's fields, by name.
type ElicitResult struct {
	Action  Action
	Content map[string]any
	// Refused, when set, says why the client refused its own accepted
	// answer and sent an error instead (go-sdk's client checks its answer
	// against the requestedSchema; [Request.Send] on a session), in words
	// that quote no value; Content is then nil. The flow asks the form
	// again with the reason, as it does an answer that breaks a rule.
	Refused string
}

func (*ElicitResult) isInputResponse() {}
