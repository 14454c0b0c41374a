package memo

import (
	"os"
	"path/filepath"
	"testing"
)

// module writes a module of one package, a.go, and returns its directory.
func module(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26.0\n",
		"a.go":   "package m\n\nimport \"strings\"\n\nvar A = strings.ToUpper(\"a\")\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvCache, t.TempDir())
	t.Setenv("GOWORK", "off")
	return dir
}

func TestKeyFollowsFilesAndCommandLine(t *testing.T) {
	dir := module(t)
	cfg := Config{Dir: dir, Args: []string{"-type", "A"}}
	m := New(cfg)
	if m == nil {
		t.Fatal("New: nil for a module that lists")
	}
	if m.Current() {
		t.Fatal("Current before any Record")
	}
	m.Record()
	if !New(cfg).Current() {
		t.Fatal("not Current after Record, nothing changed")
	}
	if New(Config{Dir: dir, Args: []string{"-type", "B"}}).Current() {
		t.Error("Current for another command line")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nvar A = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if New(cfg).Current() {
		t.Error("Current after a.go changed")
	}
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if New(cfg).Current() {
		t.Error("Current after b.go was added")
	}
}

func TestRecordSkipsFilesChangedDuringTheRun(t *testing.T) {
	dir := module(t)
	cfg := Config{Dir: dir}
	m := New(cfg)
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nvar A = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Record() // the load saw a.go as it is now, not as it was keyed
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nimport \"strings\"\n\nvar A = strings.ToUpper(\"a\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if New(cfg).Current() {
		t.Error("Current for the content the run was keyed with, though a.go changed before Record")
	}
}

func TestOffAndErrors(t *testing.T) {
	dir := module(t)
	t.Setenv(EnvCache, "off")
	if New(Config{Dir: dir}) != nil {
		t.Error("New with MCPGEN_CACHE=off: not nil")
	}
	t.Setenv(EnvCache, t.TempDir())
	if m := New(Config{Dir: dir, Patterns: []string{"./nosuch"}}); m != nil {
		t.Error("New for a pattern that matches nothing: not nil")
	}
	t.Setenv("GOFLAGS", "-overlay="+filepath.Join(dir, "overlay.json"))
	if m := New(Config{Dir: dir}); m != nil {
		t.Error("New with an -overlay in GOFLAGS: not nil")
	}
	t.Setenv("GOFLAGS", "")
	if err := os.WriteFile(filepath.Join(dir, "c.go"), []byte("package m\n\nimport \"C\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CGO_ENABLED", "1")
	if m := New(Config{Dir: dir}); m != nil {
		t.Error("New for a package of the module that uses cgo: not nil")
	}
	var m *Memo
	m.Record()
	if m.Current() {
		t.Error("a nil Memo is Current")
	}
}
