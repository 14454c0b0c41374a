package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const payArgs = "package m\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type PayArgs\n\n" +
	"// PayArgs are the arguments of a tool.\ntype PayArgs struct {\n" +
	"\tCurrency string `json:\"currency,omitempty\" elicit:\"enum=EUR|USD|GBP\"`\n}\n"

// TestCheck: -check writes nothing, is silent and exits 0 when every
// generated file is current, and lists each stale, missing or orphaned file
// (exit 1) otherwise.
func TestCheck(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds mcpgen-vet and runs go vet")
	}
	dir := newModule(t, map[string]string{"pay.go": payArgs})
	if code, _, stderr := mcpgen(t, "-check"); code != 1 || stderr != "payargs_elicit.go: missing; run go generate\npayargs_handler.go: missing; run go generate\nmcpgen_tools.go: missing; run go generate\n" {
		t.Errorf("before generating: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := mcpgen(t, "-type", "PayArgs"); code != 0 || stderr != "" {
		t.Fatalf("generate: exit %d, stderr (want none):\n%s", code, stderr)
	}
	if code, stdout, stderr := mcpgen(t, "-check", "./..."); code != 0 || stdout+stderr != "" {
		t.Errorf("current: exit %d, output (want none):\n%s%s", code, stdout, stderr)
	}
	changed := strings.Replace(payArgs, "enum=EUR|USD|GBP", "enum=EUR|USD|GBP|JPY", 1)
	if err := os.WriteFile(filepath.Join(dir, "pay.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	code, stdout, stderr := mcpgen(t, "-check")
	if want := "payargs_elicit.go: stale; run go generate\n"; code != 1 || stderr != want {
		t.Errorf("stale: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	// What go generate would change, as a unified diff.
	if !strings.HasPrefix(stdout, "--- a/payargs_elicit.go\n+++ b/payargs_elicit.go\n@@ ") ||
		!regexp.MustCompile(`(?m)^-.*"GBP"`).MatchString(stdout) || !regexp.MustCompile(`(?m)^\+.*"JPY"`).MatchString(stdout) {
		t.Errorf("stale: stdout is not the diff adding JPY:\n%s", stdout)
	}
	requireSame(t, before, snapshot(t, dir))
	// The analyzer says the same at the struct.
	if out, err := vet(t); err == nil || !strings.Contains(out, "pay.go:6:6: payargs_elicit.go is stale: PayArgs changed since it was generated; run go generate") {
		t.Errorf("go vet -vettool=mcpgen-vet: %v, output:\n%s", err, out)
	}
	if code, _, stderr := mcpgen(t, "-type", "PayArgs"); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := mcpgen(t, "-check"); code != 0 {
		t.Errorf("after generating: exit %d\n%s", code, stderr)
	}
	if out, err := vet(t); err != nil {
		t.Errorf("go vet -vettool=mcpgen-vet after generating: %v\n%s", err, out)
	}

	// A renamed struct: its old file is orphaned.
	renamed := strings.ReplaceAll(changed, "PayArgs", "ChargeArgs")
	if err := os.WriteFile(filepath.Join(dir, "pay.go"), []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "payargs_handler.go")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = mcpgen(t, "-check")
	// The package's tools file names the tool's new struct.
	want := "chargeargs_elicit.go: missing; run go generate\nchargeargs_handler.go: missing; run go generate\nmcpgen_tools.go: stale; run go generate\n" +
		"payargs_elicit.go: orphaned (its type no longer exists); run go generate to remove it\n"
	if code != 1 || stderr != want {
		t.Errorf("renamed: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
}

// vet runs go vet with cmd/mcpgen-vet (buildVet) on the working directory.
func vet(t *testing.T) (string, error) {
	t.Helper()
	out, err := commandIn(t, "go", "vet", "-vettool="+buildVet(t), "./...").CombinedOutput()
	return string(out), err
}
