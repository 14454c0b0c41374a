package clientcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/annotate/clientcheck"
	"github.com/mcpgen/mcpgen/clients"
)

// synthetic is a small table of made-up clients, shaped like the facts the
// real table records, so that the tests do not depend on its evidence.
func synthetic() []*clients.Client {
	whole := clients.Cell{Support: clients.Breaks, WholeForm: true, How: `replaces the whole form with a yes/no box whose "yes" sends accept with empty content`,
		Fix: "ask numbers as text, or in a question of their own", Source: "https://example.com/codex/issues/1"}
	return []*clients.Client{
		{ID: "codex", Name: "Codex", Version: "0.1", Widely: true, Features: map[clients.Feature]clients.Cell{
			clients.Integer:     whole,
			clients.Number:      whole,
			clients.MultiSelect: whole,
			clients.String:      {Support: clients.Renders, Source: "https://example.com/codex/blob/x/form.rs#L1"},
		}},
		{ID: "vscode", Name: "VS Code", Version: "1.2", Widely: true, Features: map[clients.Feature]clients.Cell{
			clients.TitledEnum:    {Support: clients.Degrades, How: "shows the option's value (chk-900), the title in grey", Fix: "give options values a user can read", Source: "https://example.com/vscode/issues/2"},
			clients.DefaultFalse:  {Support: clients.Degrades, How: "loses default false", Source: "https://example.com/vscode/issues/3"},
			clients.DeclineCancel: {Support: clients.Degrades, How: `its chat "Cancel" sends decline`, Fix: "make Decline and Cancel do the same", Source: "https://example.com/vscode/issues/4"},
		}},
		{ID: "goose", Name: "Goose desktop", Version: "1.0", Widely: true, URL: clients.Cell{Support: clients.Breaks, How: "does not declare URL mode", Source: "https://example.com/goose/issues/9"}, Features: map[clients.Feature]clients.Cell{
			clients.Label:          {Support: clients.Degrades, How: "shows property keys instead of titles", Source: "https://example.com/goose/issues/5"},
			clients.TitledEnum:     {Support: clients.Breaks, How: "turns titled selects into free text", Source: "https://example.com/goose/issues/6"},
			clients.MultiSelect:    {Support: clients.Breaks, How: "turns multi selects into free text", Source: "https://example.com/goose/issues/6"},
			clients.OptionalNumber: {Support: clients.Breaks, How: "sends optional numbers as their minimum or 0", Fix: "make the number required", Source: "https://example.com/goose/issues/7"},
		}},
		{ID: "inspector", Name: "Inspector", Version: "1", Features: map[clients.Feature]clients.Cell{
			clients.FormatDateTime: {Support: clients.Breaks, How: "cannot submit a date-time", Source: "https://example.com/inspector/issues/8"},
		}},
	}
}

// withTable sets clients.All to table for the test.
func withTable(t *testing.T, table []*clients.Client) {
	old := clients.All
	clients.All = table
	t.Cleanup(func() { clients.All = old })
}

// loaded holds each package load has loaded, by dir: a load runs the go
// command, which compiles the examples' dependencies for their export data,
// so each package is loaded once per test binary. The checks only read
// the model.
var loaded = map[string]*annotate.Package{}

// load loads the package in dir (relative to the repository root) with no
// problem in it, once (see loaded).
func load(t *testing.T, dir string) *annotate.Package {
	t.Helper()
	if p, ok := loaded[dir]; ok {
		return p
	}
	pkgs, diags := annotate.Load(annotate.Config{Dir: filepath.Join("..", "..", dir), Patterns: []string{"."}})
	if len(diags) > 0 || len(pkgs) != 1 {
		t.Fatalf("loading %s: %d packages, %v", dir, len(pkgs), diags)
	}
	loaded[dir] = pkgs[0]
	return pkgs[0]
}

// lines formats warnings as mcpgen prints them, relative to the package.
func lines(p *annotate.Package, ws []annotate.Diagnostic) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Format(p.Dir))
	}
	return out
}

