package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

const rerunArgs = `package m

// Slot is a part of the day.
type Slot string

// The slots; each line comment is the choice's title.
const (
	Morning   Slot = "morning"   // Morning
	Afternoon Slot = "afternoon" // Afternoon
)

// Args are the arguments of a tool.
type Args struct {
	City  string ` + "`" + `json:"city"` + "`" + `
	Date  string ` + "`" + `json:"date,omitempty" elicit:"format=date"` + "`" + `
	Slot  Slot   ` + "`" + `json:"slot,omitempty" elicit:"optional"` + "`" + `
	Seats int    ` + "`" + `json:"seats,omitempty" elicit:"optional,minimum=1,maximum=9"` + "`" + `
}
`

// TestRerunWritesOnlyWhatChanged: a rerun with nothing changed writes
// nothing (no file touched); a title from a constant's comment, a tag, the
// order of fields, a hand edit of the generated file, and a deleted handler
// file each make the next run regenerate, with what the change says, and
// the run after it write nothing again.
func TestRerunWritesOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": rerunArgs})
	generate := func(what string) (wrote string) {
		t.Helper()
		var o, e strings.Builder
		if code, _ := execute(moduleOf(t), []string{"-v"}, &o, &e); code != 0 {
			t.Fatalf("%s: exit %d\n%s", what, code, e.String())
		}
		return e.String()
	}
	if wrote := generate("first run"); !strings.Contains(wrote, "wrote args_elicit.go") {
		t.Fatalf("first run said %q, want args_elicit.go written", wrote)
	}
	ageFiles(t, dir)
	before := snapshot(t, dir)
	if wrote := generate("rerun"); wrote != "" {
		t.Errorf("rerun with nothing changed said %q; want nothing", wrote)
	}
	requireSame(t, before, snapshot(t, dir))

	elicit := filepath.Join(dir, "args_elicit.go")
	for _, c := range []struct {
		what  string
		edit  func()
		wants string // in the regenerated file
	}{
		{"a title in a constant's comment", func() { replaceIn(t, dir, "args.go", "// Afternoon", "// After lunch") }, `"After lunch"`},
		{"a tag", func() { replaceIn(t, dir, "args.go", "maximum=9", "maximum=7") }, "7"},
		{"the order of fields", func() {
			replaceIn(t, dir, "args.go", "\tDate  string `json:\"date,omitempty\" elicit:\"format=date\"`\n", "",
				"\tSeats int", "\tDate  string `json:\"date,omitempty\" elicit:\"format=date\"`\n\tSeats int")
		}, "missing = append(missing, \"slot\")\n\t}\n\tif t.Date == \"\" {"},
		{"a hand edit of the generated file", func() { replaceIn(t, dir, "args_elicit.go", "MissingFields returns", "MissingFields gives") }, "MissingFields returns"},
	} {
		c.edit()
		old, _ := os.ReadFile(elicit)
		if wrote := generate(c.what); !strings.Contains(wrote, "wrote args_elicit.go") {
			t.Errorf("after changing %s: said %q; want args_elicit.go written", c.what, wrote)
		}
		now, _ := os.ReadFile(elicit)
		if string(now) == string(old) || !strings.Contains(string(now), c.wants) {
			t.Errorf("after changing %s: the generated file does not hold %s", c.what, c.wants)
		}
		if wrote := generate(c.what + ", again"); wrote != "" {
			t.Errorf("after changing %s, a second run said %q", c.what, wrote)
		}
	}
	if err := os.Remove(filepath.Join(dir, "args_handler.go")); err != nil {
		t.Fatal(err)
	}
	if wrote := generate("a deleted handler file"); wrote != "mcpgen: wrote args_handler.go\n" {
		t.Errorf("a deleted handler file: said %q, want it written again", wrote)
	}
	if code, _, stderr := mcpgen(t, "-check"); code != 0 {
		t.Errorf("-check: exit %d\n%s", code, stderr)
	}
}

// TestRootAndPackageDirectives: one directive for the whole module (the
// docs/tags.md's recommendation) beside packages that keep their own: go
// generate writes each file once, as the package's own directive would, a
// second go generate writes nothing, and -check agrees.
func TestRootAndPackageDirectives(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go generate")
	}
	const run = "//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen"
	untagged := func(pkg, name string) string { // a tagged struct without a directive
		return strings.Replace(tagged(name), "package m\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type "+name+"\n", "package "+pkg+"\n", 1)
	}
	dir := newModule(t, map[string]string{
		"doc.go":  "// Package m has tools.\npackage m\n\n" + run + " ./...\n",
		"a/a.go":  run + " -type A\n\n" + untagged("a", "A"),
		"b/b.go":  untagged("b", "B"),
		"c/c.go":  run + " -type C\n\n" + untagged("c", "C"),
		"c/c2.go": untagged("c", "D"),
	})
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("go generate: %v\n%s", err, out)
	}
	// The header names the version, never the directive that ran.
	for _, f := range []string{"a/a_elicit.go", "b/b_elicit.go", "c/c_elicit.go", "c/d_elicit.go"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if want := gen.Header(); err != nil || strings.SplitN(string(b), "\n", 2)[0] != want {
			t.Errorf("%s: header is not %q (err %v)", f, want, err)
		}
	}
	ageFiles(t, dir)
	before := snapshot(t, dir)
	if out, err := goGenerate(t); err != nil {
		t.Fatalf("second go generate: %v\n%s", err, out)
	}
	requireSame(t, before, snapshot(t, dir))
	if code, _, stderr := mcpgen(t, "-check", "./..."); code != 0 {
		t.Errorf("-check ./...: exit %d\n%s", code, stderr)
	}
	goBuild(t)
}
