package engine

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Action is the user's answer to a form or URL a call asked for: [Accept],
// [Decline] or [Cancel]. It picks the branch of a generated handler that
// runs (its Accept, Decline or Cancel method) and is what [Ask] and [AskURL]
// return; it is the action of the client's elicitation answer (MCP
// 2026-07-28, client/elicitation: ElicitResult.action), the same type as
// protocol.Action.
type Action = protocol.Action

// The three actions a user can answer with (MCP 2026-07-28,
// client/elicitation: the three response actions).
const (
	// Accept: the user submitted the form. The content is still network
	// input and is validated against the schema that was sent.
	Accept Action = protocol.Accept
	// Decline: the user refused this request. It is never asked again.
	Decline Action = protocol.Decline
	// Cancel: the user walked away. The call stops; nothing more is asked.
	Cancel Action = protocol.Cancel
)

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
