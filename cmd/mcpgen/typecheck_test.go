package main

import (
	"testing"
)

// TestGeneratedCodeMustCompile: the package is type-checked with the new
// files before any is written. A package-level name of the user's that
// shadows an import of the generated file (which no identifier check can
// know) makes the generated code fail to compile: each type error is a
// diagnostic saying so, and nothing is written.
func TestGeneratedCodeMustCompile(t *testing.T) {
	dir := newModule(t, map[string]string{
		"args.go": goodArgs,
		"mine.go": "package m\n\n// jsonschema is mine.\nvar jsonschema = 1\n",
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-type", "Args")
	want := `mine.go:4:5: does not compile with the generated code: jsonschema already declared through import of package jsonschema ("github.com/invopop/jsonschema") (other declaration of jsonschema at args_elicit.go:12:2)` + "\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}
