package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotate"
)

// loadCase loads a golden case (a copy, in a temporary directory, when
// files are to be written) and returns its model.
func loadCase(t *testing.T, name string, copy bool) *annotate.Package {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "golden", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if copy {
		// Inside this module, so that the generated files' imports resolve.
		tmp, err := os.MkdirTemp(filepath.Join("..", "golden", "testdata"), "_digest-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(tmp) })
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !strings.HasSuffix(e.Name(), "_elicit.go") && !strings.HasSuffix(e.Name(), "_handler.go") {
				if err := os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if dir, err = filepath.Abs(tmp); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, diags := annotate.Load(annotate.Config{Dir: dir})
	for _, d := range diags {
		t.Error(d.Format(dir))
	}
	if len(pkgs) != 1 || len(pkgs[0].Structs) == 0 {
		t.Fatalf("%s: %d packages", name, len(pkgs))
	}
	return pkgs[0]
}

func elicitOf(t *testing.T, pkg *annotate.Package, s *annotate.Struct) []byte {
	t.Helper()
	files, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f.Path) == s.Names.ElicitFile {
			return f.Content
		}
	}
	t.Fatalf("no %s generated", s.Names.ElicitFile)
	return nil
}

// TestDigestExcludedMembersDoNotChangeOutput: each member of the model
// that annotate.ModelDigest leaves out, changed, leaves the generated file
// byte for byte the same, so a file whose digest matches is current
// whatever they hold.
func TestDigestExcludedMembersDoNotChangeOutput(t *testing.T) {
	base := loadCase(t, "allkinds", false)
	want := elicitOf(t, base, base.Structs[0])
	mutations := map[string]func(p *annotate.Package){
		"Package.Dir": func(p *annotate.Package) { p.Dir += "/elsewhere" },
		"Package.Structs": func(p *annotate.Package) {
			other := &annotate.Struct{Name: "Other", File: p.Structs[0].File, Tool: "other", Key: "other"}
			other.Derive()
			p.Structs = append(p.Structs, other)
		},
		"Package.Stale": func(p *annotate.Package) {
			p.Stale = append(p.Stale, annotate.StaleFile{Path: "gone_elicit.go", Types: []string{"Gone"}})
		},
		"Package.Tools": func(p *annotate.Package) {
			p.Tools = append(p.Tools, annotate.ToolEntry{Struct: "Other", Tool: "other", Interface: "OtherHandler",
				FlowFunc: "NewOtherFlow", HandlerType: "otherHandler", Default: true})
		},
		"Struct.Pos": func(p *annotate.Package) { p.Structs[0].Pos.Line += 7; p.Structs[0].Pos.Offset += 70 },
		"Struct.File": func(p *annotate.Package) {
			p.Structs[0].File = filepath.Join(filepath.Dir(p.Structs[0].File), "moved.go")
		},
		"Struct.Clients":         func(p *annotate.Package) { p.Structs[0].Clients = &annotate.ClientList{Off: true} },
		"Struct.HandlerDeclared": func(p *annotate.Package) { p.Structs[0].HandlerDeclared = !p.Structs[0].HandlerDeclared },
		"Field.Pos": func(p *annotate.Package) {
			for _, fd := range p.Structs[0].Fields {
				fd.Pos.Line += 3
				fd.Pos.Column++
			}
		},
		"Arg.Pos": func(p *annotate.Package) {
			for _, g := range p.Structs[0].Args {
				g.Pos.Filename = "/elsewhere/" + g.Pos.Filename
				g.Pos.Line += 3
			}
		},
	}
	var names []string
	for n := range mutations {
		names = append(names, n)
	}
	slices.Sort(names)
	if got := annotate.DigestExcluded(); !slices.Equal(got, names) {
		t.Fatalf("annotate.DigestExcluded() = %v; this test changes %v: add a change for each excluded member", got, names)
	}
	for _, n := range names {
		p := loadCase(t, "allkinds", false)
		mutations[n](p)
		if got := elicitOf(t, p, p.Structs[0]); !bytes.Equal(got, want) {
			t.Errorf("changing %s (left out of the digest) changed the generated file", n)
		}
	}
}
