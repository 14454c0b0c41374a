package runtime_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// engineOnly are the engine's exported names that the façade does not hand
// on: what runtime/impl and runtime/elicittest use to build and read a
// generated flow.
var engineOnly = map[string]bool{"Def": true, "NewFlow": true, "DefOf": true}

// decls parses the non-test Go files of dir.
func decls(t *testing.T, dir string) []*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// topLevel returns the exported top-level names the files declare, with
// the doc comment of each type (its spec's, else its declaration's).
func topLevel(files []*ast.File) (names map[string]bool, typeDocs map[string]string) {
	names, typeDocs = map[string]bool{}, map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names[s.Name.Name] = true
							doc := s.Doc
							if doc == nil {
								doc = d.Doc
							}
							typeDocs[s.Name.Name] = doc.Text()
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names, typeDocs
}

// members returns, by type, the exported fields, interface methods and
// methods the files declare.
func members(files []*ast.File) map[string][]string {
	m := map[string][]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || !d.Name.IsExported() {
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					m[id.Name] = append(m[id.Name], d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					var list *ast.FieldList
					switch t := ts.Type.(type) {
					case *ast.StructType:
						list = t.Fields
					case *ast.InterfaceType:
						list = t.Methods
					default:
						continue
					}
					for _, fl := range list.List {
						for _, n := range fl.Names {
							if n.IsExported() {
								m[ts.Name.Name] = append(m[ts.Name.Name], n.Name)
							}
						}
					}
				}
			}
		}
	}
	return m
}

// The façade hands on every exported name of the engine but the three
// runtime/impl and runtime/elicittest use, and, since go doc shows no
// field or method of a type named by alias, the doc of each alias lists
// every exported field and method of the engine's type as an item ("  - Name
// (…" or "  - Name(…", names that share a doc joined by commas).
func TestFacadeHandsOnAndListsEverything(t *testing.T) {
	if _, err := os.Stat(filepath.Join("internal", "engine")); err != nil {
		t.Fatal(err)
	}
	engineFiles := decls(t, filepath.Join("internal", "engine"))
	facadeFiles := decls(t, ".")
	engineNames, _ := topLevel(engineFiles)
	facadeNames, docs := topLevel(facadeFiles)
	for name := range engineNames {
		if !engineOnly[name] && !facadeNames[name] {
			t.Errorf("runtime does not hand on engine.%s", name)
		}
	}
	for typ, ms := range members(engineFiles) {
		doc, aliased := docs[typ]
		if !aliased {
			continue
		}
		for _, m := range ms {
			item := regexp.MustCompile(`(?m)^  - ([A-Za-z]+, )*` + m + `\b[ (,]`)
			if !item.MatchString(doc) {
				t.Errorf("the doc of runtime.%s lists no %s", typ, m)
			}
		}
	}
}
