package annotate

import (
	"go/token"
	"math"
	"strconv"
	"strings"
)

// This file is the one place that spells the names mcpgen generates: the
// files, the package-level identifiers and the methods. Package gen takes
// every name it declares from here, and Load and Check report a generated
// name that collides with another generated name or with one the package
// declares.

// The methods mcpgen declares on each struct T in t_elicit.go.
const (
	MethodMissingFields   = "MissingFields"
	MethodRequestedSchema = "RequestedSchema"
	MethodApplyContent    = "ApplyContent"
	MethodApplyPartial    = "ApplyPartial"
	MethodValidate        = "Validate"
	// MethodApplyContentImpl is the unexported method behind ApplyContent
	// and ApplyPartial.
	MethodApplyContentImpl = "applyContent"
	// MethodDecodeArguments decodes a tool's arguments by exact JSON name
	// and checks its plain arguments; declared for tools only.
	MethodDecodeArguments = "decodeArguments"
	// MethodElicitMessage returns a question's //mcpgen:message, which
	// runtime.Ask shows when the ask gives none; declared only then.
	MethodElicitMessage = "ElicitMessage"
)

// The methods of the handler interface, which the handler type of the file
// written once implements.
const (
	MethodAccept  = "Accept"
	MethodDecline = "Decline"
	MethodCancel  = "Cancel"
)

// GeneratedMethods returns the methods mcpgen declares on every struct it
// generates for, in the order of the generated file.
func GeneratedMethods() []string {
	return []string{MethodMissingFields, MethodRequestedSchema, MethodApplyContent, MethodApplyPartial, MethodApplyContentImpl, MethodValidate}
}

// ChoicesMethodName is the handler interface's method that lists the
// run-time options of elicit:"choices" field fd of a tool's arguments:
// <Field>Choices, the path through embedded structs joined.
func ChoicesMethodName(fd *Field) string { return strings.Join(fd.Path, "") + "Choices" }

// InterfaceName is the handler interface generated for struct type name.
func InterfaceName(name string) string { return name + "Handler" }

// FlowFuncName is the flow constructor generated for struct type name.
func FlowFuncName(name string) string { return "New" + name + "Flow" }

// HandlerTypeName is the name of the handler type in the handler file
// mcpgen writes once: the struct name with a lower-case first letter and
// "Handler" appended.
func HandlerTypeName(name string) string {
	return lowerFirst(name) + "Handler"
}

// ElicitFileName is the generated file's name for struct type name:
// the lower-cased name and "_elicit.go" (stringer's convention).
func ElicitFileName(name string) string { return strings.ToLower(name) + "_elicit.go" }

// HandlerFileName is the name of the handler file written once.
func HandlerFileName(name string) string { return strings.ToLower(name) + "_handler.go" }

// CheckFuncName is the function that checks the rules of field fd of struct
// type name: <name>Check<Field>, the path through embedded structs joined
// with "_" (argsCheckInner_Date for Inner.Date, argsCheckInnerDate for
// InnerDate), so that a promoted field and a field spelled like its path
// do not share a name.
func CheckFuncName(name string, fd *Field) string {
	return lowerFirst(name) + "Check" + strings.Join(fd.Path, "_")
}

// StoredCheckFuncName is the function that checks the bounds of a float32
// field on the stored value (see [Field.StoredFloat32]).
func StoredCheckFuncName(name string, fd *Field) string {
	return CheckFuncName(name, fd) + "Stored"
}

// GeneratedIdents returns the package-level identifiers reserved for struct
// type name whatever its fields: the handler interface, the flow
// constructor, and the handler type of the file written once. A package
// that uses them before they are generated is not in error.
func GeneratedIdents(name string) []string {
	return []string{InterfaceName(name), FlowFuncName(name), HandlerTypeName(name)}
}

// Ident is one identifier mcpgen declares for a struct.
type Ident struct {
	Name string
	Kind string // "function", "interface", "type" or "method"
	Recv string // the receiver type of a method
	For  string // what it is for: "Args", or "field Inner.Date of Args"
	File string // the base name of the file that declares it
	// Pos is the position of what it is for: the field of a check function,
	// else the struct.
	Pos token.Position
	// Once: declared in the handler file written once (the user's), where
	// the package may already declare it.
	Once bool
}

