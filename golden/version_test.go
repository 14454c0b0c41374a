package golden

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/gen"
)

// TestVersionGuard builds a generated file against a copy of runtime/impl
// whose MinVersion or MaxVersion leaves out the version the file was written
// for (gen.ImplVersion), through a go build -overlay that replaces
// runtime/impl/doc.go, and requires the compile to fail on the guard line of
// the generated file, right under the comment that says what to do.
func TestVersionGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	docPath, err := filepath.Abs("../runtime/impl/doc.go")
	require.NoError(t, err)
	doc, err := os.ReadFile(docPath)
	require.NoError(t, err)
	const elicit = "testdata/bookflight/bookflightargs_elicit.go"
	src, err := os.ReadFile(elicit)
	require.NoError(t, err)
	n := gen.ImplVersion
	maxLine := lineOf(t, src, fmt.Sprintf("const _ = impl.EnforceVersion(impl.MaxVersion - %d)", n))
	minLine := lineOf(t, src, fmt.Sprintf("const _ = impl.EnforceVersion(%d - impl.MinVersion)", n))
	advice := lineOf(t, src, fmt.Sprintf("// This file was generated for runtime/impl version %d.", n))
	require.Less(t, advice, maxLine)
	require.Equal(t, maxLine+1, minLine)

	for _, c := range []struct {
		name     string
		min, max int
		line     int
	}{
		{"runtime older than the generator", n - 1, n - 1, maxLine},
		{"runtime dropped the generator's version", n + 1, n + 1, minLine},
	} {
		t.Run(c.name, func(t *testing.T) {
			patched := setConst(t, doc, "MinVersion", c.min)
			patched = setConst(t, patched, "MaxVersion", c.max)
			dir := t.TempDir()
			copyPath := filepath.Join(dir, "doc.go")
			require.NoError(t, os.WriteFile(copyPath, patched, 0o644))
			overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{docPath: copyPath}})
			require.NoError(t, err)
			overlayPath := filepath.Join(dir, "overlay.json")
			require.NoError(t, os.WriteFile(overlayPath, overlay, 0o644))

			out, err := exec.Command("go", "build", "-overlay", overlayPath, "./testdata/bookflight").CombinedOutput()
			require.Error(t, err, "go build with impl MinVersion=%d MaxVersion=%d succeeded:\n%s", c.min, c.max, out)
			t.Logf("go build:\n%s", out)
			want := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(filepath.FromSlash(elicit)) + fmt.Sprintf(`:%d:\d+: .*EnforceVersion`, c.line))
			require.Regexp(t, want, string(out), "no error on the guard line %d", c.line)
		})
	}
}

// lineOf returns the 1-based number of the line of src that is exactly line.
func lineOf(t *testing.T, src []byte, line string) int {
	t.Helper()
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, line) {
			return i + 1
		}
	}
	t.Fatalf("no line %q in the generated file", line)
	return 0
}

// setConst rewrites `name = N` in the source of runtime/impl/doc.go.
func setConst(t *testing.T, src []byte, name string, v int) []byte {
	t.Helper()
	re := regexp.MustCompile(`(?m)^(\t` + name + ` = )\d+$`)
	require.Len(t, re.FindAll(src, -1), 1, "one %s constant in runtime/impl/doc.go", name)
	return re.ReplaceAll(src, []byte(fmt.Sprintf("${1}%d", v)))
}
