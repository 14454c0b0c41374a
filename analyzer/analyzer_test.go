package analyzer_test

import (
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mcpgen/mcpgen/analyzer"
	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/clients"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestCorpus runs the analyzer on annotate's corpus of wrong annotations:
// every diagnostic must match a `// want` comment on its line, and every
// want must be matched; and applying every suggested fix to a corpus file
// must give its .golden file (each "did you mean" and "write …" repaired,
// as `mcpgen-vet -fix` would).
func TestCorpus(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "annotate", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	results := analysistest.RunWithSuggestedFixes(t, dir, analyzer.Analyzer, "corpus")

	// Columns too: the analyzer reports exactly what the mcpgen command
	// reports (testdata/corpus.golden, each related site on an indented
	// line of its own), plus the //go:generate -type checks.
	var got []string
	for _, r := range results {
		at := func(pos token.Pos, msg string) string {
			p := r.Pass.Fset.Position(pos)
			return fmt.Sprintf("%s:%d:%d: %s", filepath.Base(p.Filename), p.Line, p.Column, msg)
		}
		for _, d := range r.Diagnostics {
			s := at(d.Pos, d.Message)
			for _, rel := range d.Related {
				s += "\n\t" + at(rel.Pos, rel.Message)
			}
			got = append(got, s)
		}
	}
	sort.Strings(got)
	golden, err := os.ReadFile(filepath.Join(dir, "corpus.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
		if strings.HasPrefix(line, "\t") {
			want[len(want)-1] += "\n" + line
			continue
		}
		want = append(want, line)
	}
	want = append(want,
		"structs.go:39:70: -type NotStruct: NotStruct is not a struct type (its type is string); mcpgen generates for structs only",
		"structs.go:39:80: -type Missing: no type Missing in package corpus; name a struct type declared in this package",
		"structs.go:51:34: -type Absent: no type Absent in package corpus; name a struct type declared in this package")
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("analyzer diagnostics differ from the command's:\n--- got\n%s\n--- want\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGoVet builds cmd/mcpgen-vet and runs `go vet -vettool=` on the corpus,
// as a user would, checking that the diagnostics come out of go vet
// (file:line:col: message) and that it fails.
func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary and runs go vet")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	tool := vetTool(t)
	// A module of its own, so go vet sees the corpus as a normal package.
	mod := t.TempDir()
	src := filepath.Join("..", "annotate", "testdata", "src", "corpus")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/corpus\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vet := exec.Command(goTool, "vet", "-vettool="+tool, "./...")
	vet.Dir = mod
	vet.Env = append(os.Environ(), "GOFLAGS="+racebuild.Flags("-mod=mod"), "GOWORK=off")
	out, err := vet.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet passed on the corpus; output:\n%s", out)
	}
	for _, want := range []string{
		`tags.go:9:42: elicit tag on MinLen: unknown option "minLenght"; did you mean "minLength"?`,
		`secrets.go:5:2: Password looks like a secret ("password")`,
		`structs.go:39:80: -type Missing: no type Missing in package corpus`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("go vet output lacks %q:\n%s", want, out)
		}
	}
}

// TestClientWarnings runs the client check through the analyzer, for a
// made-up table: each warning at its struct or tag, in the category
// clients, with its source as URL; the default=false fix applied gives the
// .golden file; //mcpgen:clients off silences a struct. By default only the
// structs whose directive names clients are judged; -clients none turns
// even those off.
func TestClientWarnings(t *testing.T) {
	old := clients.All
	clients.All = []*clients.Client{
		{ID: "codex", Name: "Codex", Version: "0.1", Widely: true, Features: map[clients.Feature]clients.Cell{
			clients.Integer: {Support: clients.Breaks, WholeForm: true, How: "replaces the whole form with a yes/no box", Source: "https://example.com/codex/issues/1"},
		}},
		{ID: "vscode", Name: "VS Code", Version: "1.2", Widely: true, Features: map[clients.Feature]clients.Cell{
			clients.TitledEnum:   {Support: clients.Degrades, How: "shows the option's value, the title in grey", Source: "https://example.com/vscode/issues/2"},
			clients.DefaultFalse: {Support: clients.Degrades, How: "loses default false", Source: "https://example.com/vscode/issues/3"},
		}},
	}
	t.Cleanup(func() { clients.All = old })
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	// By default, only the structs with a directive naming clients.
	analysistest.Run(t, dir, analyzer.Analyzer, "clientsdirective")
	if err := analyzer.Analyzer.Flags.Set("clients", "widely"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = analyzer.Analyzer.Flags.Set("clients", "") })
	// -degrades adds what a client degrades to what it breaks.
	if err := analyzer.Analyzer.Flags.Set("degrades", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = analyzer.Analyzer.Flags.Set("degrades", "false") })
	results := analysistest.RunWithSuggestedFixes(t, dir, analyzer.Analyzer, "clients")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			if d.Category != "clients" || !strings.HasPrefix(d.URL, "https://example.com/") {
				t.Errorf("%s: category %q, URL %q", d.Message, d.Category, d.URL)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d diagnostics, want 3", n)
	}
	// -clients none turns the check off, directives too.
	if err := analyzer.Analyzer.Flags.Set("clients", "none"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, analyzer.Analyzer, "clientsoff") // no want comments: no diagnostic
	if err := analyzer.Analyzer.Flags.Set("clients", "codx"); err == nil || !strings.Contains(err.Error(), `unknown client "codx"; did you mean codex?`) {
		t.Errorf("-clients codx: %v", err)
	}
}

