package driver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/header"
)

// ChangeKind says how a file on disk differs from what go generate writes.
type ChangeKind int

// The kinds of change.
const (
	Missing  ChangeKind = iota + 1 // go generate would create the file
	Stale                          // go generate would rewrite the file
	Orphaned                       // go generate would remove the file (its types are gone)
)

// Change is one file that go generate would change.
type Change struct {
	Path string
	Kind ChangeKind
	Old  []byte // on disk (nil when missing)
	New  []byte // to be written (nil when to be removed)
}

// Reason is the change said for a person, as mcpgen -check prints it.
func (c Change) Reason() string {
	switch c.Kind {
	case Missing:
		return "missing; run go generate"
	case Orphaned:
		if filepath.Base(c.Path) == annotate.ToolsFileName {
			return "orphaned (the package has no tool any more); run go generate to remove it"
		}
		return "orphaned (its type no longer exists); run go generate to remove it"
	}
	if c.HandEdited() {
		return "edited by hand since mcpgen wrote it; go generate would overwrite the edit (make the change in the struct's elicit tags or its handler file instead)"
	}
	return "stale; run go generate"
}

// HandEdited reports whether the change is of a generated file edited by
// hand since mcpgen wrote it (header.HandEdited: its content no longer has
// the sum mcpgen recorded in it), rather than one whose struct changed.
func (c Change) HandEdited() bool {
	return c.Kind == Stale && header.HandEdited(c.Old)
}

// OverwroteEdit is the warning for a generated file go generate overwrote
// although it had been edited by hand (gen.WriteResult.HandEdited), path
// as the user reads it.
func OverwroteEdit(path string) string {
	return fmt.Sprintf("warning: %s was edited by hand since mcpgen wrote it; the edit is overwritten. "+
		"If the edited file was committed, `git diff %s` shows the edit undone and `git checkout %s` brings it back; "+
		"make the change in the struct's elicit tags or its handler file instead", path, path, path)
}

// Diff is the change as a unified diff (diff -u, git's a/ and b/ names,
// /dev/null for a file created or removed), with paths relative to dir.
func (c Change) Diff(dir string) string {
	name := filepath.ToSlash(rel(dir, c.Path))
	from, to := "a/"+name, "b/"+name
	if c.Old == nil {
		from = "/dev/null"
	}
	if c.New == nil {
		to = "/dev/null"
	}
	d, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(c.Old), B: lines(c.New),
		FromFile: from, ToFile: to, Context: 3,
	})
	return d
}

// BodyOnly reports whether the change leaves the file the same below its
// first line (the header, which names mcpgen's version): a tool of another
// mcpgen version (the analyzer) sees no change in what the struct says.
func (c Change) BodyOnly() bool {
	_, a, _ := bytes.Cut(c.Old, []byte("\n"))
	_, b, _ := bytes.Cut(c.New, []byte("\n"))
	return c.Kind == Stale && bytes.Equal(a, b)
}

// Changes compares files with the disk: each generated file that differs
// or is missing, each handler file that is missing, and each stale file of
// mcpgen's still present, in the order of files. A stale file already
// emptied to a stub (header.IsStaleStub) is no change: the build ignores
// it, and go generate may never reach it (its package was not listed) nor
// remove it (which of its stubs an earlier directive of the same go
// generate made cannot be told portably); mcpgen's next run outside go
// generate removes it.
func Changes(files []gen.File) []Change {
	var out []Change
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		switch {
		case f.Remove:
			if err == nil && header.IsGenerated(b) && !header.IsStaleStub(b) {
				out = append(out, Change{Path: f.Path, Kind: Orphaned, Old: b})
			}
		case err != nil:
			out = append(out, Change{Path: f.Path, Kind: Missing, New: f.Content})
		case !f.Once && !bytes.Equal(b, f.Content):
			out = append(out, Change{Path: f.Path, Kind: Stale, Old: b, New: f.Content})
		}
	}
	return out
}

// Changes compares the result's files with the disk (see [Changes]).
func (r *Result) Changes() []Change { return Changes(r.Files) }

// lines splits b after each newline, as diff reads a file (difflib's
// SplitLines adds a line after the last newline, which diff -u does not).
func lines(b []byte) []string {
	out := strings.SplitAfter(string(b), "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}
