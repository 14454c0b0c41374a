package annotate

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestLoadQuotesTheGoCommandWhenNothingLoads: in a module whose go.mod
// lacks the requirements of what its files import (mcpgen's runtime, as
// generated code imports it, before go mod tidy), go list -e lists nothing
// and says why on its standard error only; Load must say it, not report an
// empty package set (mcpgen init said "no tool").
func TestLoadQuotesTheGoCommandWhenNothingLoads(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(self))
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/untidy\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n",
		"main.go": "package main\n\nimport mcpgenruntime \"github.com/mcpgen/mcpgen/runtime\"\n\n" +
			"//mcpgen:tool greet Say hello.\ntype GreetArgs struct {\n\tName string `json:\"name\" elicit:\"required\"`\n}\n\nvar _ = mcpgenruntime.Text\n\nfunc main() {}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", racebuild.Flags("-mod=readonly"))
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	pkgs, diags := Load(Config{Dir: dir})
	if len(pkgs) != 0 {
		t.Fatalf("loaded %d packages from an untidy module; want none", len(pkgs))
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "matched no package") || !strings.Contains(diags[0].Message, "go mod tidy") {
		t.Fatalf("diagnostics %q; want one saying nothing matched and quoting the go command's advice (go mod tidy)", diags)
	}
}
