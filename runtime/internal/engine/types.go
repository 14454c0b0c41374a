package engine

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Action is the user's answer to a form or URL a call asked for: [Accept],
// [Decline] or [Cancel]. See runtime.Action.
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
// a generated handler returns. See runtime.Result.
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
