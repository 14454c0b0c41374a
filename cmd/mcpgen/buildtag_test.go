package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/header"
)

// A struct declared in a file with a build constraint gets it on its
// generated and handler files: the package builds with the tag and without
// it, a run without the tag leaves them alone, and a run with it again
// finds them current. A // +build file's constraint is written as //go:build.
func TestBuildConstraintIsCopied(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := newModule(t, map[string]string{
		"a.go": "//go:build pro && !lite\n\n" + goodArgs,
		"b.go": "// +build pro\n// +build linux darwin\n\n" + strings.ReplaceAll(goodArgs, "Args", "BArgs"),
		"c.go": strings.ReplaceAll(goodArgs, "Args", "CArgs"), // built always
	})
	code, _, stderr := mcpgen(t, "-tags", "pro")
	require.Equal(t, 0, code, stderr)
	for file, expr := range map[string]string{
		"args_elicit.go":   "pro && !lite",
		"args_handler.go":  "pro && !lite",
		"bargs_elicit.go":  "pro && (linux || darwin)",
		"bargs_handler.go": "pro && (linux || darwin)",
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		require.NoError(t, err)
		want := "//go:build " + expr + "\n\npackage m\n"
		if strings.HasSuffix(file, "_elicit.go") {
			// The header, the content's sum (header.Seal), the constraint.
			head, rest, _ := strings.Cut(string(b), "\n")
			sum, rest, _ := strings.Cut(rest, "\n")
			require.Equal(t, gen.Header(), head, file)
			require.True(t, strings.HasPrefix(sum, header.SumPrefix), "%s: second line %q", file, sum)
			b, want = []byte(rest), "\n"+want
		}
		require.True(t, strings.HasPrefix(string(b), want), "%s starts:\n%.200s\nwant:\n%s", file, b, want)
	}
	before := snapshot(t, dir)
	for _, tags := range []string{"", "-tags=pro"} {
		args := []string{"vet"}
		if tags != "" {
			args = append(args, tags)
		}
		out, err := commandIn(t, "go", append(args, ".")...).CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
	// Without the tag only CArgs is in the package: its files are current,
	// and the others' are not taken for stale ones.
	code, _, stderr = mcpgen(t)
	require.Equal(t, 0, code, stderr)
	requireSame(t, before, snapshot(t, dir))
	// With it, the files are current.
	code, _, stderr = mcpgen(t, "-tags", "pro")
	require.Equal(t, 0, code, stderr)
	requireSame(t, before, snapshot(t, dir))
}
