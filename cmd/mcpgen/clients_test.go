package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/clients"
)

// TestMain runs the command's tests without the client table, so that the
// client check warns only in the tests that set a table of their own
// (clientTable): the others compare mcpgen's whole output. The check on the
// real table is tested in annotate/clientcheck.
func TestMain(m *testing.M) {
	clients.All = nil
	restore, err := testEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	restore()
	os.Exit(code)
}

// clientTable sets clients.All to a small made-up table for the test.
func clientTable(t *testing.T) {
	t.Helper()
	old := clients.All
	clients.All = []*clients.Client{
		{ID: "codex", Name: "Codex", Version: "0.1", Widely: true, Features: map[clients.Feature]clients.Cell{
			clients.Integer: {Support: clients.Breaks, WholeForm: true, How: "replaces the whole form with a yes/no box", Fix: "ask numbers as text", Source: "https://example.com/codex/issues/1"},
		}},
		{ID: "vscode", Name: "VS Code", Version: "1.2", Widely: true, Features: map[clients.Feature]clients.Cell{
			clients.TitledEnum: {Support: clients.Degrades, How: "shows the option's value, the title in grey", Source: "https://example.com/vscode/issues/2"},
		}},
		{ID: "inspector", Name: "Inspector", Version: "1", Features: map[clients.Feature]clients.Cell{
			clients.FormatDate: {Support: clients.Breaks, How: "cannot submit a date", Source: "https://example.com/inspector/issues/3"},
		}},
	}
	t.Cleanup(func() { clients.All = old })
}

// bookflight is a module holding examples/bookflight's args.go.
func bookflight(t *testing.T) string {
	t.Helper()
	args, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "bookflight", "args.go"))
	if err != nil {
		t.Fatal(err)
	}
	// A main that registers the tool (else mcpgen warns that none does).
	return newModule(t, map[string]string{"args.go": string(args), "main.go": "package main\n\nfunc main() { _ = Flows(Handlers{}) }\n"})
}

// TestClientWarnings: mcpgen warns about what the widely used clients
// break by default, and with -v also about what they degrade, with sources;
// it exits 0, writes its files as without warnings (the example's
// committed output), and warns again on a rerun that has nothing to write;
// -check, which is about files, judges no client.
func TestClientWarnings(t *testing.T) {
	clientTable(t)
	bookflight(t)
	code, _, stderr := mcpgen(t, "-type", "BookFlightArgs")
	want := []string{
		"args.go:9:6: warning: Codex 0.1 (codex) breaks the whole form of book_flight, because of passengers (an integer field): replaces the whole form with a yes/no box; what to do: ask numbers as text\n" +
			"\targs.go:14:59: passengers: an integer field\n",
		"mcpgen: 1 client warning, printed on every run; -clients or //mcpgen:clients chooses the clients judged (-clients none: none)\n",
	}
	if code != 0 || stderr != strings.Join(want, "") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 0 and:\n%s", code, stderr, strings.Join(want, ""))
	}
	got, err := os.ReadFile(filepath.Join(moduleOf(t), "bookflightargs_elicit.go"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "bookflight", "bookflightargs_elicit.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(committed) {
		t.Error("the generated file differs from the example's")
	}
	// A rerun with nothing to write still warns, and so does the run
	// after it, which the memo ends before loading (the warnings are
	// recorded with its key); -check exits 0 when current.
	for i := range 2 {
		var o, e strings.Builder
		code, res := execute(moduleOf(t), []string{"-type", "BookFlightArgs"}, &o, &e)
		if memoized := res != nil && res.Memoized; code != 0 || e.String() != stderr || memoized != (i == 1) {
			t.Errorf("rerun %d: exit %d, memoised %v, stderr:\n%s\nwant exit 0, memoised %v, and the same warnings", i+1, code, memoized, e.String(), i == 1)
		}
	}
	if code, _, checked := mcpgen(t, "-check", "-type", "BookFlightArgs"); code != 0 || checked != "" {
		t.Errorf("mcpgen -check: exit %d, stderr:\n%s\nwant exit 0 and nothing", code, checked)
	}
	// -v adds what a client degrades, and names each warning's source.
	_, _, verbose := mcpgen(t, "-v", "-type", "BookFlightArgs")
	for _, want := range []string{"\tsource: https://example.com/codex/issues/1\n",
		"args.go:13:55: warning: VS Code 1.2 (vscode) degrades window, a titled select (oneOf const+title): shows the option's value, the title in grey\n\tsource: https://example.com/vscode/issues/2\n"} {
		if !strings.Contains(verbose, want) {
			t.Errorf("-v: no %q in\n%s", want, verbose)
		}
	}
}

