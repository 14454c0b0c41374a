package annotate_test

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	. "github.com/mcpgen/mcpgen/annotate"
)

// checkFiles runs Check on a package of the given files (name → source),
// ignoring type errors (mcpgen's output is absent, as Load reads it), and
// returns the diagnostics and each file with every suggested fix applied;
// identical edits are applied once, as the analysis checker coalesces them.
func checkFiles(t *testing.T, files map[string]string) ([]Diagnostic, map[string]string) {
	t.Helper()
	fset := token.NewFileSet()
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var parsed []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: fuzzImporter, Error: func(error) {}}
	pkg, _ := conf.Check("p", fset, parsed, info)
	_, diags := Check(fset, pkg, parsed, info, nil)
	type key struct {
		file     string
		pos, end int
		text     string
	}
	seen := map[key]bool{}
	byFile := map[string][]TextEdit{}
	for _, d := range diags {
		for _, fix := range d.SuggestedFixes {
			for _, e := range fix.Edits {
				k := key{e.Pos.Filename, e.Pos.Offset, e.End.Offset, e.NewText}
				if !seen[k] {
					seen[k] = true
					byFile[e.Pos.Filename] = append(byFile[e.Pos.Filename], e)
				}
			}
		}
	}
	out := map[string]string{}
	for name, src := range files {
		edits := byFile[name]
		sort.SliceStable(edits, func(i, j int) bool { return edits[i].Pos.Offset > edits[j].Pos.Offset })
		for _, e := range edits {
			src = src[:e.Pos.Offset] + e.NewText + src[e.End.Offset:]
		}
		out[name] = src
	}
	return diags, out
}

const seatArgs = "package p\n\n// Book books a seat.\ntype Book struct {\n" +
	"\tName    string   `json:\"name\" elicit:\"required\"`\n" +
	"\tSeating string   `json:\"seating\" elicit:\"required,choices\"`\n" +
	"\tMeals   []string `json:\"meals\" elicit:\"optional,choices\"`\n}\n"

// TestChoicesMethodMissing: a handler that lacks the <Field>Choices method
// of each choices field is reported at the field's choices option, with
// the method's signature and the handler's declaration as related site;
// the fix adds a stub of both methods after the handler's last method
// (one edit, shared by both diagnostics), formatted as gofmt does, and the
// package then has no diagnostic.
func TestChoicesMethodMissing(t *testing.T) {
	handler := "package p\n\nimport (\n\t\"context\"\n\n\t\"github.com/mcpgen/mcpgen/runtime\"\n)\n\n" +
		"type bookHandler struct{}\n\nvar _ BookHandler = bookHandler{}\n\n" +
		"func (bookHandler) Accept(ctx context.Context, args *Book) (*runtime.Result, error) { return nil, nil }\n\n" +
		"func helper() {}\n"
	diags, fixed := checkFiles(t, map[string]string{"args.go": seatArgs, "book_handler.go": handler})
	if len(diags) != 2 {
		t.Fatalf("%d diagnostics, want 2: %+v", len(diags), diags)
	}
	want := []struct {
		line, col, end int
		msg            string
	}{
		{6, 52, 59, `elicit tag on Seating: choices takes its options from the handler's SeatingChoices method, which bookHandler lacks; ` +
			`add func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]runtime.Choice, error), listing the options of seating for each call; go run github.com/mcpgen/mcpgen/cmd/mcpgen-vet -fix ./... adds a stub (docs/questions.md, "Run-time choices")`},
		{7, 50, 57, `elicit tag on Meals: choices takes its options from the handler's MealsChoices method, which bookHandler lacks; ` +
			`add func (bookHandler) MealsChoices(ctx context.Context, args *Book) ([]runtime.Choice, error), listing the options of meals for each call; go run github.com/mcpgen/mcpgen/cmd/mcpgen-vet -fix ./... adds a stub (docs/questions.md, "Run-time choices")`},
	}
	for i, d := range diags {
		w := want[i]
		if d.Pos.Filename != "args.go" || d.Pos.Line != w.line || d.Pos.Column != w.col || d.End.Column != w.end || d.Message != w.msg {
			t.Errorf("diagnostic %d: %s (end column %d)\nwant args.go:%d:%d: %s (end column %d)", i, d.Format(""), d.End.Column, w.line, w.col, w.msg, w.end)
		}
		if len(d.Related) != 1 || d.Related[0].Pos.Filename != "book_handler.go" || d.Related[0].Pos.Line != 9 || d.Related[0].Pos.Column != 6 {
			t.Errorf("diagnostic %d: related %+v, want book_handler.go:9:6", i, d.Related)
		}
		if len(d.SuggestedFixes) != 1 || d.SuggestedFixes[0].Message != "Add a stub of SeatingChoices and MealsChoices to bookHandler in book_handler.go" {
			t.Errorf("diagnostic %d: fixes %+v", i, d.SuggestedFixes)
		}
	}
	got := fixed["book_handler.go"]
	stub := "func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]runtime.Choice, error) {\n\t// TODO: list the options.\n\treturn []runtime.Choice{}, nil\n}\n"
	if !strings.Contains(got, stub) || strings.Count(got, "func (bookHandler) MealsChoices(") != 1 || !strings.HasSuffix(got, "}\n\nfunc helper() {}\n") {
		t.Errorf("fixed handler file lacks the stubs after Accept:\n%s", got)
	}
	if b, err := format.Source([]byte(got)); err != nil || string(b) != got {
		t.Errorf("fixed handler file is not gofmt's (%v):\n%s", err, got)
	}
	if diags, _ := checkFiles(t, map[string]string{"args.go": seatArgs, "book_handler.go": got}); len(diags) != 0 {
		t.Errorf("after the fix: %+v", diags)
	}
}

