package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// generatorModules are the modules, other than mcpgen's own, that the
// generator links: go/packages and its friends, jennifer, invopop's
// reflector (and what it links), the -check diff. A module added here is
// added to the go.mod of every module that runs `go tool mcpgen`.
var generatorModules = []string{
	"github.com/bahlo/generic-list-go",
	"github.com/buger/jsonparser",
	"github.com/dave/jennifer",
	"github.com/invopop/jsonschema",
	"github.com/pb33f/ordered-map/v2",
	"github.com/pmezard/go-difflib",
	"go.yaml.in/yaml/v4",
	"golang.org/x/mod",
	"golang.org/x/sync",
	"golang.org/x/tools",
}

// maxGeneratorPackages bounds the packages cmd/mcpgen links outside the
// standard library, its own included (45 when it was set; 111 while it
// linked the terminal client, now mcpgen-call). The standard
// library's share (223 of the 268 with Go 1.26, 75 of them net/http,
// crypto/tls and html/template for mcpgen preview) is left out: it changes
// with each Go release.
const maxGeneratorPackages = 45

// deps lists the packages pkgs link, each with its module's path ("" in the
// standard library), run by go list in the package's directory.
func deps(t *testing.T, dir string, pkgs ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = inRepository()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, mod, _ := strings.Cut(line, " ")
		m[pkg] = mod
	}
	return m
}

