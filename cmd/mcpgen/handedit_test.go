package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// payTest builds PayArgs's flow in a test of the user's package, through
// runtime/elicittest as a handler's test would.
const payTest = "package m\n\nimport (\n\t\"testing\"\n\n\t\"github.com/mcpgen/mcpgen/runtime/elicittest\"\n)\n\n" +
	"func TestFlow(t *testing.T) { _ = elicittest.New(NewPayArgsFlow(nil)) }\n"

// TestStaleStructStopsTheFlow: a struct changed without go generate builds,
// but its flow refuses to start: the package's test (through elicittest)
// fails with the message that names the file, the struct, what changed and
// go generate; mcpgen-vet calls it stale. After go generate (silent: no
// edit by hand was overwritten) the test passes.
func TestStaleStructStopsTheFlow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test and go vet")
	}
	dir := newModule(t, map[string]string{"pay.go": payArgs, "pay_test.go": payTest})
	if code, _, stderr := mcpgen(t, "-type", "PayArgs"); code != 0 || stderr != "" {
		t.Fatalf("generate: exit %d, stderr (want none):\n%s", code, stderr)
	}
	if out, err := commandIn(t, "go", "test", "./...").CombinedOutput(); err != nil {
		t.Fatalf("go test of current code: %v\n%s", err, out)
	}
	replaceIn(t, dir, "pay.go", "enum=EUR|USD|GBP", "enum=EUR|USD|GBP|JPY")
	out, err := commandIn(t, "go", "test", "./...").CombinedOutput()
	want := "mcpgen: payargs_elicit.go is stale: struct PayArgs (package example.com/m) has changed since mcpgen generated the file " +
		"(field Currency: tag changed); run `go generate` in the package's directory (or `go generate ./...` at the module root), then build again"
	if err == nil || !strings.Contains(string(out), want) {
		t.Errorf("go test of stale code: %v, output:\n%s\nwant it to say:\n%s", err, out, want)
	}
	if out, err := vet(t); err == nil || !strings.Contains(out, "payargs_elicit.go is stale: PayArgs changed since it was generated; run go generate") {
		t.Errorf("go vet -vettool=mcpgen-vet: %v, output:\n%s", err, out)
	}
	if code, _, stderr := mcpgen(t, "-type", "PayArgs"); code != 0 || stderr != "" {
		t.Fatalf("regenerate: exit %d, stderr (want none: nothing was edited by hand):\n%s", code, stderr)
	}
	if out, err := commandIn(t, "go", "test", "./...").CombinedOutput(); err != nil {
		t.Errorf("go test after go generate: %v\n%s", err, out)
	}
}

// TestHandEditIsSaid: a generated file edited by hand is reported as such
// by -check and mcpgen-vet (not as a changed struct), and go generate that
// overwrites it says so on stderr, naming the file and how to get the edit
// back; the next go generate, with nothing edited, is silent.
func TestHandEditIsSaid(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go generate and go vet")
	}
	dir := newModule(t, map[string]string{"pay.go": payArgs})
	if code, _, stderr := mcpgen(t, "-type", "PayArgs"); code != 0 || stderr != "" {
		t.Fatalf("generate: exit %d, stderr (want none):\n%s", code, stderr)
	}
	generated := filepath.Join(dir, "payargs_elicit.go")
	orig, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	replaceIn(t, dir, "payargs_elicit.go", `"GBP"`, `"CHF"`)
	if code, _, stderr := mcpgen(t, "-check"); code != 1 || !strings.HasPrefix(stderr, "payargs_elicit.go: edited by hand since mcpgen wrote it; go generate would overwrite the edit") {
		t.Errorf("-check: exit %d, stderr:\n%s", code, stderr)
	}
	if out, err := vet(t); err == nil || !strings.Contains(out, "pay.go:6:6: payargs_elicit.go was edited by hand since mcpgen wrote it; go generate overwrites the edit") ||
		strings.Contains(out, "changed since it was generated") {
		t.Errorf("go vet -vettool=mcpgen-vet: %v, output:\n%s", err, out)
	}
	out, err := goGenerate(t)
	want := "mcpgen: warning: payargs_elicit.go was edited by hand since mcpgen wrote it; the edit is overwritten. " +
		"If the edited file was committed, `git diff payargs_elicit.go` shows the edit undone and `git checkout payargs_elicit.go` brings it back"
	if err != nil || !strings.Contains(out, want) {
		t.Errorf("go generate: %v, output:\n%s\nwant it to say:\n%s", err, out, want)
	}
	if b, _ := os.ReadFile(generated); string(b) != string(orig) {
		t.Errorf("go generate did not restore the generated file")
	}
	if out, err := goGenerate(t); err != nil || strings.Contains(out, "edited by hand") {
		t.Errorf("go generate with nothing edited: %v, output:\n%s", err, out)
	}
}
