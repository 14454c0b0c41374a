package driver

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
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
// it (gen's File.Defer), so a rename needs one go generate.
func (r *Result) Write() (gen.WriteResult, error) {
	files := r.Files
	if goFile := os.Getenv("GOFILE"); goFile != "" {
		wd, _ := os.Getwd()
		files = append([]gen.File(nil), files...)
		for i, f := range files {
			if !f.Remove {
				continue
			}
			if b, err := os.ReadFile(f.Path); err == nil && bytes.Contains(b, []byte(annotate.StaleStubNote)) {
				continue // a stub of an earlier run: the build, and go generate, ignore it
			}
			if filepath.Dir(f.Path) != wd || filepath.Base(f.Path) > goFile {
				files[i].Defer = true
			}
		}
	}
	return gen.Write(files)
}

// Gone maps each stale file of the result to the types it was generated
// for (none for a stub an earlier run emptied).
func (r *Result) Gone() map[string][]string {
	out := map[string][]string{}
	for _, p := range r.Packages {
		for _, st := range p.Stale {
			out[st.Path] = st.Types
		}
	}
	return out
}
