package golden

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGeneratedCodeReads: the generated files of every golden case read as
// hand-written code would: no line beyond 110 columns (a tab counted as
// four), no empty block, no `else { if`, no condition tested again inside
// its own if, and no fmt import (the only use fmt had was an unreachable
// branch).
func TestGeneratedCodeReads(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*_elicit.go")
	if err != nil {
		t.Fatal(err)
	}
	handlers, _ := filepath.Glob("testdata/*/*_handler.go")
	files = append(files, handlers...)
	if len(files) < 20 {
		t.Fatalf("only %d generated files found", len(files))
	}
	emptyBlock := regexp.MustCompile(`\{\n\s*\}`)
	elseIf := regexp.MustCompile(`else \{\n\s*if `)
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		sc := bufio.NewScanner(strings.NewReader(src))
		for n := 1; sc.Scan(); n++ {
			if w := len(strings.ReplaceAll(sc.Text(), "\t", "    ")); w > 110 {
				t.Errorf("%s:%d: %d columns: %s", name, n, w, strings.TrimSpace(sc.Text()))
			}
		}
		for _, bad := range []struct {
			re   *regexp.Regexp
			what string
		}{{emptyBlock, "an empty block"}, {elseIf, "else { if … } instead of else if"}} {
			if loc := bad.re.FindStringIndex(src); loc != nil {
				t.Errorf("%s:%d: %s", name, strings.Count(src[:loc[0]], "\n")+1, bad.what)
			}
		}
		if n, cond := retested(src); n > 0 {
			t.Errorf("%s:%d: if %s inside if %s", name, n, cond, cond)
		}
		if strings.HasSuffix(name, "_elicit.go") && strings.Contains(src, "\t\"fmt\"\n") {
			t.Errorf("%s imports fmt", name)
		}
	}
}

// retested returns the line of the first `if c {` nested inside an
// `if c {` of the same condition c (a single identifier), and c; 0 when
// there is none.
func retested(src string) (int, string) {
	type open struct {
		indent int
		cond   string
	}
	var stack []open
	simpleIf := regexp.MustCompile(`^(\t*)if (\w+) \{$`)
	for n, line := range strings.Split(src, "\n") {
		indent := len(line) - len(strings.TrimLeft(line, "\t"))
		for len(stack) > 0 && indent <= stack[len(stack)-1].indent && strings.TrimSpace(line) != "" {
			stack = stack[:len(stack)-1]
		}
		m := simpleIf.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, o := range stack {
			if o.cond == m[2] {
				return n + 1, m[2]
			}
		}
		stack = append(stack, open{indent, m[2]})
	}
	return 0, ""
}
