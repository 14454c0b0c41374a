package engine

import "strings"

// FieldError is one broken rule on one field. See runtime.FieldError.
type FieldError struct {
	Field   string
	Keyword string
	Message string
}

// Error returns "field: message", for example "date: must be a date (YYYY-MM-DD)".
func (e FieldError) Error() string { return e.Field + ": " + e.Message }

// ValidationError lists every broken rule of an argument struct, in field
// order, a field with several broken rules once per rule. See
// runtime.ValidationError.
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