// TestChoicesMethodImports: the fix imports what the stub names: context
// and mcpgen's runtime in a group of their own, or in an import
// declaration of their own; under another name when the file or the
// package uses the name already. A handler asserted under another name is
// checked too, and a pointer receiver is kept.
func TestChoicesMethodImports(t *testing.T) {
	for _, tc := range []struct {
		name, handler, more string
		want                []string
	}{
		{"group", "package p\n\nimport (\n\t\"fmt\"\n)\n\ntype bookHandler struct{}\n\nvar _ = fmt.Sprint\n", "",
			[]string{"import (\n\t\"fmt\"\n\n\t\"context\"\n\t\"github.com/mcpgen/mcpgen/runtime\"\n)\n",
				"func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]runtime.Choice, error) {"}},
		{"none", "package p\n\ntype bookHandler struct{}\n", "",
			[]string{"package p\n\nimport (\n\t\"context\"\n\t\"github.com/mcpgen/mcpgen/runtime\"\n)\n\ntype bookHandler struct{}\n"}},
		{"single", "package p\n\nimport \"context\"\n\ntype bookHandler struct{}\n\nvar _ context.Context\n", "",
			[]string{"import \"context\"\n\nimport (\n\t\"github.com/mcpgen/mcpgen/runtime\"\n)\n"}},
		{"taken", "package p\n\nimport (\n\t\"context\"\n\t\"runtime\"\n)\n\ntype bookHandler struct{}\n\nvar _ = runtime.GOOS\nvar _ context.Context\n",
			"package p\n\nvar context = 1\n",
			[]string{"\t\"runtime\"\n\n\tmcpgenruntime \"github.com/mcpgen/mcpgen/runtime\"\n)",
				"func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]mcpgenruntime.Choice, error) {",
				"(mcpgenruntime.Principal(ctx) says who is calling)"}},
		{"asserted", "package p\n\nimport (\n\t\"context\"\n\n\trt \"github.com/mcpgen/mcpgen/runtime\"\n)\n\ntype seats struct{}\n\nvar _ BookHandler = (*seats)(nil)\n\n" +
			"func (*seats) Accept(ctx context.Context, args *Book) (*rt.Result, error) { return nil, nil }\n", "",
			[]string{"func (*seats) SeatingChoices(ctx context.Context, args *Book) ([]rt.Choice, error) {\n\t// TODO: list the options.\n\treturn []rt.Choice{}, nil\n}\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"args.go": seatArgs, "h.go": tc.handler}
			if tc.more != "" {
				files["more.go"] = tc.more
			}
			diags, fixed := checkFiles(t, files)
			if len(diags) != 2 {
				t.Fatalf("%d diagnostics, want 2: %+v", len(diags), diags)
			}
			got := fixed["h.go"]
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("fixed file lacks %q:\n%s", w, got)
				}
			}
			if b, err := format.Source([]byte(got)); err != nil || string(b) != got {
				t.Errorf("fixed file is not gofmt's (%v):\n%s", err, got)
			}
			files["h.go"] = got
			if diags, _ := checkFiles(t, files); len(diags) != 0 {
				t.Errorf("after the fix: %+v", diags)
			}
		})
	}
}

// TestChoicesMethodNotNeeded: no diagnostic where the method is there
// (on the value or the pointer), where the package declares no handler
// yet (mcpgen writes the skeleton with the methods), and for a question,
// whose options come with runtime.AskOptions.
func TestChoicesMethodNotNeeded(t *testing.T) {
	methods := "func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]runtime.Choice, error) { return nil, nil }\n" +
		"func (*bookHandler) MealsChoices(ctx context.Context, args *Book) ([]runtime.Choice, error) { return nil, nil }\n"
	head := "package p\n\nimport (\n\t\"context\"\n\n\t\"github.com/mcpgen/mcpgen/runtime\"\n)\n\ntype bookHandler struct{}\n\n"
	question := strings.Replace(seatArgs, "// Book books a seat.\n", "// Book asks for a seat.\n//\n//mcpgen:question\n", 1)
	for name, files := range map[string]map[string]string{
		"methods":    {"args.go": seatArgs, "h.go": head + methods},
		"no handler": {"args.go": seatArgs},
		"question":   {"args.go": question, "h.go": head},
	} {
		if diags, _ := checkFiles(t, files); len(diags) != 0 {
			t.Errorf("%s: %+v", name, diags)
		}
	}
}
