package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/memo"
)

// TestMemoSkipsOnlyUnchangedReruns: the second of two runs that find every
// file current records its inputs, and a third run with the same inputs
// ends before loading (gen/memo); another build of mcpgen (whatever it
// changed: the header, the renderer) loads again; a change that renders
// differently from another package (a constant's value), a hand edit of a
// generated file, or a deleted handler file each make the next run load
// and write again; -check always loads and agrees.
func TestMemoSkipsOnlyUnchangedReruns(t *testing.T) {
	// Not parallel: it swaps memo.ExecutableDigest.
	dir := newModule(t, map[string]string{
		"levels/levels.go": `package levels

// Level is how urgent a request is.
type Level string

// The levels; each line comment is the choice's title.
const (
	Low  Level = "low"  // Low
	High Level = "high" // High
)
`,
		"p/args.go": `package p

import "example.com/m/levels"

// Args are the arguments of a tool.
type Args struct {
	City  string       ` + "`" + `json:"city"` + "`" + `
	Level levels.Level ` + "`" + `json:"level,omitempty" elicit:"optional"` + "`" + `
}
`,
	})
	generate := func(what string) (memo bool, wrote string) {
		t.Helper()
		var o, e bytes.Buffer
		code, res := execute(moduleOf(t), []string{"-v", "./..."}, &o, &e)
		stderr := e.String()
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", what, code, stderr)
		}
		return res != nil && res.Memoized, stderr
	}
	settle := func(what string) {
		t.Helper()
		// A load that writes nothing, or the memo when the files are back
		// to a state an earlier run recorded.
		if _, wrote := generate(what + ", second run"); wrote != "" {
			t.Fatalf("%s, second run: said %q; want nothing written", what, wrote)
		}
		if m, wrote := generate(what + ", third run"); !m || wrote != "" {
			t.Fatalf("%s, third run: memo %v, said %q; want the memo to end it", what, m, wrote)
		}
	}
	if m, _ := generate("first run"); m {
		t.Fatal("first run: ended by the memo")
	}
	settle("first run")

	// Another build: the memo keys the executable's bytes, which hold
	// every rule that renders (issue 21 was a header change skipped as
	// current).
	this := memo.ExecutableDigest
	memo.ExecutableDigest = func() string { return strings.Repeat("0", 64) }
	t.Cleanup(func() { memo.ExecutableDigest = this })
	if m, wrote := generate("another build"); m || wrote != "" {
		t.Errorf("another build: memo %v, said %q; want a load that writes nothing", m, wrote)
	}
	memo.ExecutableDigest = this

	elicit := filepath.Join(dir, "p", "args_elicit.go")
	for _, c := range []struct {
		what  string
		edit  func()
		wants string // in p/args_elicit.go after the next run
	}{
		{"a constant's value in another package", func() { replaceIn(t, dir, "levels/levels.go", `"high"`, `"urgent"`) }, `"urgent"`},
		{"a hand edit of the generated file", func() { replaceIn(t, dir, "p/args_elicit.go", "MissingFields returns", "MissingFields gives") }, "MissingFields returns"},
	} {
		c.edit()
		if m, wrote := generate(c.what); m || !strings.Contains(wrote, "wrote p/args_elicit.go") {
			t.Errorf("after %s: memo %v, said %q; want p/args_elicit.go written", c.what, m, wrote)
		}
		if b, _ := os.ReadFile(elicit); !strings.Contains(string(b), c.wants) {
			t.Errorf("after %s: p/args_elicit.go does not hold %s", c.what, c.wants)
		}
		settle(c.what)
	}
	if err := os.Remove(filepath.Join(dir, "p", "args_handler.go")); err != nil {
		t.Fatal(err)
	}
	if m, wrote := generate("a deleted handler file"); m || !strings.Contains(wrote, "wrote p/args_handler.go") {
		t.Errorf("a deleted handler file: memo %v, said %q; want it written again", m, wrote)
	}
	replaceIn(t, dir, "levels/levels.go", `"urgent"`, `"now"`)
	if code, _, stderr := mcpgen(t, "-check", "./..."); code != 1 || !strings.Contains(stderr, "args_elicit.go: stale") {
		t.Errorf("-check after a change: exit %d, said %q; want args_elicit.go stale", code, stderr)
	}
}
