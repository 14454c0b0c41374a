package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreview runs mcpgen preview on examples/bookflight: one page with the
// tool's form, a column for each client named; and the usage errors. The
// page is made by the built command, which has the real client table (this
// test binary runs without it, TestMain), so that the test runs in parallel
// with the others.
func TestPreview(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := builtTool(t, "github.com/mcpgen/mcpgen/cmd/mcpgen")
	cmd := exec.Command(bin, "preview", "-o", dir, "-clients", "vscode,claude-desktop", "./examples/bookflight")
	cmd.Dir = repoRoot(t)
	cmd.Env = inRepository()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mcpgen preview: %v: %s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-form="book_flight"`, `data-client="spec"`, `data-client="vscode"`, `data-client="claude-desktop" data-look="no-form"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the page lacks %s", want)
		}
	}
	var stdout, stderr bytes.Buffer
	for args, msg := range map[string]string{
		"preview -serve 0.0.0.0:8090 .":     "not a loopback address",
		"preview -o x -serve 127.0.0.1:0 .": "-o and -serve exclude each other",
		"preview -clients nosuch .":         `no client "nosuch"`,
	} {
		stderr.Reset()
		if code, _ := execute(dir, strings.Fields(args), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), msg) {
			t.Errorf("mcpgen %s: exit %d, %q; want 2 and %q", args, code, stderr.String(), msg)
		}
	}
}
