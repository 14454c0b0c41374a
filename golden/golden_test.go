// Package golden holds mcpgen's golden test: each folder under testdata is a
// package of annotated structs and the files mcpgen generates for it,
// compared byte for byte. Run `go test ./golden -update` to rewrite them.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
)

var update = flag.Bool("update", false, "rewrite the expected files of every golden case")

// Case is one folder under testdata. An optional file named "types" lists the
// struct types to generate for (like -type); without it, every annotated
// struct.
type Case struct {
	Name  string
	Dir   string
	Types []string
}

// Cases lists the golden cases.
func Cases(t testing.TB) []Case {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	require.NoError(t, err)
	var out []Case
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "_") { // _…: scratch of TestExtremeNumbers
			continue
		}
		c := Case{Name: e.Name(), Dir: filepath.Join("testdata", e.Name())}
		if b, err := os.ReadFile(filepath.Join(c.Dir, "types")); err == nil {
			c.Types = strings.Fields(string(b))
		}
		out = append(out, c)
	}
	require.NotEmpty(t, out)
	return out
}

// loaded holds each case's model, loaded once per test binary (Load).
var loaded struct {
	sync.Mutex
	models map[string]*loadedCase
}

// A loadedCase is one case's annotate.Load, done once.
type loadedCase struct {
	once  sync.Once
	pkg   *annotate.Package
	diags []string
}

// Load returns a case's model as annotate.Load reads it, failing on any
// diagnostic. The load (go list and type-checking) is done once per case
// and test binary; callers share the model (Generate clears
// HandlerDeclared, which no other test reads).
func Load(t testing.TB, c Case) *annotate.Package {
	t.Helper()
	loaded.Lock()
	if loaded.models == nil {
		loaded.models = map[string]*loadedCase{}
	}
	l, ok := loaded.models[c.Dir]
	if !ok {
		l = &loadedCase{}
		loaded.models[c.Dir] = l
	}
	loaded.Unlock()
	l.once.Do(func() {
		abs, err := filepath.Abs(c.Dir)
		if err != nil {
			l.diags = []string{err.Error()}
			return
		}
		pkgs, diags := annotate.Load(annotate.Config{Dir: abs, Types: c.Types})
		for _, d := range diags {
			l.diags = append(l.diags, d.Format(abs))
		}
		if len(diags) == 0 && len(pkgs) != 1 {
			l.diags = append(l.diags, fmt.Sprintf("%d packages loaded, want 1", len(pkgs)))
		}
		if len(l.diags) == 0 {
			l.pkg = pkgs[0]
		}
	})
	for _, d := range l.diags {
		t.Errorf("%s", d)
	}
	require.Empty(t, l.diags)
	return l.pkg
}

// Generate runs annotate and gen on a case, failing on any diagnostic.
func Generate(t testing.TB, c Case) []gen.File {
	t.Helper()
	pkg := Load(t, c)
	// A case holds its handler files, which declare the handler types:
	// render them as on the first run, to compare them.
	for _, s := range pkg.Structs {
		s.HandlerDeclared = false
	}
	files, err := gen.Generate(pkg)
	require.NoError(t, err)
	return files
}

func TestGolden(t *testing.T) {
	for _, c := range Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			files := Generate(t, c)
			want := map[string]bool{}
			for _, f := range files {
				want[filepath.Base(f.Path)] = true
				if *update {
					require.NoError(t, os.WriteFile(f.Path, f.Content, 0o644))
					continue
				}
				got, err := os.ReadFile(f.Path)
				require.NoError(t, err, "expected file missing; run go test ./golden -update")
				if !bytes.Equal(got, f.Content) {
					t.Errorf("%s differs from what mcpgen generates now; run go test ./golden -update and review the diff", f.Path)
				}
			}
			// No stale output from an earlier version of the case.
			matches, _ := filepath.Glob(filepath.Join(c.Dir, "*_elicit.go"))
			for _, m := range matches {
				require.True(t, want[filepath.Base(m)], "stale generated file %s", m)
			}
		})
	}
}

// TestGoldenCompiles builds and vets every case with its generated files.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	args := []string{"vet"}
	for _, c := range Cases(t) {
		args = append(args, "./"+filepath.ToSlash(c.Dir))
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	require.NoError(t, err, "go vet on the golden cases:\n%s", out)
}
