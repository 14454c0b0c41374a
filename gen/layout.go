package gen

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/skeleton"
)

// The field order of the struct types whose composite literals generated
// code writes. invopop's Schema is read by reflection; the runtime's types
// are spelled here, so that the generator does not link the runtime
// (cmd/mcpgen/deps_test.go), and gen/layout_test.go holds each list to its
// type's declaration.
var (
	schemaType   = fieldNames(reflect.TypeFor[jsonschema.Schema]())
	flowSpecType = []string{"Name", "Description", "Message", "Key", "Fields", "AskAlways", "DateFields",
		"AcceptUnsealed", "MaxRounds", "Choices", "Form", "Unaskable", "Decode", "CheckInputSchema", "Value", "Schema", "Dispatch",
		"File", "Shape"}
	choiceType = []string{"Value", "Title"}
)

// fieldNames lists the names of struct type t's fields in declaration order.
func fieldNames(t reflect.Type) []string {
	out := make([]string, t.NumField())
	for i := range out {
		out[i] = t.Field(i).Name
	}
	return out
}

// fields are the keyed elements of a composite literal of a struct type:
// field name → value.
type fields map[string]jen.Code

// literal is the body of a composite literal of a struct type whose fields
// are order, with the elements of fs, in that order (jennifer's Dict sorts
// keys alphabetically), as a reader of t's declaration expects them: on one
// line for one element, one line each otherwise. A name order lacks
// panics: it is the renderer's mistake, and every golden case renders it.
func literal(order []string, fs fields) *jen.Statement {
	items := make([]jen.Code, 0, len(fs))
	for _, name := range order {
		if v, ok := fs[name]; ok {
			items = append(items, jen.Id(name).Op(":").Add(v))
		}
	}
	if len(items) != len(fs) {
		for name := range fs {
			if !slices.Contains(order, name) {
				panic(fmt.Sprintf("gen: a literal of fields %v has no field %s", order, name))
			}
		}
	}
	return elements(items)
}

// elements is the body of a composite literal with items in their order,
// laid out as [literal] lays them out.
func elements(items []jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: len(items) > 1}, items...)
}

// maxColumns is the width generated lines keep within, a tab counted as
// four columns: a reader takes in a line without scrolling.
const maxColumns = 110

// fits reports whether text, the one-line rendering of some generated code,
// keeps within maxColumns indent tabs deep.
func fits(indent int, text string) bool { return 4*indent+len(text) <= maxColumns }

// wrapLast moves the last of args to the next line (gofmt indents it) unless
// text, the call on one line, fits indent tabs deep: the short leading
// arguments stay with the function, as hand-written code keeps them.
func wrapLast(indent int, text string, args []jen.Code) []jen.Code {
	if len(args) < 2 || fits(indent, text) {
		return args
	}
	out := slices.Clone(args)
	out[len(out)-1] = jen.Line().Add(out[len(out)-1])
	return out
}

// params is a parameter list on one line when text, the signature on one
// line, fits indent tabs deep, else on a line of its own between the
// parentheses.
func params(indent int, text string, ps ...jen.Code) *jen.Statement {
	if fits(indent, text) {
		return jen.Params(ps...)
	}
	return jen.Custom(jen.Options{Open: "(", Close: ")", Separator: ",", Multi: true}, jen.List(ps...))
}

// stringList is the literal []string{…} of lits, its elements filled onto
// lines the way a paragraph is, each line within maxColumns indent tabs
// deep (the first line starts lead columns in); the closing brace follows
// the last element.
func stringList(indent, lead int, lits []string) *jen.Statement {
	items := make([]jen.Code, 0, len(lits))
	col := 4*indent + lead + len("[]string{")
	for i, l := range lits {
		w := len(strconv.Quote(l)) + 2 // the element, its comma and a space
		it := jen.Lit(l)
		if i > 0 && col+w > maxColumns {
			it = jen.Line().Add(it)
			col = 4 * (indent + 1)
		}
		col += w
		items = append(items, it)
	}
	return jen.Index().String().Values(items...)
}

// docColumns is the width of generated doc comments, as the fixed ones are
// wrapped.
const docColumns = skeleton.DocColumns

// doc writes text as a comment on f, its words filled onto lines within
// docColumns (top-level comments: no indentation).
func doc(f *jen.File, format string, args ...any) {
	for _, line := range skeleton.Fill(fmt.Sprintf(format, args...), docColumns-len("// ")) {
		f.Comment(line)
	}
}

// text is the string literal of s, split at spaces into "…" + "…" parts,
// one a line (gofmt indents the later ones), when it would not fit indent
// tabs deep after lead columns: a long description stays readable.
func text(indent, lead int, s string) *jen.Statement {
	if fits(indent, strings.Repeat(" ", lead)+strconv.Quote(s)+",") {
		return jen.Lit(s)
	}
	room := maxColumns - 4*indent - lead - len(`"" +`)
	var parts []string
	for _, line := range skeleton.Fill(s, room) {
		if len(parts) > 0 {
			line = " " + line // fill drops the space it breaks at
		}
		parts = append(parts, line)
	}
	lit := jen.Lit(parts[0])
	for _, p := range parts[1:] {
		lit = lit.Op("+").Line().Lit(p)
	}
	return lit
}
