package golden

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
)

// TestExtremeNumbers: for bounds and defaults at and beyond the edges of
// every numeric Go type, mcpgen either reports a diagnostic at the option or
// generates code that compiles and holds no non-finite literal.
func TestExtremeNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	types := []string{"float32", "float64", "int8", "uint8", "int64", "uint64", "uint"}
	values := []string{
		"0", "-1", "1e-50", "1e-400", "1e38", "3.4028234663852886e38", "3.5e38", "-3.5e38", "1e39",
		"1.7976931348623157e308", "1e309", "-1e309", "Inf", "-Inf", "NaN",
		"127", "128", "-128", "-129", "255", "256",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "1e19", "9.007199254740993e15", "0x10", "1_000",
	}
	var src strings.Builder
	src.WriteString("package extreme\n\n// Extreme has one field per type, option and value.\ntype Extreme struct {\n")
	var lines []string
	n := 0
	for _, typ := range types {
		for _, opt := range []string{"minimum", "maximum", "default"} {
			for _, v := range values {
				lines = append(lines, fmt.Sprintf("\tF%d *%s `json:\"f%d,omitempty\" elicit:\"optional,%s=%s\"`\n", n, typ, n, opt, v))
				n++
			}
		}
	}
	dir, err := os.MkdirTemp("testdata", "_extreme") // inside the module, so it can import the runtime; "_": not a golden case
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	write := func(keep func(i int) bool) {
		var b strings.Builder
		b.WriteString(src.String())
		for i, l := range lines {
			if keep(i) {
				b.WriteString(l)
			}
		}
		b.WriteString("}\n")
		require.NoError(t, os.WriteFile(filepath.Join(dir, "args.go"), []byte(b.String()), 0o644))
	}
	write(func(int) bool { return true })
	_, diags := annotate.Load(annotate.Config{Dir: abs})
	bad := map[int]bool{}
	for _, d := range diags {
		require.Regexp(t, `^elicit tag on F\d+: `, d.Message, "a diagnostic not at the option: %s", d.Format(abs))
		bad[d.Pos.Line-5] = true // line 5 holds lines[0]
	}
	require.NotEmpty(t, bad)
	require.Less(t, len(bad), len(lines))
	write(func(i int) bool { return !bad[i] })
	pkgs, diags := annotate.Load(annotate.Config{Dir: abs})
	for _, d := range diags {
		t.Errorf("second load: %s", d.Format(abs))
	}
	require.Len(t, pkgs, 1)
	files, err := gen.Generate(pkgs[0])
	require.NoError(t, err)
	nonFinite := regexp.MustCompile(`\b(Inf|NaN)\b`)
	for _, f := range files {
		require.NotRegexp(t, nonFinite, string(f.Content), f.Path)
		require.NoError(t, os.WriteFile(f.Path, f.Content, 0o644))
	}
	out, err := exec.Command("go", "vet", "./"+filepath.ToSlash(dir)).CombinedOutput()
	require.NoError(t, err, "go vet on the generated code for the values without a diagnostic:\n%s", out)
	t.Logf("%d fields: %d diagnostics, %d generated and compiled", len(lines), len(bad), len(lines)-len(bad))
}
