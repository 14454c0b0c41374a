package docblocks

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// known are the packages a fragment may name without importing them: this
// module's, the SDKs' and testify's. The standard library is added from
// `go list std` (runtime here is mcpgen's, not the standard library's).
var known = map[string]string{
	"runtime":    "github.com/mcpgen/mcpgen/runtime",
	"mcpsdk":     "github.com/mcpgen/mcpgen/runtime/mcpsdk",
	"mcpgo":      "github.com/mcpgen/mcpgen/runtime/mcpgo",
	"impl":       "github.com/mcpgen/mcpgen/runtime/impl",
	"elicittest": "github.com/mcpgen/mcpgen/runtime/elicittest",
	"redisstore": "github.com/mcpgen/mcpgen/runtime/redisstore",
	"page":       "github.com/mcpgen/mcpgen/runtime/page",
	"devauth":    "github.com/mcpgen/mcpgen/runtime/devauth",
	"protocol":   "github.com/mcpgen/mcpgen/runtime/protocol",
	"otelmcp":    "github.com/mcpgen/mcpgen/runtime/otelmcp",
	"otelenv":    "github.com/mcpgen/mcpgen/runtime/otelenv",
	"otelmcpgo":  "github.com/mcpgen/mcpgen/runtime/otelmcp/otelmcpgo",
	"mcp":        "github.com/modelcontextprotocol/go-sdk/mcp",
	"auth":       "github.com/modelcontextprotocol/go-sdk/auth",
	"jsonschema": "github.com/google/jsonschema-go/jsonschema",
	"assert":     "github.com/stretchr/testify/assert",
	"require":    "github.com/stretchr/testify/require",
}

// stdlib adds the standard library's packages to known, by their last path
// element; where two share it, the first in `go list std` order (alphabetical)
// is kept, except for the overrides.
func stdlib(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	names := map[string]string{"rand": "math/rand/v2", "template": "text/template"}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "internal") || strings.HasPrefix(p, "vendor/") {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if _, ok := names[name]; !ok {
			names[name] = p
		}
	}
	for k, v := range known {
		names[k] = v
	}
	return names
}

// goPackage is the Go blocks of one package: one block, or the blocks of a
// Markdown file sharing a pkg attribute.
type goPackage struct {
	name   string  // the package's directory and, for fragments, its name
	blocks []Block // in the order they appear
}

// packages groups blocks into packages.
func packages(blocks []Block) []*goPackage {
	var pkgs []*goPackage
	byName := map[string]*goPackage{}
	for i, b := range blocks {
		if name, ok := b.Attrs["pkg"]; ok && name != "" {
			key := b.File + "\x00" + name
			if p, ok := byName[key]; ok {
				p.blocks = append(p.blocks, b)
				continue
			}
			p := &goPackage{name: fmt.Sprintf("b%d%s", i, name), blocks: []Block{b}}
			byName[key] = p
			pkgs = append(pkgs, p)
			continue
		}
		pkgs = append(pkgs, &goPackage{name: fmt.Sprintf("b%d", i), blocks: []Block{b}})
	}
	return pkgs
}

// source turns one block into a Go file of package name: a whole file keeps
// its package clause; a fragment gets one, the imports of the packages it
// names (from names), and, when it is statements, a function around it. A
// //line comment makes every position the compiler reports the block's
// position in its Markdown file.
func source(b Block, name string, names map[string]string) ([]byte, error) {
	doc, err := filepath.Abs(filepath.Join(root, b.File))
	if err != nil {
		return nil, err
	}
	line := fmt.Sprintf("//line %s:%d\n", doc, b.Line)
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, "", b.Text, parser.PackageClauseOnly); err == nil && f.Name != nil {
		return []byte(line + b.Text), nil
	}
	decls := "package " + name + "\n" + line + b.Text
	f, declErr := parser.ParseFile(fset, "", decls, parser.ParseComments)
	wrapped := false
	text, given := b.Text, ""
	if declErr != nil {
		// Imports, then statements: the imports stay at file level.
		if head, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+b.Text, parser.ImportsOnly); err == nil && len(head.Decls) > 0 {
			end := int(head.Decls[len(head.Decls)-1].End()) - 1 - len("package p\n")
			given, text = b.Text[:end]+"\n", b.Text[end:]
			line = fmt.Sprintf("//line %s:%d\n", doc, b.Line+strings.Count(given, "\n")-1)
		}
		stmts := "package " + name + "\n" + given + "func _() {\n" + line + text + "\n}\n"
		var stmtErr error
		f, stmtErr = parser.ParseFile(fset, "", stmts, parser.ParseComments)
		if stmtErr != nil {
			return nil, fmt.Errorf("%s: neither declarations (%v) nor statements (%v)", b.Pos(), declErr, stmtErr)
		}
		wrapped = true
	}
	imports := map[string]bool{}
	for _, id := range f.Unresolved {
		if path, ok := names[id.Name]; ok && usedAsPackage(f, id) && !imported(f, path) {
			imports[path] = true
		}
	}
	var src bytes.Buffer
	fmt.Fprintf(&src, "package %s\n\n%s", name, given)
	if len(imports) > 0 {
		paths := make([]string, 0, len(imports))
		for p := range imports {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		src.WriteString("import (\n")
		for _, p := range paths {
			fmt.Fprintf(&src, "\t%q\n", p)
		}
		src.WriteString(")\n\n")
	}
	if !wrapped {
		src.WriteString(line + b.Text)
		return src.Bytes(), nil
	}
	src.WriteString("func _() {\n" + line + text)
	// The variables the statements declare count as used.
	body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
	for _, s := range body.List {
		for _, id := range declared(s) {
			fmt.Fprintf(&src, "\t_ = %s\n", id)
		}
	}
	src.WriteString("}\n")
	return src.Bytes(), nil
}

