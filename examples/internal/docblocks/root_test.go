package docblocks

import (
	"context"
	"os"
	"os/exec"
	"strings"
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

// binary builds the program at the repository-relative package path pkg
// (for example "cmd/mcpgen") with racebuild.Program and returns its path.
func binary(t *testing.T, pkg string) string {
	t.Helper()
	var env []string
	if pkg == repoCommands["mcpgen-vet"] || pkg == repoCommands["mcpgen"] {
		// mcpgen-vet builds without -race (racebuild.Without says why);
		// mcpgen with it, since it links nearly the same packages. The
		// others (the examples, mcpgen-call, whose terminal UI nothing else
		// compiles without -race) build as this binary was built.
		env = append(env, "GOFLAGS="+racebuild.Without(os.Getenv("GOFLAGS")))
	}
	out, err := racebuild.Program(root, "./"+pkg, env...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMain(m *testing.M) {
	racebuild.ShareBuild() // the go commands the tests run build as this binary was built
	os.Exit(m.Run())
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