// modulesOf returns the modules of the packages in d, mcpgen's own left
// out, sorted.
func modulesOf(d map[string]string) []string {
	set := map[string]bool{}
	for _, mod := range d {
		if mod != "" && mod != "github.com/mcpgen/mcpgen" {
			set[mod] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestGeneratorDependencies holds the command's dependency graph to what
// generating needs: `go tool mcpgen` (and go run) hashes every package the
// command links before each run, so every //go:generate line pays for each
// one, and `go get -tool` writes each module it links into the user's
// go.mod. Neither the runtime (its JSON Schema libraries added a third to
// the graph) nor the terminal client (mcpgen-call: go-sdk, a terminal
// UI of 22 modules) is linked.
func TestGeneratorDependencies(t *testing.T) {
	t.Parallel()
	d := deps(t, ".", ".")
	outside := 0
	for p, mod := range d {
		if mod != "" {
			outside++
		}
		if p == "github.com/mcpgen/mcpgen/runtime" || strings.HasPrefix(p, "github.com/mcpgen/mcpgen/runtime/") {
			t.Errorf("cmd/mcpgen links %s; keep what the generator needs outside runtime/ (as internal/format and internal/keygen are)", p)
		}
		if p == "github.com/mcpgen/mcpgen/mcpgen-call/internal/callclient" {
			t.Errorf("cmd/mcpgen links %s, the terminal client: it is mcpgen-call's", p)
		}
	}
	for _, mod := range modulesOf(d) {
		if !slices.Contains(generatorModules, mod) {
			t.Errorf("cmd/mcpgen links module %s (through %s): every module it links lands in the go.mod of each module using mcpgen as a tool; if it must, add it to generatorModules", mod, linkedFrom(d, mod))
		}
	}
	if outside > maxGeneratorPackages {
		t.Errorf("cmd/mcpgen links %d packages outside the standard library, more than %d: go tool mcpgen hashes each before every run", outside, maxGeneratorPackages)
	}
	t.Logf("cmd/mcpgen links %d packages, %d outside the standard library, from %d modules besides mcpgen", len(d), outside, len(modulesOf(d)))
}

// linkedFrom names one package of mod in d, for an error message.
func linkedFrom(d map[string]string, mod string) string {
	var pkgs []string
	for p, m := range d {
		if m == mod {
			pkgs = append(pkgs, p)
		}
	}
	slices.Sort(pkgs)
	return pkgs[0]
}

// The terminal client is a client of any MCP server: it links no package
// of the runtime.
func TestCallClientNoRuntimeDependency(t *testing.T) {
	t.Parallel()
	for p := range deps(t, ".", "../../mcpgen-call") {
		if p == "github.com/mcpgen/mcpgen/runtime" || strings.HasPrefix(p, "github.com/mcpgen/mcpgen/runtime/") {
			t.Errorf("mcpgen-call links %s; the client speaks MCP through go-sdk only", p)
		}
	}
}

// TestFreshModuleGains follows the README in a fresh module, `go get -tool
// …/cmd/mcpgen` then `go get …/runtime` (mcpgen from this checkout, by a
// replace directive, as the README's "point your module at a checkout"),
// and holds what its go.mod then requires: only modules the generator or
// the runtime links, none of the terminal client's. Offline: it needs
// only the module cache this repository's own build fills (GOPROXY=off).
func TestFreshModuleGains(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	dir := t.TempDir()
	goCmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s(GOPROXY=off: the module cache must hold this repository's dependencies: go mod download)", strings.Join(args, " "), err, out)
		}
	}
	goCmd("mod", "init", "example.com/fresh")
	goCmd("mod", "edit", "-require", "github.com/mcpgen/mcpgen@v0.0.0", "-replace", "github.com/mcpgen/mcpgen="+root)
	goCmd("get", "-tool", "github.com/mcpgen/mcpgen/cmd/mcpgen")
	tool := requirements(t, dir)
	goCmd("get", "github.com/mcpgen/mcpgen/runtime")
	reqs := requirements(t, dir)

	linked := map[string]bool{"github.com/mcpgen/mcpgen": true}
	for _, mod := range append(modulesOf(deps(t, root, "./cmd/mcpgen", "./runtime")), generatorModules...) {
		linked[mod] = true
	}
	// The client's own modules: those neither the generator may link
	// (generatorModules) nor the runtime links.
	runtimeMods := modulesOf(deps(t, root, "./runtime"))
	client := map[string]bool{}
	for _, mod := range modulesOf(deps(t, root, "./mcpgen-call")) {
		if !slices.Contains(generatorModules, mod) && !slices.Contains(runtimeMods, mod) {
			client[mod] = true
		}
	}
	if !client["github.com/charmbracelet/bubbletea"] {
		t.Fatalf("the terminal client's own modules %v lack bubbletea: what does mcpgen-call link?", slices.Sorted(maps.Keys(client)))
	}
	direct := 0
	for _, r := range reqs {
		if !r.Indirect {
			direct++
		}
		switch {
		case client[r.Mod.Path]:
			t.Errorf("go.mod requires %s, a module of the terminal client (mcpgen-call), which the generator must not link", r.Mod.Path)
		case !linked[r.Mod.Path]:
			t.Errorf("go.mod requires %s, which neither cmd/mcpgen nor runtime links", r.Mod.Path)
		}
	}
	if len(reqs) > 1+len(generatorModules)+4 {
		t.Errorf("go.mod requires %d modules; want at most %d: mcpgen, the generator's %d modules, the runtime's 4 others", len(reqs), 1+len(generatorModules)+4, len(generatorModules))
	}
	// Nor does mcpgen, in its module graph, require a module only the
	// harnesses (examples/) or the terminal client (mcpgen-call) link:
	// no version floor of theirs.
	floors := requiredBy(t, dir, "github.com/mcpgen/mcpgen@v0.0.0", "GOPROXY=off", "GOTOOLCHAIN=local")
	noOthersModules(t, "in a fresh module's graph, github.com/mcpgen/mcpgen", floors, othersOnly(t, root))
	t.Logf("a fresh module requires %d modules after go get -tool …/cmd/mcpgen, %d (%d direct, %d indirect) after go get …/runtime; mcpgen sets the version floor of %d modules in its graph", len(tool), len(reqs), direct, len(reqs)-direct, len(floors))
}

// requirements returns the require lines of dir's go.mod.
func requirements(t *testing.T, dir string) []*modfile.Require {
	t.Helper()
	path := filepath.Join(dir, "go.mod")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax(path, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f.Require
}
