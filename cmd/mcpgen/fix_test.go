package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestEveryTypoInOneRunThenFix: a module with three typos in two tags of
// one package and one in a second package. One `mcpgen ./...` reports all
// four, and so does one `go generate ./...` through a root ./... directive;
// `mcpgen-vet -fix ./...` then repairs each "did you mean", and the module
// generates and builds.
func TestEveryTypoInOneRunThenFix(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go generate and builds mcpgen-vet")
	}
	bt := "`"
	dir := newModule(t, map[string]string{
		"doc.go": "// Package m has tools.\npackage m\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen ./...\n",
		"a/a.go": "package a\n\n// Args are the arguments of a tool.\ntype Args struct {\n" +
			"\tName  string " + bt + `json:"name" elicit:"requird,minLenght=3"` + bt + "\n" +
			"\tEmail string " + bt + `json:"email" elicit:"optional,format=emial"` + bt + "\n}\n",
		"b/b.go": "package b\n\n// Args are the arguments of a tool.\ntype Args struct {\n" +
			"\tNights *int " + bt + `json:"nights" elicit:"optional,minimun=1"` + bt + "\n}\n",
	})
	want := []string{
		`a/a.go:5:36: elicit tag on Name: unknown option "requird"; did you mean "required"?`,
		`a/a.go:5:44: elicit tag on Name: unknown option "minLenght"; did you mean "minLength"?`,
		`a/a.go:6:46: elicit tag on Email: format=emial is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=email?`,
		`b/b.go:5:46: elicit tag on Nights: unknown option "minimun"; did you mean "minimum"?`,
	}
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "./...")
	if code != 1 || stderr != strings.Join(want, "\n")+"\n" {
		t.Errorf("mcpgen ./...: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, strings.Join(want, "\n"))
	}
	out, err := goGenerate(t)
	if err == nil {
		t.Errorf("go generate ./... passed:\n%s", out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("go generate ./... does not report %s:\n%s", w, out)
		}
	}
	requireSame(t, before, snapshot(t, dir))

	tool := buildVet(t)
	// With -fix, the checker (x/tools v0.52) applies every fix, prints
	// no diagnostics and exits 0.
	if b, err := commandIn(t, tool, "-fix", "./...").CombinedOutput(); err != nil {
		t.Fatalf("mcpgen-vet -fix ./...: %v\n%s", err, b)
	}
	for _, fixed := range []struct{ file, tag string }{
		{"a/a.go", `elicit:"required,minLength=3"`},
		{"a/a.go", `elicit:"optional,format=email"`},
		{"b/b.go", `elicit:"optional,minimum=1"`},
	} {
		b, err := os.ReadFile(filepath.Join(dir, fixed.file))
		if err != nil || !strings.Contains(string(b), fixed.tag) {
			t.Errorf("after mcpgen-vet -fix, %s lacks %s (err %v):\n%s", fixed.file, fixed.tag, err, b)
		}
	}
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("go generate ./... after the fixes: %v\n%s", err, out)
	}
	goBuild(t)
	if code, _, stderr := mcpgen(t, "-check", "./..."); code != 0 {
		t.Errorf("-check ./...: exit %d\n%s", code, stderr)
	}
}

// buildVet returns cmd/mcpgen-vet built from this module (builtTool).
func buildVet(t *testing.T) string {
	t.Helper()
	return builtTool(t, "github.com/mcpgen/mcpgen/cmd/mcpgen-vet")
}

// builtTool builds the command at the import path from this module (GOWORK
// off, as the test modules have it) with racebuild.Program: once for every
// test that needs it, and a failed build fails each of them. Without -race,
// unlike the tests' other go commands (racebuild.Without says why).
func builtTool(t *testing.T, pkg string) string {
	t.Helper()
	bin, err := racebuild.Program(repoRoot(t), pkg, "GOWORK=off", "GOFLAGS=-mod=mod")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