func TestClientWarningsOnExamples(t *testing.T) {
	withTable(t, synthetic())
	cases := map[string][]string{
		"examples/bookflight": {
			`args.go:9:6: warning: Codex 0.1 (codex) breaks the whole form of book_flight, because of passengers (an integer field): replaces the whole form with a yes/no box whose "yes" sends accept with empty content; what to do: ask numbers as text, or in a question of their own
	args.go:14:59: passengers: an integer field`,
			`args.go:9:6: warning: VS Code 1.2 (vscode) degrades the form of book_flight, for its decline and cancel answers: its chat "Cancel" sends decline; what to do: make Decline and Cancel do the same`,
			`args.go:12:74: warning: Goose desktop 1.0 (goose) degrades date, its title "Departure date" as its label: shows property keys instead of titles`,
			`args.go:13:64: warning: Goose desktop 1.0 (goose) degrades window, its title "Time of day" as its label: shows property keys instead of titles`,
			`args.go:13:55: warning: VS Code 1.2 (vscode) degrades window, a titled select (oneOf const+title): shows the option's value (chk-900), the title in grey; what to do: give options values a user can read`,
			`args.go:13:55: warning: Goose desktop 1.0 (goose) breaks window, a titled select (oneOf const+title): turns titled selects into free text`,
			`args.go:14:59: warning: Goose desktop 1.0 (goose) breaks passengers, an optional integer: sends optional numbers as their minimum or 0; what to do: make the number required`,
		},
	}
	for dir, want := range cases {
		p := load(t, dir)
		got := lines(p, clientcheck.Check(p, clients.Widely(), clientcheck.Degrades))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n--- got\n%s\n--- want\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// At the Breaks level (mcpgen's default) only what breaks.
		breaks := lines(p, clientcheck.Check(p, clients.Widely(), clientcheck.Breaks))
		slices.Sort(breaks)
		wantBreaks := slices.DeleteFunc(slices.Clone(want), func(w string) bool { return !strings.Contains(w, ") breaks ") })
		if !slices.Equal(breaks, wantBreaks) {
			t.Errorf("%s at Breaks:\n--- got\n%s\n--- want\n%s", dir, strings.Join(breaks, "\n"), strings.Join(wantBreaks, "\n"))
		}
	}
}

// TestBillingAndDeploy: billing's run-time choices of titled accounts are
// a titled select; deploy's question is judged on its own.
func TestBillingAndDeploy(t *testing.T) {
	withTable(t, synthetic())
	p := load(t, "examples/billing")
	ws := strings.Join(lines(p, clientcheck.Check(p, clients.Widely(), clientcheck.Degrades)), "\n")
	for _, want := range []string{
		"VS Code 1.2 (vscode) degrades account, a select of run-time choices",
		"Goose desktop 1.0 (goose) breaks account, a select of run-time choices",
	} {
		if !strings.Contains(ws, want) {
			t.Errorf("billing: no warning %q in\n%s", want, ws)
		}
	}
	p = load(t, "examples/deploy")
	ws = strings.Join(lines(p, clientcheck.Check(p, clients.Widely(), clientcheck.Degrades)), "\n")
	if !strings.Contains(ws, "degrades the question Confirm, for its decline and cancel answers") {
		t.Errorf("deploy: no warning on the question Confirm in\n%s", ws)
	}
}

