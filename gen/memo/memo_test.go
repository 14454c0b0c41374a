package memo

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
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
	if m.current() {
		t.Fatal("Current before any Record")
	}
	m.Record(nil)
	if !New(cfg).current() {
		t.Fatal("not Current after Record, nothing changed")
	}
	if New(Config{Dir: dir, Args: []string{"-type", "B"}}).current() {
		t.Error("Current for another command line")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nvar A = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if New(cfg).current() {
		t.Error("Current after a.go changed")
	}
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if New(cfg).current() {
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
	m.Record(nil) // the load saw a.go as it is now, not as it was keyed
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nimport \"strings\"\n\nvar A = strings.ToUpper(\"a\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if New(cfg).current() {
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
	m.Record(nil)
	if m.current() {
		t.Error("a nil Memo is Current")
	}
}

// TestKeyFollowsTheExecutable: a record made by one build of mcpgen is not
// current for another (its executable's digest differs), whatever the
// other changed; the record is current again for the build that made it.
func TestKeyFollowsTheExecutable(t *testing.T) {
	dir := module(t)
	this := ExecutableDigest
	t.Cleanup(func() { ExecutableDigest = this })
	cfg := Config{Dir: dir}
	New(cfg).Record(nil)
	if !New(cfg).current() {
		t.Fatal("not Current after Record, nothing changed")
	}
	ExecutableDigest = func() string { return strings.Repeat("0", 64) }
	if New(cfg).current() {
		t.Error("Current for another executable")
	}
	ExecutableDigest = this
	if !New(cfg).current() {
		t.Error("not Current for the executable that recorded it")
	}
}

// TestFileDigest: the SHA-256 of the file's bytes, computed again when its
// size or modification time changes, read back from the record while
// neither does (the record is keyed by path, size and modification time),
// and computed without a record when the cache is off.
func TestFileDigest(t *testing.T) {
	t.Setenv(EnvCache, t.TempDir())
	exe := filepath.Join(t.TempDir(), "mcpgen")
	write := func(content string, mtime time.Time) string {
		t.Helper()
		if err := os.WriteFile(exe, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(exe, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(content))
		return hex.EncodeToString(sum[:])
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	first := write("build one", at)
	if got := FileDigest(exe); got != first {
		t.Fatalf("FileDigest = %s, want %s", got, first)
	}
	second := write("build two", at.Add(time.Second))
	if got := FileDigest(exe); got != second {
		t.Errorf("after a rebuild: FileDigest = %s, want %s", got, second)
	}
	// The record is what an unchanged file reads back: make it say
	// something else, and FileDigest says that.
	records, _ := filepath.Glob(filepath.Join(Dir(), "exe", "*"))
	fake := strings.Repeat("ab", sha256.Size)
	for _, r := range records {
		if err := os.WriteFile(r, []byte(fake), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := FileDigest(exe); got != fake {
		t.Errorf("unchanged file: FileDigest = %s, want the recorded %s", got, fake)
	}
	// Rewritten with the same size and modification time (cp -p): on Linux
	// its status change time moved, so it is hashed again.
	same := write("build 333", at.Add(time.Second))
	if got := FileDigest(exe); runtime.GOOS == "linux" && got != same {
		t.Errorf("same size and time, rewritten: FileDigest = %s, want %s", got, same)
	}
	t.Setenv(EnvCache, "off")
	third := write("build three", at)
	if got := FileDigest(exe); got != third {
		t.Errorf("cache off: FileDigest = %s, want %s", got, third)
	}
	if got := FileDigest(filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("FileDigest of a missing file = %q, want \"\"", got)
	}
}

// current reports whether m recalls a record.
func (m *Memo) current() bool {
	_, ok := m.Recall()
	return ok
}

// TestRecallReturnsTheNote: what Record was given is what Recall returns.
func TestRecallReturnsTheNote(t *testing.T) {
	dir := module(t)
	cfg := Config{Dir: dir}
	New(cfg).Record([]byte("warned\ntwice"))
	if note, ok := New(cfg).Recall(); !ok || string(note) != "warned\ntwice" {
		t.Errorf("Recall = %q, %v; want the recorded note", note, ok)
	}
}

// TestKeysTheStandardLibrarysVendoredPackages: a module that uses
// golang.org/x/net and net/http (every server does) is keyed: go list names
// the module cache as the root of the standard library's vendored copies
// then, and the key takes the toolchain's VERSION from GOROOT instead.
func TestKeysTheStandardLibrarysVendoredPackages(t *testing.T) {
	dir := module(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var net string // the golang.org/x/net this module requires
	for line := range strings.Lines(string(mod)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "golang.org/x/net" {
			net = f[1]
		}
	}
	if net == "" {
		t.Fatal("go.mod requires no golang.org/x/net: choose another module of the standard library's vendor directory")
	}
	for name, content := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26.0\n\nrequire golang.org/x/net " + net + "\n",
		"go.sum": string(sums),
		"a.go":   "package m\n\nimport (\n\t_ \"net/http\"\n\n\t_ \"golang.org/x/net/idna\"\n)\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	m := New(Config{Dir: dir})
	if m == nil {
		t.Fatal("New: nil for a module using net/http and golang.org/x/net")
	}
	m.Record(nil)
	if !New(Config{Dir: dir}).current() {
		t.Error("not Current after Record, nothing changed")
	}
}

// TestRecordSkipsAFileAddedDuringTheRun: a file added to a package between
// keying and Record (another run, a checkout) was not in the key's file
// list; Record keys the run again, so nothing is recorded, and removing the
// file later does not make a stale output look current.
func TestRecordSkipsAFileAddedDuringTheRun(t *testing.T) {
	dir := module(t)
	cfg := Config{Dir: dir}
	m := New(cfg)
	extra := filepath.Join(dir, "extra.go")
	if err := os.WriteFile(extra, []byte("package m\n\nvar B = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Record(nil)
	if err := os.Remove(extra); err != nil {
		t.Fatal(err)
	}
	if New(cfg).current() {
		t.Error("Current after a file came and went during the run: Record kept the key of a listing the load did not see")
	}
}

// TestRelativeCacheIsOff: a relative MCPGEN_CACHE would be a directory in
// each package (go generate runs a directive there): the memo is off, as
// the go command refuses a relative GOCACHE.
func TestRelativeCacheIsOff(t *testing.T) {
	t.Setenv(EnvCache, "relative/cache")
	if d := Dir(); d != "" {
		t.Errorf("Dir() = %q for a relative MCPGEN_CACHE; want \"\" (off)", d)
	}
}
