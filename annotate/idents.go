package annotate

import (
	"go/token"
	"math"
	"strconv"
	"strings"
)

// This file is the one place that spells the names mcpgen generates: the
// files, the package-level identifiers and the methods. [Struct.Derive]
// writes them into the model (Struct.Names, Field.Check, …) once, with the
// predicates that follow from the tags, and package gen declares them as
// they are. Load and Check report a generated name a user must call or
// implement that collides with one the package declares (collide.go).
//
// The helpers only generated code calls are spelled the way stringer spells
// its own (_T_name): a leading underscore and the struct's name, which no
// reasonable hand-written code declares, so that they need no collision
// check against the package.

// The methods mcpgen declares on each struct T in t_elicit.go that the
// runtime's interfaces require (runtime.Form, and runtime.Asker's message).
const (
	MethodMissingFields   = "MissingFields"
	MethodRequestedSchema = "RequestedSchema"
	MethodApplyContent    = "ApplyContent"
	MethodApplyPartial    = "ApplyPartial"
	MethodValidate        = "Validate"
	// MethodElicitMessage returns a question's //mcpgen:message, which
	// runtime.Ask shows when the ask gives none; declared only then.
	MethodElicitMessage = "ElicitMessage"
)

// The unexported methods mcpgen declares on each struct (see [Names]).
const (
	// MethodApplyContentImpl is the method behind ApplyContent and
	// ApplyPartial.
	MethodApplyContentImpl = "_mcpgenApply"
	// MethodDecodeArguments decodes a tool's arguments by exact JSON name
	// and checks its plain arguments; declared for tools only.
	MethodDecodeArguments = "_mcpgenDecode"
)

// The methods of the handler interface, which the handler type of the file
// written once implements.
const (
	MethodAccept  = "Accept"
	MethodDecline = "Decline"
	MethodCancel  = "Cancel"
	// MethodUnaskable is the handler's optional fallback for a client that
	// cannot be asked; the skeleton declares it, the interface does not.
	MethodUnaskable = "Unaskable"
)

// ElicitFileName is the generated file's name for struct type name:
// the lower-cased name and "_elicit.go" (stringer's convention).
func ElicitFileName(name string) string { return strings.ToLower(name) + "_elicit.go" }

// HandlerFileName is the name of the handler file written once.
func HandlerFileName(name string) string { return strings.ToLower(name) + "_handler.go" }

// HandlerTypeName is the name of the handler type in the handler file
// mcpgen writes once: the struct name with a lower-case first letter and
// "Handler" appended.
func HandlerTypeName(name string) string { return lowerFirst(name) + "Handler" }

func interfaceName(name string) string { return name + "Handler" }
func flowFuncName(name string) string  { return "New" + name + "Flow" }

// Derive sets the members of s and of its fields and plain arguments that
// follow from the others: every generated name ([Names], Field.Check, …) and
// every predicate the renderer reads (Struct.AcceptOnly, Field.Unsigned, …).
// The loader calls it for every struct it models; a model built by hand
// calls it once its other members are set.
func (s *Struct) Derive() {
	s.AcceptOnly = !s.Question && len(s.Fields) == 0
	s.Opaque, s.SchemaWritten, s.Decodes = false, !s.Question && !s.DecodesItself, !s.Question && !s.DecodesItself
	for _, g := range s.Args {
		s.Opaque = s.Opaque || g.Opaque
		if g.Opaque || g.Annotated {
			s.SchemaWritten = false
		}
		if g.ViaPointer || g.WholeStruct {
			s.Decodes = false
		}
		g.derive()
	}
	s.Names = Names{ElicitFile: ElicitFileName(s.Name), Apply: MethodApplyContentImpl}
	if !s.Question {
		s.Names.HandlerFile = HandlerFileName(s.Name)
		s.Names.Interface = interfaceName(s.Name)
		s.Names.FlowFunc = flowFuncName(s.Name)
		s.Names.HandlerType = HandlerTypeName(s.Name)
	}
	if s.Decodes {
		s.Names.Decode = MethodDecodeArguments
	}
	if len(s.Fields) > 0 {
		s.Names.Properties = "_" + s.Name + "_properties"
	}
	for _, f := range s.Fields {
		f.derive(s)
	}
}