// TestEveryCellHasItsWarning holds every warning to its cell and every cell
// to its warning, for the synthetic table and the real one: on a form that
// carries every feature the check finds, each Degrades or Breaks cell of a
// widely used client yields a warning that names the client and version and
// carries the cell's source, and every warning is such a cell's.
func TestEveryCellHasItsWarning(t *testing.T) {
	tables := map[string][]*clients.Client{"synthetic": synthetic(), "real": clients.All}
	for name, table := range tables {
		t.Run(name, func(t *testing.T) {
			if len(table) == 0 {
				t.Skip("the table is empty")
			}
			withTable(t, table)
			p := load(t, "annotate/clientcheck/testdata/everyfeature")
			ws := clientcheck.Check(p, clients.Widely(), clientcheck.Degrades)
			found := map[string]bool{}
			for _, w := range ws {
				if w.Category != clientcheck.Category || !w.Warning() {
					t.Errorf("%s: category %q, want %q", w.Format(p.Dir), w.Category, clientcheck.Category)
				}
				if w.URL == "" {
					t.Errorf("%s: no source", w.Format(p.Dir))
				}
				named := false
				for _, c := range table {
					// The first client begins the message; clients that
					// behave the same follow it ("A 1 (a), B 2 (b) break").
					name := fmt.Sprintf("%s %s (%s)", c.Name, c.Version, c.ID)
					if strings.HasPrefix(w.Message, name+" ") || strings.Contains(w.Message, ", "+name+" ") {
						named = true
						found[c.ID+" "+w.URL] = true
					}
				}
				if !named {
					t.Errorf("%s: names no client of the table with its version", w.Format(p.Dir))
				}
			}
			seen := map[clients.Feature]bool{}
			for _, s := range p.Structs {
				for _, u := range clientcheck.Features(s) {
					seen[u.Feature] = true
				}
			}
			for _, f := range clients.Features {
				if !seen[f] && f != clients.Pattern { // mcpgen writes no pattern
					t.Errorf("the test's form carries no %s", f)
				}
			}
			for _, c := range clients.Widely() {
				// Whether it declares forms and URL mode at all: every form,
				// and the URL-mode question Secret.
				for what, cell := range map[string]clients.Cell{"form": c.Form, "url": c.URL} {
					if what == "url" && c.Cell(clients.URLMode).Support != clients.Unknown {
						continue // the URL-mode cell says it
					}
					if (cell.Support == clients.Degrades || cell.Support == clients.Breaks) && !found[c.ID+" "+string(cell.Source)] {
						t.Errorf("%s %s: %s %s (%s) yields no warning", c.ID, c.Version, cell.Support, what, cell.Source)
					}
				}
				for f, cell := range c.Features {
					if (cell.Support == clients.Degrades || cell.Support == clients.Breaks) && seen[f] && !found[c.ID+" "+string(cell.Source)] {
						t.Errorf("%s %s: %s %s (%s) yields no warning", c.ID, c.Version, cell.Support, f, cell.Source)
					}
				}
			}
		})
	}
}

func TestWholeFormGroupsItsFields(t *testing.T) {
	withTable(t, synthetic())
	p := load(t, "annotate/clientcheck/testdata/everyfeature")
	codex := clientcheck.Check(p, []*clients.Client{clients.ByID("codex")}, clientcheck.Degrades)
	// Integer (count), number (ratio), multi select (tags): three features
	// whose cells say the same, one whole-form warning at the struct.
	if len(codex) != 1 {
		t.Fatalf("codex: %d warnings, want 1:\n%s", len(codex), strings.Join(lines(p, codex), "\n"))
	}
	w := codex[0]
	if w.Pos.Line != 8 || len(w.Related) != 3 || !strings.Contains(w.Message, "because of count (an integer field), ratio (a number field), tags (a multi select)") {
		t.Errorf("%s: want it at the struct (line 8) with count, ratio and tags related", w.Format(p.Dir))
	}
}

