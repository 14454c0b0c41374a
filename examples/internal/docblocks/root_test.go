package docblocks

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// root is the repository's root, relative to this package.
const root = "../../.."

// all returns every block of every documented file, failing the test when
// one cannot be read.
func all(t *testing.T) []Block {
	t.Helper()
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []Block
	for _, f := range files {
		bs, err := Read(root, f)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, bs...)
	}
	return blocks
}

// of returns the blocks in lang.
func of(blocks []Block, lang string) []Block {
	var out []Block
	for _, b := range blocks {
		if b.Lang == lang {
			out = append(out, b)
		}
	}
	return out
}

// scratch returns a fresh directory inside the module (under testdata, so
// that no ./... pattern sees it), removed when the test ends.
func scratch(t *testing.T) string {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "run-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

var (
	binMu  sync.Mutex
	bins   = map[string]string{}
	binDir string
)

// binary builds the program at the repository-relative package path pkg
// (for example "cmd/mcpgen") once per test binary and returns its path.
func binary(t *testing.T, pkg string) string {
	t.Helper()
	binMu.Lock()
	defer binMu.Unlock()
	if b, ok := bins[pkg]; ok {
		return b
	}
	if binDir == "" {
		d, err := os.MkdirTemp("", "docblocks-bin-")
		if err != nil {
			t.Fatal(err)
		}
		binDir = d
	}
	out := filepath.Join(binDir, strings.ReplaceAll(pkg, "/", "_"))
	cmd := exec.Command("go", "build", "-o", out, "./"+pkg)
	cmd.Dir = root
	if slices.Contains(slices.Collect(maps.Values(repoCommands)), pkg) {
		// The repository's commands, which the docs run many times (go vet
		// starts mcpgen-vet once per package of the dependency graph),
		// build without -race; the examples as this binary was built.
		cmd.Env = append(os.Environ(), "GOFLAGS="+racebuild.Without(os.Getenv("GOFLAGS")))
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, err, msg)
	}
	bins[pkg] = out
	return out
}

func TestMain(m *testing.M) {
	racebuild.ShareBuild() // the go commands the tests run build as this binary was built
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// run runs a shell command line from the repository root with a deadline
// and returns its standard output and standard error.
func run(t *testing.T, line string, limit time.Duration) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", line)
	cmd.Dir = root
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	return out.String(), errb.String(), err
}
