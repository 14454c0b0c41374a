package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoRuntimeDependency holds the command's dependency graph apart from
// the runtime: `go tool mcpgen` (and go run) hashes every package the command
// links before each run, so every //go:generate line pays for each one; the
// runtime and its JSON Schema libraries added a third to the graph.
func TestNoRuntimeDependency(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/mcpgen/mcpgen/runtime" || strings.HasPrefix(p, "github.com/mcpgen/mcpgen/runtime/") {
			t.Errorf("cmd/mcpgen links %s; keep what the generator needs outside runtime/ (as internal/format and internal/keygen are)", p)
		}
	}
}
