package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// examplesModule is the module of examples/: the examples and the test
// harnesses whose dependencies the root module must not carry
// (docs/MAINTAINING.md, "Two modules").
const examplesModule = "github.com/mcpgen/mcpgen/examples"

// harnessModules returns the modules that the code of the examples module
// links and the code of the root module does not (chromedp through
// examples/internal/browsertest, goldmark and mvdan.cc/sh through
// examples/internal/docblocks, …), sorted: what the examples module exists
// to keep out of the root's go.mod. Test files are left out on both sides,
// so a root test that starts linking one of them is still caught.
func harnessModules(t *testing.T, root string) []string {
	t.Helper()
	own := map[string]bool{}
	for _, mod := range modulesOf(deps(t, root, "./...")) {
		own[mod] = true
	}
	var only []string
	for _, mod := range modulesOf(deps(t, filepath.Join(root, "examples"), "./...")) {
		if mod != examplesModule && !own[mod] {
			only = append(only, mod)
		}
	}
	if len(only) == 0 {
		t.Fatalf("the examples module links no module the root module does not: then it holds no harness, or deps reads the wrong module")
	}
	return only
}

// requiredBy returns the modules that node (a module path, with @version
// but for the main module) requires in dir's module graph (go mod graph,
// outside any workspace), with their versions: the version floors it sets
// for every module that requires it.
func requiredBy(t *testing.T, dir, node string, env ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", "mod", "graph")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS="), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go mod graph in %s: %v\n%s", dir, err, out)
	}
	reqs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		from, to, ok := strings.Cut(line, " ")
		if !ok || from != node {
			continue
		}
		mod, version, _ := strings.Cut(to, "@")
		reqs[mod] = version
	}
	if len(reqs) == 0 {
		t.Fatalf("go mod graph in %s: %s requires nothing; is it in the graph?\n%s", dir, node, out)
	}
	return reqs
}

// noHarnessModules fails the test for each module of harness that reqs,
// the requirements of what, hold.
func noHarnessModules(t *testing.T, what string, reqs map[string]string, harness []string) {
	t.Helper()
	for _, mod := range harness {
		if v, ok := reqs[mod]; ok {
			t.Errorf("%s requires %s %s, which only the examples module's harnesses link: move the code that needs it under examples/", what, mod, v)
		}
	}
}

// TestRootModuleHoldsNoHarness: the root go.mod, and so the module graph
// of every module that requires mcpgen, requires none of the modules only
// the examples module links (the harnesses moved to examples/ for this).
// TestFreshModuleGains holds the same in a user's fresh module.
func TestRootModuleHoldsNoHarness(t *testing.T) {
	root := repoRoot(t)
	harness := harnessModules(t, root)
	reqs := map[string]string{}
	for _, r := range requirements(t, root) {
		reqs[r.Mod.Path] = r.Mod.Version
	}
	noHarnessModules(t, "the root go.mod", reqs, harness)
	noHarnessModules(t, "the root module's graph: github.com/mcpgen/mcpgen", requiredBy(t, root, "github.com/mcpgen/mcpgen"), harness)
	t.Logf("the root go.mod requires %d modules; %d more only in the examples module's: %s", len(reqs), len(harness), strings.Join(harness, " "))
}
