package gen

import (
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/annotate"
)

// TestStalePathWrittenIsNotRemoved: a stale file whose path a struct now
// writes (a rename by letter case only) is overwritten, never removed.
func TestStalePathWrittenIsNotRemoved(t *testing.T) {
	dir := t.TempDir()
	s := &annotate.Struct{Name: "Bargs", File: filepath.Join(dir, "b.go"), Tool: "t", Key: "t",
		Fields: []*annotate.Field{{GoName: "X", JSONName: "x", Path: []string{"X"}, Kind: annotate.String,
			Type: annotate.TypeRef{Name: "string"}, Basic: "string", Required: true}}}
	pkg := &annotate.Package{Name: "s", Path: "example.com/s", Dir: dir, Structs: []*annotate.Struct{s},
		Stale: []annotate.StaleFile{{Path: filepath.Join(dir, "bargs_elicit.go"), Types: []string{"BArgs"}}, {Path: filepath.Join(dir, "old_elicit.go"), Types: []string{"Old"}}}}
	s.Derive()
	files, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		if f.Remove {
			got = append(got, filepath.Base(f.Path))
		}
	}
	if len(got) != 1 || got[0] != "old_elicit.go" {
		t.Errorf("removed %v, want [old_elicit.go] only", got)
	}
}