// derive sets the derived members of field f of struct s.
func (f *Field) derive(s *Struct) {
	f.SchemaType = f.Kind.String()
	f.Unsigned = unsigned(f.Basic)
	f.LowerBound = f.Minimum != nil && !(f.Kind == Integer && f.Unsigned && *f.Minimum <= 0)
	f.UpperBound = f.Maximum != nil && !(f.Kind == Integer && f.Unsigned && f.Basic == "uint64" &&
		f.MaximumLit == strconv.FormatUint(math.MaxUint64, 10))
	var checked bool
	switch f.Kind {
	case String:
		checked = f.MinLength != nil || f.MaxLength != nil || f.Format != "" || len(f.Enum) > 0
	case Integer, Number:
		checked = f.LowerBound || f.UpperBound
	case MultiSelect:
		checked = len(f.Enum) > 0 || f.MinItems != nil || f.MaxItems != nil
	}
	path := strings.Join(f.Path, "_")
	f.Check, f.CheckStored, f.ChoicesMethod = "", "", ""
	if checked {
		f.Check = "_" + s.Name + "_check_" + path
	}
	if f.Kind == Number && f.Basic == "float32" && (f.LowerBound || f.UpperBound) {
		f.CheckStored = "_" + s.Name + "_checkStored_" + path
	}
	if f.Choices && !s.Question {
		f.ChoicesMethod = strings.Join(f.Path, "") + "Choices"
	}
}

// derive sets the derived members of plain argument g.
func (g *Arg) derive() {
	g.SchemaType = ""
	if !g.Opaque {
		g.SchemaType = g.Kind.String()
	}
	g.Rules = g.Format != "" || g.MinLength != nil || g.MaxLength != nil ||
		g.Minimum != "" || g.Maximum != "" || g.ExclusiveMinimum != "" || g.ExclusiveMaximum != "" || len(g.Enum) > 0
}

// unsigned reports whether predeclared type basic is an unsigned integer.
func unsigned(basic string) bool {
	switch basic {
	case "uint", "uint8", "uint16", "uint32", "uint64", "uintptr":
		return true
	}
	return false
}

// Ident is one identifier mcpgen declares for a struct.
type Ident struct {
	Name string
	Kind string // "function", "interface", "type", "method" or "variable"
	Recv string // the receiver type of a method
	For  string // what it is for: "Args", or "field Inner.Date of Args"
	File string // the base name of the file that declares it
	// Pos is the position of what it is for: the field of a check function,
	// else the struct.
	Pos token.Position
	// Once: declared in the handler file written once (the user's), where
	// the package may already declare it.
	Once bool
	// Helper: only generated code calls it, and its name is of the _T_name
	// style no user code declares (see [Names]).
	Helper bool
}

// Describe is how a diagnostic names the identifier: "generated function
// _Args_check_Date (for field Date of Args)".
func (id Ident) Describe() string {
	name := id.Name
	if id.Kind == "method" {
		name = id.Recv + "." + id.Name
	}
	return "generated " + id.Kind + " " + name + " (for " + id.For + ")"
}

// StructIdents returns every identifier mcpgen declares for s, read from
// its model (see [Struct.Derive]): its methods, its properties variable, its check functions, the
// handler interface and flow constructor (all in Names.ElicitFile), and the
// handler type of the handler file.
func StructIdents(s *Struct) []Ident {
	elicit := s.Names.ElicitFile
	method := func(name string, helper bool) Ident {
		return Ident{Name: name, Kind: "method", Recv: s.Name, For: s.Name, File: elicit, Pos: s.Pos, Helper: helper}
	}
	var out []Ident
	for _, m := range []string{MethodMissingFields, MethodRequestedSchema, MethodApplyContent, MethodApplyPartial, MethodValidate} {
		out = append(out, method(m, false))
	}
	out = append(out, method(s.Names.Apply, true))
	if s.Names.Properties != "" {
		out = append(out, Ident{Name: s.Names.Properties, Kind: "variable", For: s.Name, File: elicit, Pos: s.Pos, Helper: true})
	}
	if s.Question && s.Message != "" {
		out = append(out, method(MethodElicitMessage, false))
	}
	for _, fd := range s.Fields {
		what := "field " + strings.Join(fd.Path, ".") + " of " + s.Name
		for _, name := range []string{fd.Check, fd.CheckStored} {
			if name != "" {
				out = append(out, Ident{Name: name, Kind: "function", For: what, File: elicit, Pos: fd.Pos, Helper: true})
			}
		}
	}
	if s.Question {
		return out // no handler interface, flow constructor or handler file
	}
	if s.Names.Decode != "" {
		out = append(out, method(s.Names.Decode, true))
	}
	out = append(out,
		Ident{Name: s.Names.Interface, Kind: "interface", For: s.Name, File: elicit, Pos: s.Pos},
		Ident{Name: s.Names.FlowFunc, Kind: "function", For: s.Name, File: elicit, Pos: s.Pos},
		Ident{Name: s.Names.HandlerType, Kind: "type", For: s.Name, File: s.Names.HandlerFile, Once: true, Pos: s.Pos},
	)
	return out
}

func lowerFirst(name string) string {
	if name == "" {
		return name
	}
	return strings.ToLower(name[:1]) + name[1:]
}
