package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/clients"
)

// TestPreview runs mcpgen preview on examples/bookflight: one page with the
// tool's form, a column for each client named; and the usage errors.
func TestPreview(t *testing.T) {
	clients.All = realTable
	t.Cleanup(func() { clients.All = nil })
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"preview", "-o", dir, "-clients", "vscode,claude-desktop", "../../examples/bookflight"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
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
	for args, msg := range map[string]string{
		"preview -serve 0.0.0.0:8090 .":     "not a loopback address",
		"preview -o x -serve 127.0.0.1:0 .": "-o and -serve exclude each other",
		"preview -clients nosuch .":         `no client "nosuch"`,
	} {
		stderr.Reset()
		if code := run(strings.Fields(args), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), msg) {
			t.Errorf("mcpgen %s: exit %d, %q; want 2 and %q", args, code, stderr.String(), msg)
		}
	}
}