func TestDirective(t *testing.T) {
	withTable(t, synthetic())
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/d\n\ngo 1.24\n")
	write(t, dir, "a.go", `//mcpgen:clients goose
package d

// Off asks nothing a client would warn about.
//
//mcpgen:clients off
type Off struct {
	N int `+"`json:\"n,omitempty\" elicit:\"optional\"`"+`
}

// Listed is judged for codex and inspector.
//
//mcpgen:clients codex inspector
type Listed struct {
	N int `+"`json:\"n,omitempty\" elicit:\"optional\"`"+`
	T string `+"`json:\"t,omitempty\" elicit:\"optional,format=date-time\"`"+`
}

// ByFile is judged for the file's goose.
type ByFile struct {
	N int `+"`json:\"n,omitempty\" elicit:\"optional\"`"+`
}
`)
	pkgs, diags := annotate.Load(annotate.Config{Dir: dir, Patterns: []string{"."}})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got := strings.Join(lines(pkgs[0], clientcheck.Check(pkgs[0], clients.Widely(), clientcheck.Degrades)), "\n")
	for _, want := range []string{
		"a.go:14:6: warning: Codex 0.1 (codex) breaks the whole form of listed",
		"a.go:16:48: warning: Inspector 1 (inspector) breaks t, format=date-time: cannot submit a date-time",
		"a.go:21:36: warning: Goose desktop 1.0 (goose) breaks n, an optional integer",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"(vscode)", "a.go:8:", "a.go:9:", "(goose) breaks the whole"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("%q in\n%s", unwanted, got)
		}
	}
}

func TestDirectiveUnknownClient(t *testing.T) {
	withTable(t, synthetic())
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/d\n\ngo 1.24\n")
	write(t, dir, "a.go", `package d

// Wrong names a client the table does not know.
//
//mcpgen:clients vscode,codx
type Wrong struct {
	N int `+"`json:\"n,omitempty\" elicit:\"optional\"`"+`
}
`)
	_, diags := annotate.Load(annotate.Config{Dir: dir, Patterns: []string{"."}})
	want := `a.go:5:1: //mcpgen:clients: unknown client "codx"; did you mean codex? (valid: codex, vscode, goose, inspector, widely, all, off, none)`
	if len(diags) != 1 || diags[0].Format(dir) != want {
		t.Fatalf("got %v, want %s", diags, want)
	}
	if fx := diags[0].SuggestedFixes; len(fx) != 1 || fx[0].Edits[0].NewText != "codex" || fx[0].Edits[0].Pos.Column != 25 {
		t.Errorf("fix %+v, want codex at column 25", fx)
	}
}

func TestParseClientList(t *testing.T) {
	withTable(t, synthetic())
	for list, want := range map[string]string{
		"widely":           "codex vscode goose",
		"all":              "codex vscode goose inspector",
		"inspector,codex":  "codex inspector",
		"widely inspector": "codex vscode goose inspector",
		"off":              "off",
		"none":             "off",
	} {
		l, err := annotate.ParseClientList(list)
		if err != nil {
			t.Errorf("%q: %v", list, err)
			continue
		}
		var ids []string
		for _, c := range l.Clients {
			ids = append(ids, c.ID)
		}
		if l.Off {
			ids = []string{"off"}
		}
		if got := strings.Join(ids, " "); got != want {
			t.Errorf("%q: %s, want %s", list, got, want)
		}
	}
	for list, want := range map[string]string{
		"vscode,cursor": `unknown client "cursor" (valid: codex, vscode, goose, inspector, widely, all, off, none)`,
		"":              "no client named",
		"off,codex":     "off (or none) turns the check off and takes no other word",
	} {
		if _, err := annotate.ParseClientList(list); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", list, err, want)
		}
	}
}

