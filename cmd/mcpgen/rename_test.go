package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goGenerate runs go generate ./... in the working directory, as the user
// would.
func goGenerate(t *testing.T) (string, error) {
	t.Helper()
	out, err := commandIn(t, "go", "generate", "./...").CombinedOutput()
	return string(out), err
}

func replaceIn(t *testing.T, dir, file string, pairs ...string) {
	t.Helper()
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.NewReplacer(pairs...).Replace(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRenamedStruct: the user renames SignupArgs to RegisterArgs in its file
// and in use.go. go generate then names the one rename left to make, in the
// handler file mcpgen wrote once, and writes nothing (no second handler);
// once it is made, one go generate succeeds and removes the stale file
// (which go generate had listed and not read yet), the package builds, and
// -check finds everything current.
func TestRenamedStruct(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go generate")
	}
	dir := newModule(t, map[string]string{
		"signup.go": tagged("SignupArgs"),
		"use.go":    "package m\n\nvar _ = NewSignupArgsFlow(signupArgsHandler{})\n",
	})
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("go generate: %v\n%s", err, out)
	}
	replaceIn(t, dir, "signup.go", "SignupArgs", "RegisterArgs")
	replaceIn(t, dir, "use.go", "SignupArgs", "RegisterArgs")
	before := snapshot(t, dir)
	out, err := goGenerate(t)
	want := "signupargs_handler.go:16:6: rename signupArgsHandler to registerArgsHandler in signupargs_handler.go, and SignupArgs to RegisterArgs in its method signatures and SignupArgsHandler to RegisterArgsHandler in its assertion: this handler was written for SignupArgs, which no longer exists, and RegisterArgs has no handler (was SignupArgs renamed RegisterArgs?); mcpgen writes no second handler\n"
	if err == nil || !strings.HasPrefix(out, want) {
		t.Errorf("go generate after the rename: %v\n%s\nwant it to fail with:\n%s", err, out, want)
	}
	requireSame(t, before, snapshot(t, dir))

	// The user makes the rename mcpgen named.
	replaceIn(t, dir, "signupargs_handler.go", "signupArgsHandler", "registerArgsHandler", "SignupArgs", "RegisterArgs")
	replaceIn(t, dir, "use.go", "signupArgsHandler", "registerArgsHandler")
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("go generate after the handler's rename: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "registerargs_handler.go")); err == nil {
		t.Error("a second handler, registerargs_handler.go, was written")
	}
	// The stale file sorts after signup.go, whose directive ran mcpgen, so
	// go generate had listed it and not read it yet: mcpgen emptied it to a
	// stub whose own directive removed it in the same go generate.
	if _, err := os.Stat(filepath.Join(dir, "signupargs_elicit.go")); err == nil {
		b, _ := os.ReadFile(filepath.Join(dir, "signupargs_elicit.go"))
		t.Errorf("signupargs_elicit.go is still there after one go generate:\n%s", b)
	}
	goBuild(t)
	if code, _, stderr := mcpgen(t, "-check"); code != 0 {
		b, _ := os.ReadFile(filepath.Join(dir, "registerargs_elicit.go"))
		t.Errorf("-check: exit %d\n%s\n%s", code, stderr, b[:200])
	}
}

// TestRenameWithTwoDirectivesInOneGoGenerate: a package with a directive
// per type. Renaming the struct of the first makes its directive empty the
// old file to a stub (go generate listed the file and has yet to read it);
// the second directive, which runs before go generate reaches the stub,
// must leave it to its own line. One go generate, and the stub is gone.
func TestRenameWithTwoDirectivesInOneGoGenerate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go generate")
	}
	question := func(name string) string {
		return "package m\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type " + name + "\n\n" +
			"// " + name + " is a question.\n//\n//mcpgen:question\ntype " + name + " struct {\n\tCity string `json:\"city\" elicit:\"required\"`\n}\n"
	}
	dir := newModule(t, map[string]string{"a.go": question("Old"), "b.go": question("B")})
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("go generate: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "old_elicit.go")); err != nil {
		t.Fatal(err)
	}
	replaceIn(t, dir, "a.go", "Old", "Alpha")
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("go generate after the rename: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "old_elicit.go")); err == nil {
		t.Error("old_elicit.go is still there after one go generate")
	}
	goBuild(t)
	if code, _, stderr := mcpgen(t, "-check"); code != 0 {
		t.Errorf("-check: exit %d\n%s", code, stderr)
	}
}

// TestStubGoGenerateDoesNotReach: a root directive over ./... empties a
// stale file of another package to a stub (go generate listed only the
// root package, so the stub's own line never runs). The stub is harmless
// (the build ignores it): a second go generate leaves it, -check finds
// nothing to do, and a plain mcpgen run removes it.
func TestStubGoGenerateDoesNotReach(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go generate")
	}
	args := func(name string) string {
		return "package a\n\n// " + name + " are the arguments of a tool.\ntype " + name + " struct {\n\tCity string `json:\"city\" elicit:\"required\"`\n}\n"
	}
	dir := newModule(t, map[string]string{
		"doc.go": "package m\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen ./...\n",
		"a/a.go": args("AArgs"),
	})
	generate := func() {
		t.Helper()
		if out, err := commandIn(t, "go", "generate", ".").CombinedOutput(); err != nil {
			t.Fatalf("go generate .: %v\n%s", err, out)
		}
	}
	generate()
	replaceIn(t, dir, "a/a.go", "AArgs", "BArgs")
	replaceIn(t, dir, "a/aargs_handler.go", "aArgsHandler", "bArgsHandler", "AArgs", "BArgs")
	generate()
	stub := filepath.Join(dir, "a", "aargs_elicit.go")
	if b, err := os.ReadFile(stub); err != nil || !strings.Contains(string(b), "//go:build ignore") {
		t.Fatalf("aargs_elicit.go is not a stub (%v):\n%s", err, b)
	}
	generate()
	goBuild(t)
	if code, stdout, stderr := mcpgen(t, "-check", "./..."); code != 0 {
		t.Errorf("-check with the stub left: exit %d\n%s%s", code, stderr, stdout)
	}
	if code, _, stderr := mcpgen(t, "./..."); code != 0 {
		t.Fatalf("mcpgen: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(stub); err == nil {
		t.Error("mcpgen left the stub")
	}
}
