package annotate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestToolWithoutElicitField: //mcpgen:tool alone makes a struct a tool
// (without -type), with no elicitable field and so Accept only; a struct
// with neither an elicit tag nor a directive is not generated unless -type
// names it, and then it is an Accept-only tool too.
func TestToolWithoutElicitField(t *testing.T) {
	const src = `package p

// Quote asks only in the middle of Accept.
//
//mcpgen:tool quote Quote a price.
type Quote struct {
	Item   string ` + "`json:\"item\"`" + `
	Amount int    ` + "`json:\"amount\"`" + `
}

// Plain has no annotation.
type Plain struct {
	Item string ` + "`json:\"item\"`" + `
}

// Form asks for its city.
type Form struct {
	City string ` + "`json:\"city\" elicit:\"title=City\"`" + `
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		types []string
		want  map[string]bool // struct name → AcceptOnly
	}{
		{nil, map[string]bool{"Quote": true, "Form": false}},
		{[]string{"Plain"}, map[string]bool{"Plain": true}},
	} {
		model, diags := Check(fset, pkg, []*ast.File{file}, info, c.types)
		for _, d := range diags {
			t.Errorf("-type %v: %s", c.types, d.Format(""))
		}
		got := map[string]bool{}
		for _, s := range model.Structs {
			got[s.Name] = s.AcceptOnly
		}
		if len(got) != len(c.want) {
			t.Errorf("-type %v: structs %v, want %v", c.types, got, c.want)
		}
		for name, want := range c.want {
			if acceptOnly, ok := got[name]; !ok || acceptOnly != want {
				t.Errorf("-type %v: %s generated %v, AcceptOnly %v; want generated, AcceptOnly %v", c.types, name, ok, acceptOnly, want)
			}
		}
	}
}
