package annotate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestInvalidFieldTypeIsNotTheTagsFault: a field whose type go/types could
// not resolve (an error elsewhere, as an editor's analyzer sees a package
// being edited) gets no diagnostic of mcpgen's (the compiler reports the
// error): not "a form cannot hold" it. The field is left out of the model
// and listed by Package.Unresolved for the driver.
func TestInvalidFieldTypeIsNotTheTagsFault(t *testing.T) {
	src := "package p\n\n// Args are a tool's arguments.\ntype Args struct {\n" +
		"\tCity string `json:\"city\" elicit:\"required\"`\n" +
		"\tZone Unknown `json:\"zone,omitempty\" elicit:\"optional\"`\n" +
		"\tZones []Unknown `json:\"zones,omitempty\" elicit:\"optional\"`\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	var typeErrs int
	conf := types.Config{Importer: importer.Default(), Error: func(error) { typeErrs++ }}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, info)
	if typeErrs == 0 {
		t.Fatal("the package type-checked; the test needs an error")
	}
	model, diags := Check(fset, pkg, []*ast.File{f}, info, nil)
	if len(diags) != 0 {
		t.Errorf("diagnostics for fields of an unresolved type: %v", diags)
	}
	if len(model.Structs) != 1 || len(model.Structs[0].Fields) != 1 || model.Structs[0].Fields[0].GoName != "City" {
		t.Fatalf("model: %+v", model.Structs)
	}
	if got := len(model.Unresolved()); got != 2 {
		t.Errorf("Unresolved: %d fields, want 2 (Zone, Zones)", got)
	}
}
