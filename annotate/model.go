// Package annotate loads Go packages, finds the structs whose fields carry
// `elicit:"…"` tags, parses and checks the tags, and returns a model of each
// struct for package gen, with positioned diagnostics for everything wrong.
//
// It knows Go source and the tag grammar (docs/tags.md, "The tag"), and spells the
// names of the output (idents.go); gen writes the output.
package annotate

import (
	"go/token"
	"strings"
)

// Kind is the JSON Schema shape of an elicitable field (MCP 2026-07-28,
// client/elicitation: the primitive property types of requestedSchema).
type Kind int

// The kinds of the 2026-07-28 requestedSchema grammar.
const (
	String      Kind = iota // string kinds: {"type":"string"}
	Integer                 // int kinds: {"type":"integer"}
	Number                  // float kinds: {"type":"number"}
	Boolean                 // bool: {"type":"boolean"}
	DateTime                // time.Time: {"type":"string","format":"date-time"} (or "date")
	MultiSelect             // []string or []NamedString with an enum: {"type":"array","items":…}
)

// String returns the JSON Schema type name of the kind.
func (k Kind) String() string {
	switch k {
	case String, DateTime:
		return "string"
	case Integer:
		return "integer"
	case Number:
		return "number"
	case Boolean:
		return "boolean"
	case MultiSelect:
		return "array"
	}
	return "unknown"
}

// Package is the model of one loaded package: its annotated structs.
type Package struct {
	Name    string    // package name
	Path    string    // import path
	Dir     string    // directory of the package's files
	Structs []*Struct // annotated structs, in source order
	// Tools are the package's tools for its tools file (ToolsFileName:
	// Handlers and Flows), in order of tool name. In a package that names
	// its structs with -type (in its //go:generate mcpgen directives, or,
	// when it has none, on the command line): every struct so named that
	// is not a question;
	// otherwise every struct with an elicit tag or a //mcpgen:tool
	// directive that is not a question. Whichever of those a run generates
	// for, so that every run writes the same file. Left out: a struct with
	// type parameters, and one whose file has a build constraint (the tools
	// file has none). None: no tools file.
	Tools []ToolEntry
	// TakenNames are the package-level names the package declares (outside
	// mcpgen's output) that could be an import's name: lower-case letters
	// and digits only, as package names and jennifer's import names are;
	// sorted. A generated file imports a package whose name is one of them
	// under another name, so that the user's json (the jsoniter idiom),
	// time or context blocks nothing.
	TakenNames []string
	// Stale lists mcpgen's own generated files in the package whose methods
	// are all on receiver types the package no longer declares (the struct
	// was renamed or deleted): they no longer compile and are to be removed.
	// Only [Load] fills it.
	Stale []StaleFile

	load *loaded // what Load loaded, for TypeCheck
	// unresolved: fields left out of the model because their type is
	// invalid (an error elsewhere, or a name only mcpgen's output declares).
	unresolved []Diagnostic
	// unrequested: the package's other annotated structs, when -type names
	// some (see [Package.Unrequested]).
	unrequested *Package
	// unrequestedDiags: the problems of those structs, which keep their
	// output from being type-checked with the requested structs' (see
	// [Package.UnrequestedDiagnostics]).
	unrequestedDiags []Diagnostic
	// warnings: see [Package.Warnings].
	warnings []Diagnostic
}

// Unresolved returns a diagnostic for each field left out of the model
// because go/types gave it an invalid type when mcpgen's output was read as
// empty. When the package type-checks with the new output (TypeCheck), the
// field's type names something only that output declares, which a model
// built before it cannot hold: the driver reports these then. Otherwise the
// type errors say what is wrong.
func (p *Package) Unresolved() []Diagnostic { return p.unresolved }

// Unrequested returns the model of the package's annotated structs that
// [Config.Types] left out (nil: none, or one of them has a diagnostic):
// their output is type-checked with the requested structs' but not written.
func (p *Package) Unrequested() *Package { return p.unrequested }

