package annotate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"testing"

	. "github.com/mcpgen/mcpgen/annotate"
)

// checkAndFix runs Check on src (one file, t.go) and returns it with every
// suggested fix applied, and the diagnostics.
func checkAndFix(t *testing.T, src string) (string, []Diagnostic) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "t.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: fuzzImporter}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	_, diags := Check(fset, pkg, []*ast.File{file}, info, nil)
	var edits []TextEdit
	for _, d := range diags {
		for _, f := range d.SuggestedFixes {
			edits = append(edits, f.Edits...)
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Pos.Offset > edits[j].Pos.Offset })
	for _, e := range edits {
		src = src[:e.Pos.Offset] + e.NewText + src[e.End.Offset:]
	}
	return src, diags
}

// TestDirectiveFix: a form's directive on a tool without an elicit field is
// removed with its line by the diagnostic's fix.
func TestDirectiveFix(t *testing.T) {
	src := "package p\n\n// Quote is a tool.\n//\n//mcpgen:tool quote\n//mcpgen:key quote_form\n//mcpgen:unsealed\ntype Quote struct {\n\tItem string `json:\"item\"`\n}\n"
	got, diags := checkAndFix(t, src)
	want := "package p\n\n// Quote is a tool.\n//\n//mcpgen:tool quote\ntype Quote struct {\n\tItem string `json:\"item\"`\n}\n"
	if len(diags) != 2 || got != want {
		t.Errorf("%d diagnostics; fixed:\n%s\nwant:\n%s", len(diags), got, want)
	}
	if d := diags[0]; d.End.Offset-d.Pos.Offset != len("//mcpgen:key quote_form") {
		t.Errorf("diagnostic spans %d to %d, not the directive", d.Pos.Offset, d.End.Offset)
	}
	if fixed, diags := checkAndFix(t, got); len(diags) != 0 || fixed != got {
		t.Errorf("after the fixes: %v", diags)
	}
}

// TestDirectiveTypoFix: a misspelt directive is one edit from the one
// meant, and a value given to a directive that takes none is removed.
func TestDirectiveTypoFix(t *testing.T) {
	src := "package p\n\n// Args are arguments.\n//\n//mcpgen:mesage Hello\n//mcpgen:enumnames yes\ntype Args struct {\n\tCity *string `json:\"city\" elicit:\"optional\"`\n}\n"
	got, diags := checkAndFix(t, src)
	want := "package p\n\n// Args are arguments.\n//\n//mcpgen:message Hello\n//mcpgen:enumnames\ntype Args struct {\n\tCity *string `json:\"city\" elicit:\"optional\"`\n}\n"
	if len(diags) != 2 || got != want || diags[0].Message != "unknown directive //mcpgen:mesage; did you mean //mcpgen:message?" {
		t.Errorf("%+v; fixed:\n%s\nwant:\n%s", diags, got, want)
	}
	if _, diags := checkAndFix(t, got); len(diags) != 0 {
		t.Errorf("after the fixes: %v", diags)
	}
}

// TestCollisionRelated: a declaration named like a generated identifier is
// reported at that declaration, from its name to the name's end, with the
// struct the generated one is for as its related site.
func TestCollisionRelated(t *testing.T) {
	src := "package p\n\n// Args are arguments.\ntype Args struct {\n\tDate string `json:\"date\" elicit:\"format=date\"`\n}\n\nfunc NewArgsFlow() {}\n"
	_, diags := checkAndFix(t, src)
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %+v", diags)
	}
	d := diags[0]
	if d.Pos.Line != 8 || d.Pos.Column != 6 || d.End.Column != 6+len("NewArgsFlow") || len(d.Related) != 1 || d.Related[0].Pos.Line != 4 || d.Related[0].Pos.Column != 6 {
		t.Errorf("diagnostic %s (end %v), related %+v", d.Format(""), d.End, d.Related)
	}
}