// imported reports whether f imports path itself.
func imported(f *ast.File, path string) bool {
	for _, im := range f.Imports {
		if strings.Trim(im.Path.Value, "\"") == path {
			return true
		}
	}
	return false
}

// usedAsPackage reports whether id is the X of a selector X.Sel.
func usedAsPackage(f *ast.File, id *ast.Ident) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok && s.X == id {
			found = true
		}
		return !found
	})
	return found
}

// declared returns the names a top-level statement declares (x := …,
// var x …), blank names excluded.
func declared(s ast.Stmt) []string {
	var names []string
	add := func(id *ast.Ident) {
		if id.Name != "_" {
			names = append(names, id.Name)
		}
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, e := range s.Lhs {
				if id, ok := e.(*ast.Ident); ok {
					add(id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range g.Specs {
				if v, ok := spec.(*ast.ValueSpec); ok {
					for _, id := range v.Names {
						add(id)
					}
				}
			}
		}
	}
	return names
}

// needsMcpgen reports whether src holds something mcpgen generates for.
func needsMcpgen(src []byte) bool {
	return bytes.Contains(src, []byte("elicit:\"")) || bytes.Contains(src, []byte("//mcpgen:"))
}

// Every Go block compiles (go vet), after mcpgen generated what its tags
// ask for; an error names the Markdown file and line.
func TestGoBlocksCompile(t *testing.T) {
	var blocks []Block
	for _, b := range of(all(t), "go") {
		if _, quoted := b.Attrs["from"]; !quoted {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		t.Fatal("no Go blocks found: the documentation's location changed?")
	}
	names := stdlib(t)
	dir := scratch(t)
	var dirs, generate []string
	for _, p := range packages(blocks) {
		pdir := filepath.Join(dir, p.name)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		gen := false
		for i, b := range p.blocks {
			src, err := source(b, p.name, names)
			if err != nil {
				t.Error(err)
				continue
			}
			if formatted, err := format.Source(src); err == nil {
				src = formatted
			}
			gen = gen || needsMcpgen(src)
			if err := os.WriteFile(filepath.Join(pdir, fmt.Sprintf("block%d.go", i)), src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		rel := "./examples/internal/docblocks/" + filepath.ToSlash(pdir)
		dirs = append(dirs, rel)
		if gen {
			generate = append(generate, rel)
		}
	}
	if t.Failed() {
		return
	}
	if len(generate) > 0 {
		cmd := exec.Command(binary(t, "cmd/mcpgen"), generate...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("mcpgen on the documentation's tagged structs: %v\n%s", err, out)
			dirs = without(dirs, generate)
		}
	}
	cmd := exec.Command("go", append([]string{"vet"}, dirs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the documentation's Go blocks do not compile (%d blocks in %d packages): %v\n%s", len(blocks), len(dirs), err, out)
	}
	t.Logf("%d Go blocks compiled in %d packages, %d generated by mcpgen", len(blocks), len(dirs), len(generate))
}

// without returns the elements of all not in drop.
func without(all, drop []string) []string {
	var out []string
	for _, a := range all {
		if !slices.Contains(drop, a) {
			out = append(out, a)
		}
	}
	return out
}

// A Go block with from=FILE quotes FILE (repository-relative), which the
// project's own build compiles: every line of the block is a line of FILE,
// in order, leading and trailing spaces aside; lines of FILE may be left
// out, and "…" matches any text (the rule of text run= blocks: missing).
func TestQuotedGoBlocksMatchTheirFile(t *testing.T) {
	for _, b := range of(all(t), "go") {
		file, ok := b.Attrs["from"]
		if !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Errorf("%s: from=%s: %v", b.Pos(), file, err)
			continue
		}
		if line, i := missing(b.Text, string(src)); i >= 0 {
			t.Errorf("%s:%d: %q is not in %s (in that order)", b.File, b.Line+i, strings.TrimSpace(line), file)
		}
	}
}

// A block of any other language with from=FILE shows FILE whole: its text
// is FILE's, byte for byte, so that a configuration the documentation ships
// (examples/loadbalanced/nginx.conf, haproxy.cfg) is the one the scripts run.
func TestQuotedFilesAreWhole(t *testing.T) {
	n := 0
	for _, b := range all(t) {
		file, ok := b.Attrs["from"]
		if !ok || b.Lang == "go" {
			continue
		}
		n++
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Errorf("%s: from=%s: %v", b.Pos(), file, err)
			continue
		}
		if b.Text != string(src) {
			t.Errorf("%s: the block is not %s as it is, whole: copy the file into the block again", b.Pos(), file)
		}
	}
	if n == 0 {
		t.Error("no block quotes a whole file: the loadbalancer configurations of docs/operations.md are gone")
	}
}