// UnrequestedDiagnostics returns the problems of the package's annotated
// structs that [Config.Types] left out (their own directive reports them):
// while they have any, their output cannot be built for the type check, so
// the package's calls into it do not compile; the driver reports these
// beside such type errors, which they explain.
func (p *Package) UnrequestedDiagnostics() []Diagnostic { return p.unrequestedDiags }

// StaleFile is a generated file of mcpgen's whose types are gone, or a
// generated t_elicit.go named for no struct type of the package.
type StaleFile struct {
	Path  string   // the file
	Types []string // the receiver types of its methods, none of which exists any more
	// Unnamed: the file is a t_elicit.go and the package declares no struct
	// t (a rename that also edited the generated file, as gopls does, left
	// its methods on the new type, which has a file of its own).
	Unnamed bool
	// NoTools: the file is the package's tools file (ToolsFileName) and the
	// package has no tool any more.
	NoTools bool
}

// Reason says why the file is stale, as mcpgen -v prints it: "type A no
// longer exists", "types A, B no longer exist", "named for no struct of the
// package", "the package has no tool any more", or, for a stub an earlier run emptied, "emptied by an earlier
// run".
func (s StaleFile) Reason() string {
	switch {
	case s.Unnamed:
		return "named for no struct of the package"
	case s.NoTools:
		return "the package has no tool any more"
	case len(s.Types) == 0:
		return "emptied by an earlier run"
	case len(s.Types) == 1:
		return "type " + s.Types[0] + " no longer exists"
	}
	return "types " + strings.Join(s.Types, ", ") + " no longer exist"
}

// Struct is one annotated struct: a tool's arguments, or a question.
type Struct struct {
	Name string         // Go type name
	Pos  token.Position // position of the type name
	// File is the path of the file that declares the struct: its own name,
	// not one a //line comment gives (Go spec, "Comments"; cmd/compile).
	File string
	// BuildConstraint is the build constraint of File, as its //go:build
	// line's expression (go/build/constraint's form; a file with only
	// legacy // +build lines has them joined into that form), or "" when
	// the file has none. gen writes it as the //go:build line of the
	// struct's generated and handler files, so they build exactly when the
	// struct does.
	BuildConstraint string
	// Question (//mcpgen:question): a question a branch asks with
	// runtime.Ask, not a tool's arguments: the same methods, and no handler
	// interface, flow constructor or handler file. Tool and Key are empty.
	Question bool
	// URLMode (//mcpgen:question url): a question asked in URL mode (MCP
	// 2026-07-28, client/elicitation, "URL Mode Elicitation Requests"): the
	// user answers it on the server's own page (package runtime/page), never
	// through the client, so it may hold secret fields (Field.Secret). Its
	// generated file also registers it, with the page's HTML form
	// (impl.RegisterURLQuestion). Only with Question.
	URLMode bool

	Tool            string // tool name (//mcpgen:tool NAME …; default snake_case of Name without an Args/Input/Params suffix)
	ToolDescription string // tool description (//mcpgen:tool NAME DESCRIPTION…)
	Message         string // elicitation message (//mcpgen:message …)
	Key             string // input request key (//mcpgen:key NAME; default Tool)
	Unsealed        bool   // //mcpgen:unsealed: accept answers that arrive without requestState
	MaxRounds       int    // //mcpgen:rounds N (0: the runtime's default)
	// LegacyEnumNames (//mcpgen:enumnames):
	// titled single selects are written {"type":"string","enum":[…],"enumNames":[…]},
	// the deprecated form of MCP 2025-06-18, instead of oneOf of const+title.
	// Titled multi selects keep anyOf (the legacy form has no arrays).
	LegacyEnumNames bool
	// Clients (//mcpgen:clients LIST in the struct's doc comment, else in
	// its file's): the clients the build-time client check judges the
	// struct's form for; nil when neither has the directive (the check then
	// judges it for the clients mcpgen's -clients flag names).
	Clients *ClientList
	// HandlerDeclared: the package already declares the handler type
	// (HandlerTypeName(Name)) in a file that is not mcpgen's output, e.g. a
	// handler file the user moved or renamed. gen then writes no
	// <name>_handler.go for the struct, which would declare the type twice.
	HandlerDeclared bool

	Fields []*Field // elicitable fields, in encoding/json field order
	// Args are the tool's plain arguments: the other fields its arguments
	// fill, in encoding/json field order (none for a question).
	Args []*Arg
	// DecodesItself: the struct has its own UnmarshalJSON or UnmarshalText
	// (perhaps promoted from an embedded type) or JSONSchema method: the
	// runtime decodes it with encoding/json and reflects its input schema.
	DecodesItself bool
	// Order is the JSON names of Fields and Args together, in encoding/json
	// field order: the order of the input schema's properties.
	Order []string
	// Shape is the digest of the struct's fields as reflect sees them (Go
	// names, embedding, order, types, tags; package internal/shape), from
	// go/types: generated code hands it to the runtime, which refuses to
	// build the flow of a struct whose digest is no longer this one (the
	// struct changed without go generate). Nil when a field's type did not
	// resolve: nothing is checked then.
	Shape []string

	// The members below follow from the ones above; [Struct.Derive] sets
	// them once when the model is built, so that the renderer reads them
	// as data.

	// Names spells every file and identifier mcpgen generates for the struct.
	Names Names
	// AcceptOnly: a tool's arguments without an elicitable field. Nothing is
	// asked before its branch, so the user can neither decline nor cancel a
	// form, and its handler has Accept only (a question Accept asks with
	// runtime.Ask returns the user's action to Accept itself).
	AcceptOnly bool
	// Decodes: mcpgen generates Names.Decode for the tool, whose arguments
	// encoding/json would decode field by field: not a question, nor a struct
	// with its own UnmarshalJSON, a ",string" or ",inline" json option, or a
	// plain argument reached through an embedded pointer (which encoding/json
	// allocates on the way). The runtime reads those with encoding/json, by
	// exact name.
	Decodes bool
	// SchemaWritten: mcpgen writes the tool's input schema, since every
	// plain argument is modelled whole (none Opaque or Annotated).
	SchemaWritten bool
	// Opaque: a plain argument is [Arg.Opaque], so the runtime also checks
	// the tool's input schema as a whole.
	Opaque bool
}

