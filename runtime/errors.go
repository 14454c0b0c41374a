package runtime

import (
	"strconv"
	"strings"
)

// FieldError is one broken rule on one field.
//
// Field is the field's JSON name (the key in a form's content and in the tool's
// arguments). Keyword is the JSON Schema keyword whose rule failed ("type",
// "required", "minLength", "maxLength", "minimum", "maximum", "minItems",
// "maxItems", "enum", "format"), or "range" when the value fits the schema but
// not the Go type that holds it (300 for an int8). Message says what was wrong
// in words a user can act on.
type FieldError struct {
	Field   string
	Keyword string
	Message string
}

// Error returns "field: message".
func (e FieldError) Error() string { return e.Field + ": " + e.Message }

// ValidationError lists every field that failed validation, in field order.
//
// Generated Validate and ApplyContent methods return it (as error) when any
// rule fails; it is never empty. Use errors.As to get at the fields.
type ValidationError struct {
	Errors []FieldError
}

// Error joins the field errors with "; ".
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, fe := range e.Errors {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(fe.Error())
	}
	return b.String()
}

// Fields returns the JSON names of the failing fields, each once, in order.
func (e *ValidationError) Fields() []string {
	var out []string
	for _, fe := range e.Errors {
		if len(out) == 0 || out[len(out)-1] != fe.Field {
			out = append(out, fe.Field)
		}
	}
	return out
}

// Has reports whether field has an error.
func (e *ValidationError) Has(field string) bool {
	for _, fe := range e.Errors {
		if fe.Field == field {
			return true
		}
	}
	return false
}

// Add appends a field error. Generated code calls it on a nil-initialised
// *ValidationError through [AddFieldError].
func (e *ValidationError) Add(field, keyword, message string) {
	e.Errors = append(e.Errors, FieldError{Field: field, Keyword: keyword, Message: message})
}

// AddFieldError appends a field error to *ve, allocating the ValidationError on
// first use, so that a validation that passes allocates nothing.
func AddFieldError(ve **ValidationError, field, keyword, message string) {
	if *ve == nil {
		*ve = &ValidationError{}
	}
	(*ve).Add(field, keyword, message)
}

// Err returns ve as an error, or nil when ve is nil. It avoids the typed-nil
// interface trap for generated code.
func (ve *ValidationError) Err() error {
	if ve == nil || len(ve.Errors) == 0 {
		return nil
	}
	return ve
}

// JSON-RPC error codes used by the flow (MCP 2026-07-28, basic: error codes).
const (
	// CodeInvalidParams is JSON-RPC's invalid params: a requestState that does
	// not open or does not match, or malformed inputResponses.
	CodeInvalidParams = -32602
	// CodeMissingCapability is MCP's "missing required client capability";
	// its data carries requiredCapabilities.
	CodeMissingCapability = -32021
	// CodeInternalError is JSON-RPC's internal error: the at-most-once
	// [Store] failed, or another request of the same call is still running;
	// no branch ran, and the client may retry.
	CodeInternalError = -32603
)

// ProtocolError is a JSON-RPC error the flow asks the adapter to return
// instead of a result. Code is a JSON-RPC error code ([CodeInvalidParams],
// [CodeMissingCapability]); Data, when non-nil, is sent as the error's data.
type ProtocolError struct {
	Code    int64
	Message string
	Data    any
}

// Error returns the message with its code.
func (e *ProtocolError) Error() string {
	return e.Message + " (JSON-RPC " + strconv.FormatInt(e.Code, 10) + ")"
}
