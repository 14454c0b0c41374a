package main

import (
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingChoicesMethodThenFix: a choices field added to a struct whose
// handler file exists (written by an earlier run) is reported at its tag,
// with the method's signature and the handler as related site, not as the
// compiler's "missing method" in the handler file; nothing is written.
// `mcpgen-vet -fix` adds the stub, after which the package generates,
// builds and is current, and the handler file is gofmt's.
func TestMissingChoicesMethodThenFix(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds mcpgen-vet and the module")
	}
	bt := "`"
	args := "package m\n\n// Book books a seat.\ntype Book struct {\n" +
		"\tName string " + bt + `json:"name" elicit:"required"` + bt + "\n}\n"
	dir := newModule(t, map[string]string{"args.go": args})
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	replaceIn(t, dir, "args.go", "\n}\n", "\n\tSeating string "+bt+`json:"seating" elicit:"required,choices"`+bt+"\n}\n")

	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t)
	want := `args.go:6:50: elicit tag on Seating: choices takes its options from the handler's SeatingChoices method, which bookHandler lacks; ` +
		`add func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]runtime.Choice, error), listing the options of seating for each call; go run github.com/mcpgen/mcpgen/cmd/mcpgen-vet -fix ./... adds a stub (docs/questions.md, "Run-time choices")` +
		"\n\tbook_handler.go:15:6: bookHandler, the handler of Book, has no SeatingChoices\n"
	if code != 1 || stderr != want {
		t.Errorf("mcpgen: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))

	tool := buildVet(t)
	b, err := commandIn(t, tool, "./...").CombinedOutput()
	if err == nil || !strings.Contains(string(b), want[:strings.Index(want, "\n")]) {
		t.Errorf("mcpgen-vet ./...: %v, want the same diagnostic:\n%s", err, b)
	}
	if b, err := commandIn(t, tool, "-fix", "./...").CombinedOutput(); err != nil {
		t.Fatalf("mcpgen-vet -fix ./...: %v\n%s", err, b)
	}
	h, err := os.ReadFile(filepath.Join(dir, "book_handler.go"))
	if err != nil {
		t.Fatal(err)
	}
	stub := "func (bookHandler) SeatingChoices(ctx context.Context, args *Book) ([]runtime.Choice, error) {\n\t// TODO: list the options.\n\treturn []runtime.Choice{}, nil\n}\n"
	if !strings.Contains(string(h), stub) {
		t.Errorf("book_handler.go after the fix lacks the stub:\n%s", h)
	}
	if f, err := format.Source(h); err != nil || string(f) != string(h) {
		t.Errorf("book_handler.go after the fix is not gofmt's (%v)", err)
	}
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("mcpgen after the fix: exit %d\n%s", code, stderr)
	}
	goBuild(t)
	if code, _, stderr := mcpgen(t, "-check"); code != 0 {
		t.Errorf("-check: exit %d\n%s", code, stderr)
	}
}
