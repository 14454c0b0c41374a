package engine

import "strings"

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

// Error returns "field: message", for example "date: must be a date (YYYY-MM-DD)".
func (e FieldError) Error() string { return e.Field + ": " + e.Message }

// ValidationError lists every broken rule of an argument struct, in field
// order, a field with several broken rules once per rule.
//
// Generated Validate, ApplyContent and ApplyPartial methods return it (as
// error) when any rule fails; it is then never empty. The rules are those of
// the requestedSchema (MCP 2026-07-28, client/elicitation; JSON Schema 2020-12
// Validation) plus "range" for values the Go type cannot hold. Use errors.As
// to get at the fields.
type ValidationError struct {
	Errors []FieldError
}

// Error joins the field errors' texts ([FieldError.Error]) with "; ".
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

// Fields returns the JSON names of the failing fields, in order, a field with
// several consecutive errors once; nil when there is none.
func (e *ValidationError) Fields() []string {
	var out []string
	for _, fe := range e.Errors {
		if len(out) == 0 || out[len(out)-1] != fe.Field {
			out = append(out, fe.Field)
		}
	}
	return out
}

// Has reports whether the field with JSON name field has an error.
func (e *ValidationError) Has(field string) bool {
	for _, fe := range e.Errors {
		if fe.Field == field {
			return true
		}
	}
	return false
}

// Add appends the field error {field, keyword, message} (see [FieldError])
// to e, which must not be nil. Generated code calls it through
// runtime/impl.AddFieldError, which allocates e on the first error.
func (e *ValidationError) Add(field, keyword, message string) {
	e.Errors = append(e.Errors, FieldError{Field: field, Keyword: keyword, Message: message})
}

// Err returns ve as an error, or a nil error when ve is nil or holds no
// field error. It avoids the typed-nil interface trap for generated code.
func (ve *ValidationError) Err() error {
	if ve == nil || len(ve.Errors) == 0 {
		return nil
	}
	return ve
}
