package docblocks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goTestCommand finds a go test command in Markdown (a fenced block or
// inline code): the package directory and the flags after it.
var goTestCommand = regexp.MustCompile("go test (?:-[\\w.=]+ +)*(\\./[\\w./-]*)((?: +-[\\w.]+(?:[ =](?:'[^']*'|\"[^\"]*\"|[^\\s`'\"-][^\\s`'\"]*))?)*)")

// selectorFlag is a flag of go test that selects tests by name, with its
// value.
var selectorFlag = regexp.MustCompile(`-(run|fuzz|bench)[ =]('[^']*'|"[^"]*"|[^\s'"]+)`)

// TestGoTestCommandsNameTests: every go test command of the documentation
// that selects tests (-run, -fuzz, -bench) names a package that has a
// test, fuzz target or benchmark its pattern matches, so that a test that
// moved does not leave the docs running nothing ("no tests to run", and
// exit status 0).
func TestGoTestCommandsNameTests(t *testing.T) {
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, rel := range files {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goTestCommand.FindAllStringSubmatchIndex(string(src), -1) {
			line := strings.Count(string(src[:m[0]]), "\n") + 1
			pkg := strings.TrimSuffix(string(src[m[2]:m[3]]), "/...")
			for _, f := range selectorFlag.FindAllStringSubmatch(string(src[m[4]:m[5]]), -1) {
				pattern := strings.Trim(f[2], `'"`)
				if pattern == "^$" || pattern == "." {
					continue
				}
				names := testNames(t, filepath.Join(root, pkg))
				if names == nil {
					t.Errorf("%s:%d: go test %s: no test files in %s", rel, line, pkg, pkg)
					continue
				}
				first, _, _ := strings.Cut(pattern, "/") // a subtest's parent
				re, err := regexp.Compile(first)
				if err != nil {
					t.Errorf("%s:%d: go test %s -%s %s: %v", rel, line, pkg, f[1], pattern, err)
					continue
				}
				prefix := map[string]string{"run": "Test", "fuzz": "Fuzz", "bench": "Benchmark"}[f[1]]
				found := false
				for _, n := range names {
					if (strings.HasPrefix(n, prefix) || f[1] == "run" && (strings.HasPrefix(n, "Fuzz") || strings.HasPrefix(n, "Example"))) && re.MatchString(n) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s:%d: go test %s -%s %s matches no %s function of %s: the test moved or was renamed", rel, line, pkg, f[1], pattern, prefix, pkg)
				}
				checked++
			}
		}
	}
	t.Logf("%d selecting go test commands checked", checked)
	if checked < 5 {
		t.Fatalf("checked %d selecting go test commands; the documentation has more: is goTestCommand still matching them?", checked)
	}
}

// testNames returns the names of the top-level functions of dir's test
// files, or nil when it has none.
func testNames(t *testing.T, dir string) []string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	var names []string
	fset := token.NewFileSet()
	for _, path := range matches {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				names = append(names, fd.Name.Name)
			}
		}
	}
	return names
}