// Names are the files and identifiers mcpgen generates for one struct T,
// spelled once by [Struct.Derive] (idents.go). The helpers only generated
// code calls have names of stringer's _T_name style, which no reasonable
// user code declares; the names a user calls or implements (Interface,
// FlowFunc, HandlerType, the exported methods) are checked against the
// package's own declarations instead.
type Names struct {
	ElicitFile  string // t_elicit.go: the lower-cased type name (stringer's convention)
	HandlerFile string // t_handler.go, the handler file written once ("" for a question)
	Interface   string // THandler, the handler interface ("" for a question)
	FlowFunc    string // NewTFlow, the flow constructor ("" for a question)
	HandlerType string // tHandler, the handler type of the handler file ("" for a question)
	// Apply is the unexported method behind ApplyContent and ApplyPartial.
	Apply string
	// Properties is the package-level variable holding the property schema
	// of each elicitable field, written once and read by RequestedSchema and
	// the input schema: _T_properties ("" for a struct without a field).
	Properties string
	// Decode is the unexported method that decodes a tool's arguments by
	// exact JSON name ("" unless Struct.Decodes).
	Decode string
}

// TypeRef names a Go type: a predeclared one (Path "") or a named one.
type TypeRef struct {
	Path string // import path of the defining package; "" for predeclared types
	Name string // type name, e.g. "string", "int8", "Window", "Time"
}

