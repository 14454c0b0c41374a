package impl

import "github.com/mcpgen/mcpgen/runtime/internal/engine"

// AddFieldError appends the field error {field, keyword, message} to *ve,
// allocating the *runtime.ValidationError on the first error, so that a
// validation that passes allocates nothing and leaves *ve nil. field is the
// field's JSON name, keyword the JSON Schema keyword that failed ("type",
// "required", "minimum", …, or "range"), message the text after "field: ".
// ve must not be nil. It is never inlined: it runs only for a refused
// answer, and inlined at every field of a generated ApplyContent it made an
// accepted answer about 6 % slower (bench, BenchmarkAccept on everykind).
//
//go:noinline
func AddFieldError(ve **engine.ValidationError, field, keyword, message string) {
	if *ve == nil {
		*ve = &engine.ValidationError{}
	}
	(*ve).Add(field, keyword, message)
}
