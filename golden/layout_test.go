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
// four; the header line, which names the command line, aside), no empty
// block, no `else { if`, and no fmt import (the only use fmt had was an
// unreachable branch).
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
			if w := len(strings.ReplaceAll(sc.Text(), "\t", "    ")); n > 1 && w > 110 {
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
		if strings.HasSuffix(name, "_elicit.go") && strings.Contains(src, "\t\"fmt\"\n") {
			t.Errorf("%s imports fmt", name)
		}
	}
}