func TestClientsFlag(t *testing.T) {
	clientTable(t)
	bookflight(t)
	for _, c := range []struct {
		flag, want, unwanted string
	}{
		{"none", "", "warning"},
		{"off", "", "warning"},
		{"inspector", "args.go:12:62: warning: Inspector 1 (inspector) breaks date, format=date: cannot submit a date\n", "(codex)"},
		{"all", "(inspector)", ""},
		{"codex,inspector", "(inspector)", "(vscode)"},
	} {
		code, _, stderr := mcpgen(t, "-clients", c.flag, "-type", "BookFlightArgs")
		if code != 0 || !strings.Contains(stderr, c.want) || c.unwanted != "" && strings.Contains(stderr, c.unwanted) {
			t.Errorf("-clients %s: exit %d, stderr:\n%s\nwant exit 0 with %q, without %q", c.flag, code, stderr, c.want, c.unwanted)
		}
	}
	if _, err := os.Stat(filepath.Join(moduleOf(t), "bookflightargs_elicit.go")); err != nil {
		t.Error(err)
	}
	code, _, stderr := mcpgen(t, "-clients", "vscode,codx", "-type", "BookFlightArgs")
	if want := `mcpgen: -clients: unknown client "codx"; did you mean codex? (valid: codex, vscode, inspector, widely, all, off, none)`; code != 2 || strings.TrimSpace(stderr) != want {
		t.Errorf("-clients vscode,codx: exit %d, stderr:\n%s\nwant exit 2 and %s", code, stderr, want)
	}
}

// TestClientsDirective: //mcpgen:clients in the file's doc and the
// struct's chooses the clients, off silences them, and -clients none beats
// a directive; an unknown id in a directive is a problem like any wrong
// directive (exit 1, nothing written).
func TestClientsDirective(t *testing.T) {
	clientTable(t)
	newModule(t, map[string]string{"args.go": "//mcpgen:clients off\npackage m\n\n" + strings.TrimPrefix(goodArgs, "package m\n") + `
// Other is judged for inspector.
//
//mcpgen:clients inspector
type Other struct {
	Day string ` + "`" + `json:"day,omitempty" elicit:"format=date"` + "`" + `
}
`})
	code, _, stderr := mcpgen(t, "-clients", "all")
	if want := "args.go:16:43: warning: Inspector 1 (inspector) breaks day, format=date: cannot submit a date\n" +
		"mcpgen: 1 client warning, printed on every run; -clients or //mcpgen:clients chooses the clients judged (-clients none: none)\n"; code != 0 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and\n%s", code, stderr, want)
	}
	if code, _, stderr := mcpgen(t, "-clients", "none"); code != 0 || stderr != "" {
		t.Errorf("-clients none: exit %d, stderr:\n%s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(moduleOf(t), "args.go"), []byte("//mcpgen:clients vscod\npackage m\n\n"+strings.TrimPrefix(goodArgs, "package m\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = mcpgen(t)
	if want := `args.go:1:1: //mcpgen:clients: unknown client "vscod"; did you mean vscode? (valid: codex, vscode, inspector, widely, all, off, none)`; code != 1 || strings.TrimSpace(stderr) != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %s", code, stderr, want)
	}
}
