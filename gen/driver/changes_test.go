package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/header"
)

// TestChanges: each kind of change, and its unified diff (git's a/ and b/
// names, /dev/null for a file created or removed); a handler file that
// exists and a current file are no change.
func TestChanges(t *testing.T) {
	dir := t.TempDir()
	header := gen.Header()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := write("a_elicit.go", header+"\n\npackage m\n\nvar a = 1\n")
	same := write("b_elicit.go", header+"\n\npackage m\n")
	handler := write("b_handler.go", "package m // mine\n")
	orphan := write("c_elicit.go", header+"\n\npackage m\n")
	mine := write("d_elicit.go", "package m\n")
	missing := filepath.Join(dir, "e_elicit.go")
	changes := Changes([]gen.File{
		{Path: stale, Content: []byte(header + "\n\npackage m\n\nvar a = 2\n")},
		{Path: same, Content: []byte(header + "\n\npackage m\n")},
		{Path: handler, Content: []byte("package m\n"), Once: true},
		{Path: orphan, Remove: true},
		{Path: mine, Remove: true},
		{Path: missing, Content: []byte("package m\n")},
	})
	want := []struct {
		path string
		kind ChangeKind
		diff string
	}{
		{stale, Stale, "--- a/a_elicit.go\n+++ b/a_elicit.go\n@@ -2,4 +2,4 @@\n \n package m\n \n-var a = 1\n+var a = 2\n"},
		{orphan, Orphaned, "--- a/c_elicit.go\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-" + header + "\n-\n-package m\n"},
		{missing, Missing, "--- /dev/null\n+++ b/e_elicit.go\n@@ -0,0 +1 @@\n+package m\n"},
	}
	if len(changes) != len(want) {
		t.Fatalf("%d changes, want %d: %+v", len(changes), len(want), changes)
	}
	for i, w := range want {
		c := changes[i]
		if c.Path != w.path || c.Kind != w.kind {
			t.Errorf("change %d: %s %d, want %s %d", i, c.Path, c.Kind, w.path, w.kind)
		}
		if d := c.Diff(dir); d != w.diff {
			t.Errorf("%s: diff\n%s\nwant\n%s", filepath.Base(c.Path), d, w.diff)
		}
	}
	if changes[0].BodyOnly() {
		t.Error("a change below the header counted as the header's only")
	}
	if !(Change{Kind: Stale, Old: []byte("// v1\nx\n"), New: []byte("// v2\nx\n")}).BodyOnly() {
		t.Error("a change of the header alone not seen as such")
	}
}

// TestChangesLeaveEmptiedStubs: a stale file already emptied to a stub the
// build ignores is harmless, so it is no change (-check passes; a plain
// mcpgen run removes it); a stale file that is not a stub yet is one.
func TestChangesLeaveEmptiedStubs(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "old_elicit.go")
	src := gen.Header() + "\n\n//go:build ignore\n\n// " + header.StaleStubNote + " (Old): go generate removes\n\npackage main\n"
	if err := os.WriteFile(stub, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := Changes([]gen.File{{Path: stub, Remove: true}}); len(c) != 0 {
		t.Errorf("a stub is a change: %+v", c)
	}
	if err := os.WriteFile(stub, []byte(gen.Header()+"\n\npackage m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := Changes([]gen.File{{Path: stub, Remove: true}}); len(c) != 1 || c[0].Kind != Orphaned {
		t.Errorf("a stale file: %+v, want it orphaned", c)
	}
}