// Field is one elicitable field.
type Field struct {
	GoName   string         // field name
	Path     []string       // selector path from the struct (more than one element through embedding)
	JSONName string         // key in arguments and form content
	Pos      token.Position // position of the field

	Kind    Kind
	Type    TypeRef // the scalar type (for a multi select: the element type)
	Basic   string  // the underlying predeclared type ("string", "int8", "float64", "bool"; "" for time.Time)
	Pointer bool    // the field is a pointer to Type
	Slice   bool    // the field is a slice of Type (multi select)

	Required  bool // required (default) or optional
	AskAlways bool // ask=always

	Title       string
	Description string
	Format      string // "", "email", "uri", "date", "date-time"

	MinLength, MaxLength *uint64
	MinItems, MaxItems   *uint64
	Minimum, Maximum     *float64 // bounds as numbers
	MinimumLit           string   // bounds as written, for byte-stable schemas
	MaximumLit           string

	Enum   []EnumItem // single or multi select
	Titled bool       // every item has a title: oneOf/anyOf of const+title
	// Choices (elicit:"choices"): a single or multi select whose options
	// come at run time (runtime.Choice), from the handler's <Field>Choices
	// method for tool arguments or from runtime.AskOptions for a question;
	// Enum is then empty and the runtime writes the options into the schema.
	Choices bool
	// Secret: a field of a URL-mode question (Struct.URLMode) that holds a
	// secret, by its name (a password, an API key, a token: the names that
	// MCP forbids to ask in form mode) or by the elicit option secret, and
	// not marked notsecret. Its page input is a password input, never
	// prefilled. Only string, integer and number fields without choices.
	Secret bool

	Default *Default // pre-filled value, nil when none

	// DecodesItself: the Go type has its own UnmarshalJSON or UnmarshalText
	// (or invopop/jsonschema's JSONSchema): generated code decodes an
	// argument for it with encoding/json.
	DecodesItself bool

	// The members below follow from the ones above; [Struct.Derive] sets
	// them once when the model is built.

	// SchemaType is the JSON Schema type of Kind ("string", "integer",
	// "number", "boolean", "array").
	SchemaType string
	// Unsigned: the Go type is an unsigned integer.
	Unsigned bool
	// LowerBound and UpperBound: Minimum and Maximum say more than the Go
	// type does (a minimum of 0 on an unsigned type says nothing).
	LowerBound, UpperBound bool
	// Check is the function that checks the field's rules beyond its JSON
	// type, _T_check_Path (the path through embedded structs joined with
	// "_"); "" when it has none.
	Check string
	// CheckStored is the function that checks a float32 field's bounds on
	// the stored value; "" unless the field is a float32 with bounds.
	// Validate checks the stored float32 against the bounds rounded to
	// float32, since an answer that meets a bound exactly (0.7) may round
	// below it in float32 (0.699999988); rounding is monotonic, so what
	// ApplyContent accepted always passes.
	CheckStored string
	// ChoicesMethod is the handler interface's method that lists the
	// run-time options of a tool's elicit:"choices" field, <Path>Choices
	// (the path joined); "" otherwise.
	ChoicesMethod string

	// src and opts are the field's elicit tag in the source, for the
	// positions and fixes of the client check ([Field.TagSpan]); nil in a
	// model built by hand.
	src  *fieldCand
	opts map[string]Option
}

// EnumItem is one choice of a select.
type EnumItem struct {
	Value string
	Title string // "" for an untitled select
	// Const is the typed constant that declares the choice when the choices
	// are a named string type's constants (see docs/tags.md, "The tag");
	// the zero TypeRef otherwise, or when the constant is not exported from
	// another package. Generated checks name it, so that they follow a
	// changed value and fail to compile when the constant is renamed or
	// removed, rather than hold a stale copy of its value.
	Const TypeRef
}

// Default is a field's pre-filled value, typed by the field's kind.
type Default struct {
	String  string   // String, DateTime (RFC 3339 text) and single selects
	Strings []string // MultiSelect
	Int     int64    // Integer
	Uint    uint64   // Integer with an unsigned Go type
	Float   float64  // Number
	Bool    bool     // Boolean
	Lit     string   // the value as written in the tag
}
