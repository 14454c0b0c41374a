package driver

import (
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/header"
)

// Write writes the result's files (gen.Write: all or nothing, unchanged
// files untouched, handler files never overwritten) and removes the stale
// ones. It must not be called when there are diagnostics.
//
// Under go generate ($GOFILE set), a stale file that go generate has listed
// but not read yet (in the directory of $GOFILE, sorting after it; or in
// another directory, which go generate may still reach) cannot be removed:
// go generate would fail to open it. It is replaced by a stub the build
// ignores whose own //go:generate line removes it when go generate reaches
// it (gen's File.Defer), so a rename needs one go generate. A stub found
// there is left to its own line (go generate listed it if an earlier
// directive of the same go generate made it, and nothing portable tells
// such a stub from one an earlier go generate made and never listed: the
// environment go generate gives a directive names no run, and the
// directive's process may be go run's child); one go generate did not
// reach is harmless (the build ignores it, and [Changes] does not count
// it) and is removed by a run outside go generate, or by a directive of a
// file that sorts after it in its directory.
func (r *Result) Write() (gen.WriteResult, error) {
	files := r.Files
	if goFile := os.Getenv("GOFILE"); goFile != "" {
		wd, _ := os.Getwd()
		files = nil
		for _, f := range r.Files {
			if f.Remove && (filepath.Dir(f.Path) != wd || filepath.Base(f.Path) > goFile) {
				if b, err := os.ReadFile(f.Path); err == nil && header.IsStaleStub(b) {
					// A stub already: an earlier directive of this go
					// generate may have made it, and then go generate
					// listed the file and will run the stub's own line.
					continue
				}
				f.Defer = true
			}
			files = append(files, f)
		}
	}
	return gen.Write(files)
}

// StaleReasons maps each stale file of the result to why it is stale
// (annotate.StaleFile.Reason).
func (r *Result) StaleReasons() map[string]string {
	out := map[string]string{}
	for _, p := range r.Packages {
		for _, st := range p.Stale {
			out[st.Path] = st.Reason()
		}
	}
	return out
}
