package annotate_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"testing"

	. "github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
)

// fuzzTypes are the field types FuzzCheck puts under the fuzzed tag.
var fuzzTypes = []string{
	"string", "*string", "int", "*int", "int8", "uint64", "*float64", "float32", "bool", "*bool",
	"time.Time", "*time.Time", "[]string", "[]Level", "Level", "*Level", "[]int", "map[string]int", "any",
}

// FuzzCheck type-checks a struct whose field has an arbitrary elicit tag (and
// one of the field types above) and runs Check on it: it must never panic,
// every diagnostic must lie inside the file, a field either yields a model
// or at least one diagnostic, and a model without diagnostics generates.
func FuzzCheck(f *testing.F) {
	for i, tag := range []string{
		"", "optional", "minimum=1,maximum=9,default=3", "enum=a|b|c,default=b", "enum=x:X|y:Y",
		"format=email,maxLength=10", "format=date,default=2026-07-28", "minItems=1,maxItems=2,enum=a|b|c,default=a|b",
		"minimum=-1e308,maximum=1e308", "default=18446744073709551615", "default=-9223372036854775809",
		"maximum=1e400", "minLength=4294967296", "title='a,b',description='it''s'", "ask=always", "-", "notsecret",
		"default=''", "enum='a|b'|c", "minimum=0x10", "default=1_000", "default=+1", "maximum=-0", "default=NaN",
		"enum=EUR,USD,GBP", "enum=a|b,default=a,b", "title=Hello, world", "format=emial", "enum=a,requird",
	} {
		f.Add(tag, uint8(i))
	}
	f.Fuzz(func(t *testing.T, tag string, typ uint8) {
		if strings.ContainsAny(tag, "`\n\r") || !strconv.CanBackquote(tag) || strings.Contains(tag, `"`) || strings.Contains(tag, `\`) {
			return
		}
		goType := fuzzTypes[int(typ)%len(fuzzTypes)]
		src := "package p\n\nimport \"time\"\n\nvar _ time.Time\n\ntype Level string\n\nconst (\n\tLow Level = \"low\"\n\tHigh Level = \"high\"\n)\n\n" +
			"type T struct {\n\tCity string `json:\"city\"`\n\tF " + goType + " `json:\"f\" elicit:\"" + tag + "\"`\n}\n"
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "t.go", src, parser.ParseComments)
		if err != nil {
			return
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: fuzzImporter}
		pkg, err := conf.Check("p", fset, []*ast.File{file}, info)
		if err != nil {
			t.Skip("does not type-check:", err)
		}
		model, diags := Check(fset, pkg, []*ast.File{file}, info, nil)
		size := fset.File(file.Pos()).Size()
		for _, d := range diags {
			if d.Message == "" || d.Pos.Filename != "t.go" || d.Pos.Line < 1 || d.Pos.Offset < 0 || d.Pos.Offset > size {
				t.Fatalf("tag %q on %s: diagnostic out of the file: %+v", tag, goType, d)
			}
			if d.End.IsValid() && (d.End.Offset < d.Pos.Offset || d.End.Offset > size) {
				t.Fatalf("tag %q on %s: diagnostic ends before it starts or out of the file: %+v", tag, goType, d)
			}
			for _, fix := range d.SuggestedFixes {
				checkFix(t, src, tag, fix)
			}
		}
		if len(diags) == 0 && model != nil && len(model.Structs) > 0 {
			if _, err := gen.Generate(model); err != nil {
				t.Fatalf("tag %q on %s: checked clean, but gen.Generate: %v", tag, goType, err)
			}
		}
		fields := 0
		if model != nil {
			for _, s := range model.Structs {
				fields += len(s.Fields)
			}
		}
		if fields == 0 && len(diags) == 0 && !elicitSkipped(tag) {
			t.Fatalf("tag %q on %s: no field and no diagnostic", tag, goType)
		}
	})
}

// cachedImporter imports each package once (reading export data is far
// slower than checking the fuzzed file).
type cachedImporter map[string]*types.Package

func (c cachedImporter) Import(path string) (*types.Package, error) {
	if p, ok := c[path]; ok {
		return p, nil
	}
	p, err := importer.Default().Import(path)
	if err == nil {
		c[path] = p
	}
	return p, err
}

var fuzzImporter = cachedImporter{}

// elicitSkipped reports whether a tag says never to elicit the field.
func elicitSkipped(tag string) bool {
	opts, err := ParseTag(tag)
	if err != nil {
		return false
	}
	for _, o := range opts {
		if o.Key == "-" {
			return true
		}
	}
	return false
}

// checkFix applies fix to src (a struct whose field F has elicit tag tag)
// and checks that the edits stay inside that tag's value: the result
// parses, and F's tag still has an elicit key, whose value changed.
func checkFix(t *testing.T, src, tag string, fix SuggestedFix) {
	t.Helper()
	out := src
	for i := len(fix.Edits) - 1; i >= 0; i-- { // edits in order, applied from the end
		e := fix.Edits[i]
		if e.Pos.Offset > e.End.Offset || e.End.Offset > len(out) {
			t.Fatalf("tag %q: fix %q: edit out of range: %+v", tag, fix.Message, e)
		}
		out = out[:e.Pos.Offset] + e.NewText + out[e.End.Offset:]
	}
	file, err := parser.ParseFile(token.NewFileSet(), "t.go", out, 0)
	if err != nil {
		t.Fatalf("tag %q: fix %q breaks the source: %v\n%s", tag, fix.Message, err, out)
	}
	st := file.Decls[len(file.Decls)-1].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
	lit, err := strconv.Unquote(st.Fields.List[1].Tag.Value)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := reflect.StructTag(lit).Lookup("elicit")
	if !ok || got == tag {
		t.Fatalf("tag %q: fix %q gives tag %s", tag, fix.Message, st.Fields.List[1].Tag.Value)
	}
}
