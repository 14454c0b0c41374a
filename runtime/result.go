package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
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
//
// Its fields:
//
//   - Text (string)
//   - Structured (any)
//   - IsError (bool)
//   - Native (any)
type Result = engine.Result

// Text returns a Result of one text.
func Text(text string) *Result { return engine.Text(text) }

// Textf returns a Result of one text, formatted with fmt.Sprintf.
func Textf(format string, args ...any) *Result { return engine.Textf(format, args...) }

// ToolError returns a tool error Result (isError: true) whose text is
// formatted with fmt.Sprintf: the model sees it and can correct its call.
func ToolError(format string, args ...any) *Result { return engine.ToolError(format, args...) }

// FieldError is one broken rule on one field.
//
// Field is the field's JSON name (the key in a form's content and in the tool's
// arguments). Keyword is the JSON Schema keyword whose rule failed ("type",
// "required", "minLength", "maxLength", "minimum", "maximum", "minItems",
// "maxItems", "enum", "format"), or "range" when the value fits the schema but
// not the Go type that holds it (300 for an int8). Message says what was wrong
// in words a user can act on.
//
// Its fields:
//
//   - Field, Keyword, Message (string)
//
// Its methods:
//
//   - Error() string: returns "field: message", for example "date: must be a
//     date (YYYY-MM-DD)".
type FieldError = engine.FieldError

// ValidationError lists every broken rule of an argument struct, in field
// order, a field with several broken rules once per rule.
//
// Generated Validate, ApplyContent and ApplyPartial methods return it (as
// error) when any rule fails; it is then never empty. The rules are those of
// the requestedSchema (MCP 2026-07-28, client/elicitation; JSON Schema 2020-12
// Validation) plus "range" for values the Go type cannot hold. Use errors.As
// to get at the fields.
//
// Its fields:
//
//   - Errors ([]FieldError)
//
// Its methods:
//
//   - Error() string: joins the field errors' texts ([FieldError.Error]) with
//     "; ".
//   - Fields() []string: returns the JSON names of the failing fields, in
//     order, a field with several consecutive errors once; nil when there is
//     none.
//   - Has(field string) bool: reports whether the field with JSON name field
//     has an error.
//   - Add(field, keyword, message string): appends the field error {field,
//     keyword, message} (see [FieldError]) to e, which must not be nil.
//   - Err() error: returns ve as an error, or a nil error when ve is nil or
//     holds no field error.
type ValidationError = engine.ValidationError
