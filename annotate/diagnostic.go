package annotate

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Diagnostic is one problem with a position, printed like the compiler's:
// file:line:col: message.
type Diagnostic struct {
	Pos     token.Position
	Message string
}

// Format renders the diagnostic with the file name relative to dir (when it
// is below dir), as `file:line:col: message`.
func (d Diagnostic) Format(dir string) string {
	name := d.Pos.Filename
	if dir != "" && name != "" {
		if rel, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
	}
	switch {
	case name == "":
		return d.Message
	case d.Pos.Line == 0:
		return name + ": " + d.Message
	case d.Pos.Column == 0:
		return fmt.Sprintf("%s:%d: %s", name, d.Pos.Line, d.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, d.Pos.Line, d.Pos.Column, d.Message)
}

// dedupDiags drops repeats of a diagnostic from sorted diags (a package
// loaded twice, or the go command and the parser reporting the same error).
func dedupDiags(diags []Diagnostic) []Diagnostic {
	out := diags[:0]
	for i, d := range diags {
		if i > 0 && d == diags[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

func sortDiags(diags []Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Pos, diags[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