func TestDefaultFalseFix(t *testing.T) {
	withTable(t, synthetic())
	p := load(t, "annotate/clientcheck/testdata/everyfeature")
	for _, w := range clientcheck.Check(p, []*clients.Client{clients.ByID("vscode")}, clientcheck.Degrades) {
		if !strings.Contains(w.Message, "agree, default=false") {
			continue
		}
		if len(w.SuggestedFixes) != 1 || len(w.SuggestedFixes[0].Edits) != 1 {
			t.Fatalf("%s: fixes %+v", w.Format(p.Dir), w.SuggestedFixes)
		}
		e := w.SuggestedFixes[0].Edits[0]
		if e.NewText != "" || e.End.Offset-e.Pos.Offset != len(",default=false") {
			t.Errorf("edit %+v: want ,default=false removed", e)
		}
		return
	}
	t.Fatal("no warning about agree's default=false")
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRealTableOnExamples: the table's own evidence on the examples, by
// client id (names and versions change with the evidence): bookflight's
// integer passengers makes Codex replace the whole form; its titled select
// window is shown by value in VS Code, and Goose (desktop), on protocol
// 2025-03-26, is sent it as enum + enumNames and shows the raw values (and
// is not sent the number's default); billing's titled accounts and deploy's
// question likewise.
func TestRealTableOnExamples(t *testing.T) {
	// A required multi select is never sent to a client of an older
	// protocol: the whole form, not the field.
	old := &clients.Client{ID: "old", Name: "Old", Version: "1", Protocols: []string{"2025-06-18"}, Form: clients.Cell{Support: clients.Renders}}
	var picks *annotate.Struct
	for _, s := range load(t, "runtime/internal/fixture").Structs {
		if s.Name == "Picks" {
			picks = s
		}
	}
	if picks == nil {
		t.Fatal("no Picks in the fixture")
	}
	ws := clientcheck.Struct(picks, []*clients.Client{old}, clientcheck.Breaks)
	if want := "Old 1 (old) breaks the whole form of pick_seats, because of seats (a multi select): the form is never sent: protocol 2025-06-18 has no multi select"; len(ws) != 1 || !strings.Contains(ws[0].Message, want) {
		t.Errorf("got %v, want one warning with %q", ws, want)
	}

	if len(clients.All) == 0 {
		t.Fatal("the client table is empty")
	}
	for dir, want := range map[string][]string{
		"examples/bookflight": {
			"args.go:9:6: warning: OpenAI Codex CLI ",
			"(codex) breaks the whole form of book_flight, because of passengers (an integer field",
			"\targs.go:14:59: passengers: an integer field",
			"args.go:13:55: warning: VS Code ",
			"(vscode) degrades window, a titled select",
			"(goose-desktop) degrades window, a titled select (oneOf const+title), sent as enum + enumNames (protocol 2025-03-26)",
			"(goose-desktop) degrades passengers, default=1: not sent: protocol 2025-03-26 has defaults on booleans only",
			"(goose-desktop) breaks passengers, an optional integer",
		},
		"examples/billing": {
			"(vscode) degrades account, a select of run-time choices",
			"(goose-desktop) degrades account, a select of run-time choices, titled (oneOf const+title) when they have titles, sent as enum + enumNames",
		},
		"examples/deploy": {
			"(vscode) degrades environment, a titled select",
			"(vscode) degrades the question Confirm, for its decline and cancel answers",
		},
	} {
		p := load(t, dir)
		ws := clientcheck.Check(p, clients.Widely(), clientcheck.Degrades)
		got := strings.Join(lines(p, ws), "\n")
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in\n%s", dir, w, got)
			}
		}
		for _, w := range ws {
			if !strings.HasPrefix(w.URL, "https://") {
				t.Errorf("%s: source %q", w.Format(p.Dir), w.URL)
			}
		}
	}
}

// TestSameBehaviourIsOneWarning: clients whose cells say the same, from
// the same source, share one warning.
func TestSameBehaviourIsOneWarning(t *testing.T) {
	none := clients.Cell{Support: clients.Breaks, How: "declares no elicitation", Fix: "none", Source: "https://example.com/list#L1"}
	withTable(t, []*clients.Client{
		{ID: "a", Name: "A", Version: "1", Form: none},
		{ID: "b", Name: "B", Version: "2", Form: none},
		{ID: "c", Name: "C", Version: "3", Form: clients.Cell{Support: clients.Breaks, How: "declares no elicitation", Source: "https://example.com/other"}},
	})
	p := load(t, "examples/bookflight")
	got := strings.Join(lines(p, clientcheck.Check(p, clients.All, clientcheck.Degrades)), "\n")
	want := "args.go:9:6: warning: A 1 (a), B 2 (b) break the form of book_flight, for a form (form-mode elicitation): declares no elicitation; what to do: none\n" +
		"args.go:9:6: warning: C 3 (c) breaks the form of book_flight, for a form (form-mode elicitation): declares no elicitation"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
