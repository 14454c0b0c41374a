package main

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// otherModules returns the directories of the repository's other modules,
// as the root go.work uses them (docs/MAINTAINING.md, "Three modules"):
// examples/ (the examples and the test harnesses), mcpgen-call (the
// terminal client).
func otherModules(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "work", "edit", "-json")
	cmd.Dir = root
	cmd.Env = inRepository()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go work edit -json: %v", err)
	}
	var work struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(out, &work); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, u := range work.Use {
		if filepath.Clean(u.DiskPath) != "." {
			dirs = append(dirs, filepath.Join(root, u.DiskPath))
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("go.work uses no module beside the root's:\n%s", out)
	}
	return dirs
}

// othersOnly returns the modules that the code of the repository's other
// modules links and the code of the root module does not (chromedp through
// examples/internal/browsertest, goldmark and mvdan.cc/sh through
// examples/internal/docblocks, the terminal UI through
// mcpgen-call/internal/callclient, …), sorted: what those modules exist
// to keep out of the root's go.mod. Test files are left out on both sides,
// so a root test that starts linking one of them is still caught.
func othersOnly(t *testing.T, root string) []string {
	t.Helper()
	own := map[string]bool{}
	for _, mod := range modulesOf(deps(t, root, "./...")) {
		own[mod] = true
	}
	set := map[string]bool{}
	for _, dir := range otherModules(t, root) {
		for _, mod := range modulesOf(deps(t, dir, "./...")) {
			if !own[mod] && !strings.HasPrefix(mod, "github.com/mcpgen/mcpgen/") {
				set[mod] = true
			}
		}
	}
	if len(set) == 0 {
		t.Fatalf("the other modules link no module the root module does not: then they need not be modules, or deps reads the wrong ones")
	}
	return slices.Sorted(maps.Keys(set))
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

// noOthersModules fails the test for each module of others that reqs, the
// requirements of what, hold.
func noOthersModules(t *testing.T, what string, reqs map[string]string, others []string) {
	t.Helper()
	for _, mod := range others {
		if v, ok := reqs[mod]; ok {
			t.Errorf("%s requires %s %s, which only the code of examples/ or mcpgen-call links: move the code that needs it into one of those modules", what, mod, v)
		}
	}
}

// TestRootModuleRequiresOnlyItsOwn: the root go.mod, and so the module
// graph of every module that requires mcpgen, requires none of the modules
// only the repository's other modules link (the harnesses moved to
// examples/, the terminal client to mcpgen-call, for this).
// TestFreshModuleGains holds the same in a user's fresh module.
func TestRootModuleRequiresOnlyItsOwn(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	others := othersOnly(t, root)
	reqs := map[string]string{}
	for _, r := range requirements(t, root) {
		reqs[r.Mod.Path] = r.Mod.Version
	}
	noOthersModules(t, "the root go.mod", reqs, others)
	noOthersModules(t, "the root module's graph: github.com/mcpgen/mcpgen", requiredBy(t, root, "github.com/mcpgen/mcpgen"), others)
	t.Logf("the root go.mod requires %d modules; %d more only in the other modules': %s", len(reqs), len(others), strings.Join(others, " "))
}
