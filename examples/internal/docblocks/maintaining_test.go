package docblocks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// maintaining is the maintainers' map, relative to root.
const maintaining = "docs/MAINTAINING.md"

// outputDirs are the paths MAINTAINING.md names that runs create and git
// ignores (.gitignore), so a fresh checkout lacks them.
var outputDirs = []string{".ci/out", "bench/out", "bench/testdata", "examples/internal/docblocks/testdata/run-*"}

// maintainedPath is a code span that reads as a path of the repository: no
// space and at least one slash (a file name alone, `go.mod`, is not
// checked; `*` is a glob); a last element with a dot before a capital letter
// is a Go identifier (`runtime/devauth.SignIn`), not a path.
var (
	maintainedPath = regexp.MustCompile(`^(\./)?[A-Za-z0-9_.*-]+(/[A-Za-z0-9_.*-]+)*/?$`)
	goIdent        = regexp.MustCompile(`\.[A-Z][^/]*$`)
)

// codeSpans returns the text of every code span of the Markdown src, each
// with its line.
func codeSpans(t *testing.T, src []byte) (spans []string, lines []int) {
	t.Helper()
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindCodeSpan {
			return ast.WalkContinue, nil
		}
		line := 0
		if c, ok := n.FirstChild().(*ast.Text); ok {
			line = strings.Count(string(src[:c.Segment.Start]), "\n") + 1
		}
		spans = append(spans, headingText(n, src))
		lines = append(lines, line)
		return ast.WalkSkipChildren, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return spans, lines
}

// TestMaintainingPathsExist: every code span of MAINTAINING.md that reads
// as a path under one of the repository's top-level entries (`gen/flow.go`,
// `runtime/impl/`, `cmd/mcpgen/*_test.go`) names a file or directory that
// exists, so the map never points at a moved file.
func TestMaintainingPathsExist(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, maintaining))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		top[e.Name()] = true
	}
	spans, lines := codeSpans(t, src)
	checked := 0
	for i, s := range spans {
		p := strings.TrimPrefix(s, "./")
		first, _, slash := strings.Cut(p, "/")
		if !maintainedPath.MatchString(s) || goIdent.MatchString(s) || !slash || !top[first] || slices.ContainsFunc(outputDirs, func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") }) {
			continue
		}
		checked++
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(p, "/"))))
		if err != nil || len(matches) == 0 {
			t.Errorf("%s:%d: `%s` names no file or directory of the repository", maintaining, lines[i], s)
		}
	}
	if checked < 100 {
		t.Errorf("%s: only %d paths checked; the check reads no longer what it should", maintaining, checked)
	}
}

// TestMaintainingLayoutNamesEveryPackage: the Layout table of
// MAINTAINING.md has a row for every package directory of the module (a
// directory holding .go files, outside testdata), and every row names a
// directory that exists.
func TestMaintainingLayoutNamesEveryPackage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, maintaining))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(src), "\n## Layout\n")
	if !ok {
		t.Fatalf("%s: no \"## Layout\" section", maintaining)
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(layout, -1) {
		dir := strings.TrimSuffix(m[1], "/")
		rows[dir] = true
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir))); err != nil || !fi.IsDir() {
			t.Errorf("%s: the layout's row `%s` names no directory", maintaining, m[1])
		}
	}
	var pkgs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); rel != "." && !slices.Contains(pkgs, rel) {
				pkgs = append(pkgs, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 40 {
		t.Fatalf("found only %d package directories under %s: %v", len(pkgs), root, pkgs)
	}
	for _, p := range pkgs {
		if !rows[p] {
			t.Errorf("%s: the layout has no row for package directory `%s/`", maintaining, p)
		}
	}
}
