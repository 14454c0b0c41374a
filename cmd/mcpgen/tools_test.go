package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readFile returns the content of dir/name, failing the test when it
// cannot be read.
func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestToolsFileFollowsEveryDirective: each directive of a package (one
// -type each, as go generate runs them) writes the same mcpgen_tools.go,
// with every tool its directives name; a tool added in another file is in
// it after the next run of the first directive alone, although the first
// struct's own file is current, and -check calls the tools file stale
// until then.
func TestToolsFileFollowsEveryDirective(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"a.go": tagged("A")})
	if code, _, stderr := mcpgen(t, "-type", "A"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	first := readFile(t, dir, "mcpgen_tools.go")
	if !strings.Contains(first, "NewAFlow(h.A)") || strings.Contains(first, "NewBFlow") {
		t.Fatalf("mcpgen_tools.go after A's run:\n%s", first)
	}
	goBuild(t)
	aElicit := snapshot(t, dir)["a_elicit.go"]

	// B, in another file with its own directive.
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte(tagged("B")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := mcpgen(t, "-check")
	if code != 1 || !strings.Contains(stderr, "mcpgen_tools.go: stale; run go generate") {
		t.Errorf("-check after adding B: exit %d, want 1 naming mcpgen_tools.go stale\n%s", code, stderr)
	}
	// The analyzer says so at the package's first tool.
	if !testing.Short() {
		if out, err := vet(t); err == nil || !strings.Contains(out, "a.go:6:6: mcpgen_tools.go is stale: the package's tools changed since it was generated; run go generate") {
			t.Errorf("go vet -vettool=mcpgen-vet: %v, output:\n%s", err, out)
		}
	}
	// A run that fails writes nothing, the tools file included.
	bad := strings.Replace(tagged("C"), `elicit:"required"`, `elicit:"requird"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "c.go"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	if code, _, _ := mcpgen(t, "-type", "A"); code != 1 {
		t.Errorf("a run with a bad tag: exit %d, want 1", code)
	}
	requireSame(t, before, snapshot(t, dir))
	if err := os.Remove(filepath.Join(dir, "c.go")); err != nil {
		t.Fatal(err)
	}
	// A's directive again: A is current, the package's tools are not.
	if code, _, stderr := mcpgen(t, "-type", "A", "-v"); code != 0 || !strings.Contains(stderr, "wrote mcpgen_tools.go") || strings.Contains(stderr, "a_elicit.go") {
		t.Fatalf("A's run after adding B: exit %d, want mcpgen_tools.go written and a_elicit.go left\n%s", code, stderr)
	}
	tools := readFile(t, dir, "mcpgen_tools.go")
	if !strings.Contains(tools, "NewBFlow(h.B)") || !strings.Contains(tools, "\tB BHandler\n") {
		t.Fatalf("mcpgen_tools.go after A's run lacks B:\n%s", tools)
	}
	if got := snapshot(t, dir)["a_elicit.go"]; got != aElicit {
		t.Errorf("a_elicit.go was rewritten")
	}
	// B's directive, and a run without -type, write the same bytes.
	for _, args := range [][]string{{"-type", "B"}, {}, {"./..."}} {
		if code, _, stderr := mcpgen(t, args...); code != 0 {
			t.Fatalf("mcpgen %v: exit %d\n%s", args, code, stderr)
		}
		if got := readFile(t, dir, "mcpgen_tools.go"); got != tools {
			t.Errorf("mcpgen %v rewrote mcpgen_tools.go:\n%s\nwant:\n%s", args, got, tools)
		}
	}
	if code, _, stderr := mcpgen(t, "-check"); code != 0 {
		t.Errorf("-check: exit %d\n%s", code, stderr)
	}
	goBuild(t)
}

// TestToolsFileMissingAndOrphaned: -check reports a missing
// mcpgen_tools.go; once the package's last tool is gone (a question is no
// tool), the file is orphaned, and the next run removes it.
func TestToolsFileMissingAndOrphaned(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": goodArgs})
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if err := os.Remove(filepath.Join(dir, "mcpgen_tools.go")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := mcpgen(t, "-check"); code != 1 || !strings.Contains(stderr, "mcpgen_tools.go: missing; run go generate") {
		t.Errorf("-check without mcpgen_tools.go: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// Args becomes a question: the package has no tool left.
	question := strings.Replace(goodArgs, "// Args are the arguments of a tool.\n", "// Args is a question.\n//\n//mcpgen:question\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "args.go"), []byte(question), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "args_handler.go")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := mcpgen(t, "-check"); code != 1 || !strings.Contains(stderr, "mcpgen_tools.go: orphaned") {
		t.Errorf("-check after the last tool went: exit %d, want mcpgen_tools.go orphaned\n%s", code, stderr)
	}
	code, _, stderr := mcpgen(t, "-v")
	if code != 0 || !strings.Contains(stderr, "removed stale mcpgen_tools.go (the package has no tool any more)") {
		t.Fatalf("exit %d, want mcpgen_tools.go removed\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "mcpgen_tools.go")); err == nil {
		t.Error("mcpgen_tools.go is still there")
	}
	goBuild(t)
}

// TestFlowsServesEveryTool builds a program that calls Flows: every tool
// in order of tool name, each nil field standing for its skeleton (&T{}
// when its methods have pointer receivers), a question and a tool whose
// file has a build constraint left out, and a nil field of a tool whose
// handler type is gone a panic naming the field and the tool.
func TestFlowsServesEveryTool(t *testing.T) {
	t.Parallel()
	tool := func(name, doc string) string {
		return "package main\n\n// " + name + " are a tool's arguments.\n" + doc + "type " + name + " struct {\n\tCity string `json:\"city\" elicit:\"required\"`\n}\n"
	}
	dir := newModule(t, map[string]string{
		"zeta.go":  tool("ZetaArgs", "//\n//mcpgen:tool alpha_first\n"),
		"beta.go":  tool("BetaArgs", ""),
		"gamma.go": tool("GammaArgs", ""),
		"only.go":  "//go:build linux || !linux\n\n" + tool("OnlyArgs", ""),
		"ask.go":   tool("Ask", "//\n//mcpgen:question\n"),
		"main.go": `package main

import "fmt"

var _ = NewOnlyArgsFlow(onlyArgsHandler{})

func main() {
	for _, f := range Flows(Handlers{}) {
		fmt.Println(f.Name())
	}
	defer func() { fmt.Println(recover()) }()
	Flows(Handlers{ZetaArgs: zetaArgsHandler{}, BetaArgs: &betaArgsHandler{}})
}
`,
	})
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// Beta's handler takes pointer receivers.
	replaceIn(t, dir, "betaargs_handler.go", "(h betaArgsHandler)", "(h *betaArgsHandler)", "= betaArgsHandler{}", "= &betaArgsHandler{}")
	// Gamma's handler file, made the user's own (no longer one mcpgen
	// recognises as its skeleton), now declares another type.
	replaceIn(t, dir, "gammaargs_handler.go", "gammaArgsHandler", "gammaImpl", "mcpgen wrote it once", "it was written once")
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	tools := readFile(t, dir, "mcpgen_tools.go")
	for _, want := range []string{"h.BetaArgs = &betaArgsHandler{}", "h.ZetaArgs = zetaArgsHandler{}", `panic("main.Flows: Handlers.GammaArgs is nil: set it to the handler of the gamma tool`} {
		if !strings.Contains(tools, want) {
			t.Errorf("mcpgen_tools.go lacks %q:\n%s", want, tools)
		}
	}
	for _, absent := range []string{"Ask", "OnlyArgs"} {
		if strings.Contains(tools, absent) {
			t.Errorf("mcpgen_tools.go names %s:\n%s", absent, tools)
		}
	}
	out, err := commandIn(t, "go", "run", ".").CombinedOutput()
	if err != nil && !strings.Contains(string(out), "Handlers.GammaArgs is nil") {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	// Flows(Handlers{}) panics at once for GammaArgs: no flow is listed.
	if want := "main.Flows: Handlers.GammaArgs is nil: set it to the handler of the gamma tool (the package declares no gammaArgsHandler type to stand for it)"; !strings.Contains(string(out), want) {
		t.Errorf("go run: want the panic %q, got:\n%s", want, out)
	}
	// With Gamma's handler given, every tool in order of tool name.
	replaceIn(t, dir, "main.go", "Flows(Handlers{})", "Flows(Handlers{GammaArgs: gammaImpl{}})")
	out, err = commandIn(t, "go", "run", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if want := "alpha_first\nbeta\ngamma\nmain.Flows: Handlers.GammaArgs is nil: set it to the handler of the gamma tool (the package declares no gammaArgsHandler type to stand for it)\n"; string(out) != want {
		t.Errorf("go run printed:\n%s\nwant:\n%s", out, want)
	}
}

// TestFlowsAndHandlersCollide: a package with tools that declares Flows or
// Handlers itself is told to rename its own, at its declaration.
func TestFlowsAndHandlersCollide(t *testing.T) {
	t.Parallel()
	newModule(t, map[string]string{
		"args.go": goodArgs,
		"mine.go": "package m\n\n// Flows is the user's.\nfunc Flows() {}\n\n// Handlers is the user's.\ntype Handlers int\n",
	})
	code, _, stderr := mcpgen(t)
	want := "mine.go:4:6: func Flows collides with the generated function Flows (every tool's flow) in mcpgen_tools.go, which mcpgen writes for the package's tools; rename yours\n" +
		"mine.go:7:6: type Handlers collides with the generated type Handlers (one handler per tool of the package) in mcpgen_tools.go, which mcpgen writes for the package's tools; rename yours\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
}

// TestUnregisteredToolWarns: in a package main, a tool that no file
// registers is a warning (exit 0, files written); a main that calls Flows,
// or the tool's New<T>Flow, silences it.
func TestUnregisteredToolWarns(t *testing.T) {
	t.Parallel()
	args := strings.Replace(goodArgs, "package m", "package main", 1)
	dir := newModule(t, map[string]string{"args.go": args, "main.go": "package main\n\nfunc main() {}\n"})
	code, _, stderr := mcpgen(t)
	want := "args.go:4:6: warning: tool args is never registered: no file of package main calls Flows or NewArgsFlow, so the server never lists it; " +
		"mcpgen init writes a main.go that registers them all; or register the package's tools with mcpsdk.AddTools(s, Flows(Handlers{}), opts) (or mcpgo.AddTools), or this one with mcpsdk.AddTool(s, NewArgsFlow(argsHandler{}), opts)\n"
	if code != 0 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and:\n%s", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "mcpgen_tools.go")); err != nil {
		t.Errorf("nothing written: %v", err)
	}
	for _, main := range []string{
		"package main\n\nfunc main() { _ = Flows(Handlers{}) }\n",
		"package main\n\nfunc main() { _ = NewArgsFlow(argsHandler{}) }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := mcpgen(t); code != 0 || stderr != "" {
			t.Errorf("with %q: exit %d, stderr:\n%s", main, code, stderr)
		}
		goBuild(t)
	}
}