// Describe is how a diagnostic names the identifier: "generated function
// argsCheckDate (for field Date of Args)".
func (id Ident) Describe() string {
	name := id.Name
	if id.Kind == "method" {
		name = id.Recv + "." + id.Name
	}
	return "generated " + id.Kind + " " + name + " (for " + id.For + ")"
}

// StructIdents returns every identifier mcpgen declares for s: its methods,
// its check functions, the handler interface and flow constructor (all in
// ElicitFileName), and the handler type of the handler file.
func StructIdents(s *Struct) []Ident {
	elicit := ElicitFileName(s.Name)
	var out []Ident
	for _, m := range GeneratedMethods() {
		out = append(out, Ident{Name: m, Kind: "method", Recv: s.Name, For: s.Name, File: elicit, Pos: s.Pos})
	}
	if s.Question && s.Message != "" {
		out = append(out, Ident{Name: MethodElicitMessage, Kind: "method", Recv: s.Name, For: s.Name, File: elicit, Pos: s.Pos})
	}
	for _, fd := range s.Fields {
		what := "field " + strings.Join(fd.Path, ".") + " of " + s.Name
		if fd.HasChecks() {
			out = append(out, Ident{Name: CheckFuncName(s.Name, fd), Kind: "function", For: what, File: elicit, Pos: fd.Pos})
		}
		if fd.StoredFloat32() {
			out = append(out, Ident{Name: StoredCheckFuncName(s.Name, fd), Kind: "function", For: what, File: elicit, Pos: fd.Pos})
		}
	}
	if s.Question {
		return out // no handler interface, flow constructor or handler file
	}
	out = append(out, Ident{Name: MethodDecodeArguments, Kind: "method", Recv: s.Name, For: s.Name, File: elicit, Pos: s.Pos})
	out = append(out,
		Ident{Name: InterfaceName(s.Name), Kind: "interface", For: s.Name, File: elicit, Pos: s.Pos},
		Ident{Name: FlowFuncName(s.Name), Kind: "function", For: s.Name, File: elicit, Pos: s.Pos},
		Ident{Name: HandlerTypeName(s.Name), Kind: "type", For: s.Name, File: HandlerFileName(s.Name), Once: true, Pos: s.Pos},
	)
	return out
}

// HasChecks reports whether the field has rules beyond its JSON type, and
// so a check function ([CheckFuncName]).
func (f *Field) HasChecks() bool {
	switch f.Kind {
	case String:
		return f.MinLength != nil || f.MaxLength != nil || f.Format != "" || len(f.Enum) > 0
	case Integer, Number:
		return f.HasLowerBound() || f.HasUpperBound()
	case MultiSelect:
		return len(f.Enum) > 0 || f.MinItems != nil || f.MaxItems != nil
	}
	return false
}

// HasLowerBound reports whether minimum says more than the Go type does.
func (f *Field) HasLowerBound() bool {
	if f.Minimum == nil {
		return false
	}
	return !(f.Kind == Integer && f.Unsigned() && *f.Minimum <= 0)
}

// HasUpperBound reports whether maximum says more than the Go type does.
func (f *Field) HasUpperBound() bool {
	if f.Maximum == nil {
		return false
	}
	return !(f.Kind == Integer && f.Unsigned() && f.Basic == "uint64" && f.MaximumLit == strconv.FormatUint(math.MaxUint64, 10))
}

// StoredFloat32 reports whether a float32 field has bounds: Validate then
// checks the stored float32 against the bounds rounded to float32, since an
// answer that meets a bound exactly (0.7) may round below it in float32
// (0.699999988); rounding is monotonic, so what ApplyContent accepted
// always passes. It has a second check function ([StoredCheckFuncName]).
func (f *Field) StoredFloat32() bool {
	return f.Kind == Number && f.Basic == "float32" && (f.HasLowerBound() || f.HasUpperBound())
}

func lowerFirst(name string) string {
	if name == "" {
		return name
	}
	return strings.ToLower(name[:1]) + name[1:]
}
