package gen

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotate"
)

// TestGenerateRefusesNonFiniteNumbers: a model whose float bound or default
// does not fit the Go type (it would render as float32(1e+39) or +Inf) is an
// error, never generated code.
func TestGenerateRefusesNonFiniteNumbers(t *testing.T) {
	big32, inf, nan := 1e39, math.Inf(1), math.NaN()
	for _, c := range []struct {
		basic string
		field annotate.Field
	}{
		{"float32", annotate.Field{Maximum: &big32, MaximumLit: "1e39"}},
		{"float32", annotate.Field{Default: &annotate.Default{Float: -big32}}},
		{"float64", annotate.Field{Minimum: &inf, MinimumLit: "+Inf"}},
		{"float64", annotate.Field{Default: &annotate.Default{Float: nan}}},
	} {
		fd := c.field
		fd.GoName, fd.JSONName, fd.Path, fd.Kind, fd.Basic = "Z", "z", []string{"Z"}, annotate.Number, c.basic
		fd.Type = annotate.TypeRef{Name: c.basic}
		pkg := &annotate.Package{Name: "p", Path: "p", Dir: t.TempDir(), Structs: []*annotate.Struct{{
			Name: "Args", File: "args.go", Tool: "t", Key: "t", Fields: []*annotate.Field{&fd},
		}}}
		pkg.Structs[0].Derive()
		_, err := Generate(pkg)
		if err == nil || !strings.Contains(err.Error(), "does not fit in "+c.basic) {
			t.Errorf("%s %+v: Generate error %v, want one saying it does not fit", c.basic, fd, err)
		}
	}
}

// TestIntFieldsRender: an int or uint field (or a named type over one) is
// converted into a variable of its own type by impl.AnswerInt or AnswerUint,
// which take the bounds from that type as the platform compiling the code
// sizes it (TestAnswerIntBounds), never int64's, so that a 32-bit build
// refuses an answer its int cannot hold instead of wrapping it, and name the
// type in a range error as written; and an integer default is written from its exact value,
// also by an mcpgen that itself runs on a 32-bit platform.
func TestIntFieldsRender(t *testing.T) {
	field := func(name, basic string, typ annotate.TypeRef, unsigned bool, d *annotate.Default) *annotate.Field {
		fd := &annotate.Field{GoName: name, JSONName: strings.ToLower(name), Path: []string{name}, Kind: annotate.Integer,
			Type: typ, Basic: basic, Pointer: true, Default: d}
		if d != nil {
			fd.Default.Lit = map[bool]string{false: strconv.FormatInt(d.Int, 10), true: strconv.FormatUint(d.Uint, 10)}[unsigned]
		}
		return fd
	}
	pkg := &annotate.Package{Name: "p", Path: "p", Dir: t.TempDir(), Structs: []*annotate.Struct{{
		Name: "Args", File: "args.go", Tool: "t", Key: "t", Fields: []*annotate.Field{
			field("I", "int", annotate.TypeRef{Name: "int"}, false, nil),
			field("U", "uint", annotate.TypeRef{Name: "uint"}, true, nil),
			field("N", "int", annotate.TypeRef{Path: "p", Name: "N"}, false, nil),
			field("S", "uint", annotate.TypeRef{Path: "p", Name: "S"}, true, nil),
			field("I64", "int64", annotate.TypeRef{Name: "int64"}, false, &annotate.Default{Int: -9007199254740993}),
			field("Edge", "int", annotate.TypeRef{Name: "int"}, false, &annotate.Default{Int: math.MinInt32}),
			field("UEdge", "uint", annotate.TypeRef{Name: "uint"}, true, &annotate.Default{Uint: math.MaxUint32}),
		},
	}}}
	pkg.Structs[0].Derive()
	files, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "_elicit.go") {
			src = string(f.Content)
		}
	}
	for _, want := range []string{
		`set0 = impl.AnswerInt(&ve, "i", raw, "int", &v0)`,
		`set1 = impl.AnswerUint(&ve, "u", raw, "uint", &v1)`,
		`set2 = impl.AnswerInt(&ve, "n", raw, "N", &v2)`,
		`set3 = impl.AnswerUint(&ve, "s", raw, "S", &v3)`,
		`set4 = impl.AnswerInt(&ve, "i64", raw, "int64", &v4)`,
		`var v2 N`,
		`var v3 S`,
		`= int64(-9007199254740993), true`,
		`= int(-2147483648), true`,
		`= uint(uint64(0xffffffff)), true`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated code lacks %q:\n%s", want, src)
		}
	}
}