// TestUnregisteredTool: in a package main, a tool that no file registers
// (no call of Flows or of its New<T>Flow) is a warning at its struct, in
// the category "unregistered"; a question is not a tool.
func TestUnregisteredTool(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range analysistest.Run(t, dir, analyzer.Analyzer, "unregistered") {
		for _, d := range r.Diagnostics {
			if d.Category != annotate.UnregisteredCategory {
				t.Errorf("%s: category %q, want %q", d.Message, d.Category, annotate.UnregisteredCategory)
			}
		}
	}
}

// TestGoVetClients runs `go vet -vettool=mcpgen-vet` on a struct whose
// directive names Codex, with the real table: the warning comes out of go
// vet (which fails on it, as on any diagnostic), and -clients=none, passed
// through go vet, turns it off.
func TestGoVetClients(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary and runs go vet")
	}
	if clients.ByID("codex") == nil {
		t.Fatal("no codex in the client table")
	}
	tool := vetTool(t)
	mod := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/v\n\ngo 1.24\n",
		"v.go": "package v\n\n// Args asks a number.\n//\n//mcpgen:clients codex\ntype Args struct {\n" +
			"\tN int `json:\"n,omitempty\" elicit:\"optional\"`\n}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := func(args ...string) (string, error) {
		cmd := exec.Command("go", append(append([]string{"vet", "-vettool=" + tool}, args...), "./...")...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS="+racebuild.Flags("-mod=mod"), "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := vet()
	if err == nil || !strings.Contains(out, "v.go:6:6: warning: OpenAI Codex CLI ") || !strings.Contains(out, "(codex) breaks the whole form of args, because of n (an integer field") {
		t.Errorf("go vet: %v, output:\n%s", err, out)
	}
	if out, err := vet("-clients=none"); err != nil {
		t.Errorf("go vet -clients=none: %v, output:\n%s", err, out)
	}
}

// vetTool returns cmd/mcpgen-vet built with racebuild.Program, without
// -race (racebuild.Without says why).
func vetTool(t *testing.T) string {
	t.Helper()
	tool, err := racebuild.Program(".", "../cmd/mcpgen-vet", "GOFLAGS="+racebuild.Without(os.Getenv("GOFLAGS")))
	if err != nil {
		t.Fatal(err)
	}
	return tool
}
