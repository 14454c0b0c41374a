package runtime

import (
	"fmt"

	"github.com/invopop/jsonschema"
)

// Action is the user's answer to an elicitation (MCP 2026-07-28,
// client/elicitation: ElicitResult.action).
type Action string

// The three actions of an ElicitResult.
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
// inputRequests map (SEP-2322): *[ElicitRequest], *[SamplingRequest] or
// *[RootsRequest].
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
	URL             string             // URL mode: the page to open (client/elicitation, URL Mode Elicitation Requests)
}

// Method returns "elicitation/create".
func (*ElicitRequest) Method() string { return "elicitation/create" }

// InputResponse is one answer in a retry's inputResponses map:
// *[ElicitResult], *[SamplingResult] or *[RootsResult]. An adapter passes an
// answer it cannot decode as nil; the flow then rejects the retry with -32602.
type InputResponse interface {
	isInputResponse()
}

// ElicitResult is a client's answer to an elicitation/create request
// (MCP 2026-07-28, client/elicitation: ElicitResult). Content is present
// only with Accept and is ignored otherwise (a "content": null is tolerated).
type ElicitResult struct {
	Action  Action
	Content map[string]any
}

func (*ElicitResult) isInputResponse() {}

// Result is the SDK-neutral result of a tool call or prompt: what a branch of
// a generated handler returns.
//
// Text becomes one text content item (or, for a prompt, one user message);
// Structured, when non-nil, becomes the tool's structuredContent; IsError
// marks a tool error result the model can read (MCP 2026-07-28,
// server/tools: error handling). Native, when non-nil, is an SDK's own result
// (*mcp.CallToolResult, *mcp.GetPromptResult, mcp-go's types) that the
// adapter returns unchanged, for images, resources and anything else Text
// cannot carry; the other fields are then ignored.
type Result struct {
	Text       string
	Structured any
	IsError    bool
	Native     any
}

// Text returns a Result of one text.
func Text(text string) *Result { return &Result{Text: text} }

// Textf returns a Result of one text, formatted with fmt.Sprintf.
func Textf(format string, args ...any) *Result {
	return &Result{Text: fmt.Sprintf(format, args...)}
}

// ToolError returns a tool error Result (isError: true) whose text is
// formatted with fmt.Sprintf: the model sees it and can correct its call.
func ToolError(format string, args ...any) *Result {
	return &Result{Text: fmt.Sprintf(format, args...), IsError: true}
}

// Native returns a Result that hands an SDK's own result value v (for example
// *mcp.CallToolResult) through the adapter unchanged. An adapter that does
// not know v's type ignores it and sends the other fields, which are empty.
func Native(v any) *Result { return &Result{Native: v} }
