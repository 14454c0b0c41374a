package annotate

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Diagnostic is one problem with a position, printed like the compiler's:
// file:line:col: message. It carries what a go/analysis diagnostic carries
// (golang.org/x/tools/go/analysis.Diagnostic), so that the mcpgen-vet
// analyzer, gopls and `mcpgen-vet -fix` can show and repair it. Positions
// carry exact byte offsets (token.Position.Offset) in their files.
type Diagnostic struct {
	Pos token.Position
	// End is just past the offending text (an option inside an elicit tag,
	// a struct tag key, a name); the zero Position when only Pos is known.
	End     token.Position
	Message string
	// Related are other sites the message refers to, such as the other
	// declaration of a colliding name.
	Related []Related
	// SuggestedFixes are the mechanical fixes the message spells ("did
	// you mean format=date-time?"), as text edits. A fix is given only
	// when its edits can be placed exactly in the source.
	SuggestedFixes []SuggestedFix
	// Category is empty for a problem, which stops generation, and names
	// the kind of a warning, which never does: "clients" for the
	// build-time client check (annotate/clientcheck). It is go/analysis's
	// Diagnostic.Category.
	Category string
	// URL is where the diagnostic's evidence is: for a client warning, the
	// source of the fact about the client (go/analysis Diagnostic.URL).
	URL string
}

// Warning reports whether d is a warning (it has a Category): printed as
// "warning: …", it never changes mcpgen's exit status nor stops it writing.
func (d Diagnostic) Warning() bool { return d.Category != "" }

// Related is a second site of a [Diagnostic], with what it is.
type Related struct {
	Pos, End token.Position
	Message  string
}

// SuggestedFix is one way to repair a [Diagnostic]: its edits, applied
// together (go/analysis SuggestedFix).
type SuggestedFix struct {
	Message string
	Edits   []TextEdit
}

// TextEdit replaces the source text from Pos to End (exclusive; End equal
// to Pos inserts) with NewText (go/analysis TextEdit).
type TextEdit struct {
	Pos, End token.Position
	NewText  string
}

// Format renders the diagnostic with the file name relative to dir (when it
// is below dir), as `file:line:col: message` (`file:line:col: warning:
// message` for a warning), followed by one line `\tfile:line:col: message`
// for each related site.
func (d Diagnostic) Format(dir string) string {
	msg := d.Message
	if d.Warning() {
		msg = "warning: " + msg
	}
	s := formatAt(dir, d.Pos, msg)
	for _, r := range d.Related {
		s += "\n\t" + formatAt(dir, r.Pos, r.Message)
	}
	return s
}

func formatAt(dir string, pos token.Position, msg string) string {
	name := pos.Filename
	if dir != "" && name != "" {
		if rel, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
	}
	switch {
	case name == "":
		return msg
	case pos.Line == 0:
		return name + ": " + msg
	case pos.Column == 0:
		return fmt.Sprintf("%s:%d: %s", name, pos.Line, msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, pos.Line, pos.Column, msg)
}

// dedupDiags drops repeats of a diagnostic from sorted diags (a package
// loaded twice, or the go command and the parser reporting the same error).
func dedupDiags(diags []Diagnostic) []Diagnostic {
	out := diags[:0]
	for i, d := range diags {
		if i > 0 && d.Pos == diags[i-1].Pos && d.Message == diags[i-1].Message {
			continue
		}
		out = append(out, d)
	}
	return out
}

// SortDiagnostics sorts diags by file, line and column, keeping the order
// of those at one position: the order every list of diagnostics and
// warnings is reported in.
func SortDiagnostics(diags []Diagnostic) { sortDiags(diags) }

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
