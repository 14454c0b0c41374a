package previewbrowser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/clients"
	"github.com/mcpgen/mcpgen/examples/internal/browsertest"
	"github.com/mcpgen/mcpgen/gen/preview"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

func TestMain(m *testing.M) {
	racebuild.ShareBuild() // the previews' loads build as this binary was built
	os.Exit(browsertest.Main(m))
}

// shown is what the page shows of one column, read from the DOM.
type shown struct {
	Form, Client, Look string
	Approximate        bool
	Labels             []string            // each field's label, in order
	KeyLabels          []string            // the fields labelled by their key
	Options            map[string][]string // a select's options: label, or "label (grey)"
	Dropped            map[string]string
	Buttons            []string
	Fallback           string
	Sources            []string
}

// readColumns reads every column of the page in the tab.
const readColumns = `[...document.querySelectorAll("section.form .column")].map(c => ({
	Form: c.closest("section").dataset.form,
	Client: c.dataset.client,
	Look: c.dataset.look,
	Approximate: c.dataset.approximate !== undefined,
	Labels: [...c.querySelectorAll(".field > .label")].map(l => l.firstChild.textContent.trim()),
	KeyLabels: [...c.querySelectorAll(".field > .label.key")].map(l => l.firstChild.textContent.trim()),
	Options: Object.fromEntries([...c.querySelectorAll(".field")].filter(f => f.querySelector(".option[data-value]")).map(f =>
		[f.dataset.key, [...f.querySelectorAll(".option")].map(o => o.querySelector(".label-text").textContent +
			(o.querySelector(".grey") ? " (" + o.querySelector(".grey").textContent + ")" : ""))])),
	Dropped: Object.fromEntries([...c.querySelectorAll(".field")].filter(f => f.querySelector(".dropped")).map(f =>
		[f.dataset.key, f.querySelector(".dropped").textContent])),
	Buttons: [...c.querySelectorAll(".button")].map(b => b.firstChild.textContent.trim() + (b.dataset.action ? " → " + b.dataset.action : "")),
	Fallback: c.querySelector("pre.fallback") ? c.querySelector("pre.fallback").textContent : "",
	Sources: [...c.querySelectorAll("footer.sources a")].map(a => a.href),
}))`

// bookflight is what the tests preview.
func bookflight(t *testing.T, cs []*clients.Client) preview.Options {
	t.Helper()
	dir, err := filepath.Abs("../..") // the examples module's root
	require.NoError(t, err)
	return preview.Options{Dir: dir, Patterns: []string{"./bookflight"}, Clients: cs, Command: "mcpgen preview ./examples/bookflight"}
}

// open serves the preview of examples/bookflight for cs (through Serve, as
// -serve does) and opens it in a tab as wide as a desktop screen.
func open(t *testing.T, cs []*clients.Client) (*browsertest.Page, []shown) {
	t.Helper()
	b := browsertest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- preview.Serve(ctx, "127.0.0.1:0", bookflight(t, cs), func(a string) { addr <- a })
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	var url string
	select {
	case url = <-addr:
	case err := <-done:
		t.Fatal(err)
	}
	p := b.NewPage()
	p.Do(chromedp.EmulateViewport(1400, 900))
	require.Equal(t, 200, p.Open("http://"+url+"/"))
	cols, err := chromedp.Run(p.Context(), chromedp.Evaluate[[]shown](readColumns))
	require.NoError(t, err)
	return p, cols
}

func find(t *testing.T, cols []shown, form, client string) shown {
	t.Helper()
	for _, c := range cols {
		if c.Form == form && c.Client == client {
			return c
		}
	}
	t.Fatalf("no column %s of form %s on the page", client, form)
	return shown{}
}

// TestChromiumColumns renders examples/bookflight for the synthetic clients
// and reads, in Chromium, what each column shows.
func TestChromiumColumns(t *testing.T) {
	_, cols := open(t, []*clients.Client{codex, goose, vscode, silent})

	spec := find(t, cols, "book_flight", "spec")
	require.Equal(t, "form", spec.Look)
	require.False(t, spec.Approximate)
	require.Equal(t, []string{"Departure date", "Time of day", "Passengers"}, spec.Labels)
	require.Equal(t, []string{"Morning", "Afternoon", "Evening"}, spec.Options["window"])
	require.Equal(t, []string{"Accept → accept", "Decline → decline", "Cancel → cancel"}, spec.Buttons)

	cx := find(t, cols, "book_flight", "codex") // passengers is an integer
	require.Equal(t, "yes-no", cx.Look)
	require.Empty(t, cx.Labels)
	require.Equal(t, []string{"Yes", "No"}, cx.Buttons)
	require.True(t, cx.Approximate)
	require.Equal(t, []string{"https://example.com/codex/integer"}, cx.Sources)

	g := find(t, cols, "book_flight", "goose")
	require.Equal(t, []string{"date", "window", "passengers"}, g.KeyLabels)

	vs := find(t, cols, "book_flight", "vscode")
	require.Equal(t, []string{"morning (Morning)", "afternoon (Afternoon)", "evening (Evening)"}, vs.Options["window"])
	require.Equal(t, []string{"Accept → accept", "Dismiss"}, vs.Buttons)

	s := find(t, cols, "book_flight", "silent")
	require.Equal(t, "no-form", s.Look)
	require.Contains(t, s.Fallback, "book_flight needs input from the user, but this client declared no form elicitation")
	require.Contains(t, s.Fallback, `- date ("Departure date"): required string, format date`)
}

// TestChromiumTable renders examples/bookflight for the clients the check
// cares about by default and Claude Desktop (no elicitation), holds what
// Chromium shows of every column to the page's model and to what the table
// says of a few clients, and takes the screenshot of docs/preview.md
// (written to MCPGEN_SCREENSHOTS when set; copy it to docs/preview.png).
func TestChromiumTable(t *testing.T) {
	cs := append(clients.Widely(), clients.ByID("claude-desktop"))
	p, cols := open(t, cs)
	forms, diags, err := preview.Load(bookflight(t, nil))
	require.NoError(t, err)
	require.Empty(t, diags)
	var want []shown
	for _, f := range preview.Build(forms, cs).Forms {
		for _, c := range f.Columns {
			want = append(want, expected(f.ID, c))
		}
	}
	require.Equal(t, want, cols)

	// What the table says today of the clients the synthetic ones stand for.
	require.Equal(t, "yes-no", find(t, cols, "book_flight", "codex").Look, "Codex: passengers is an integer")
	require.Equal(t, []string{"date", "window", "passengers"}, find(t, cols, "book_flight", "goose-desktop").KeyLabels)
	require.Equal(t, []string{"morning (Morning)", "afternoon (Afternoon)", "evening (Evening)"},
		find(t, cols, "book_flight", "vscode").Options["window"])
	desktop := find(t, cols, "book_flight", "claude-desktop")
	require.Equal(t, "no-form", desktop.Look)
	require.Contains(t, desktop.Fallback, "this client declared no form elicitation")
	p.Screenshot("preview")
}

// expected is what the page must show of column c.
func expected(form string, c preview.Column) shown {
	// Empty, not nil, as the page's JSON decodes.
	s := shown{Form: form, Client: c.Client.ID, Look: "form", Approximate: c.Approximate(), Labels: []string{},
		KeyLabels: []string{}, Options: map[string][]string{}, Dropped: map[string]string{},
		Buttons: []string{}, Fallback: c.Fallback, Sources: []string{}}
	for _, b := range c.Buttons {
		if b.Action != "" {
			b.Label += " → " + string(b.Action)
		}
		s.Buttons = append(s.Buttons, b.Label)
	}
	switch {
	case c.NoForm:
		s.Look, s.Buttons = "no-form", []string{}
	case c.YesNo:
		s.Look = "yes-no"
	case c.URL:
		s.Look = "url"
	}
	for _, src := range c.Sources {
		s.Sources = append(s.Sources, string(src))
	}
	if c.YesNo || c.NoForm {
		return s
	}
	for _, f := range c.Fields {
		s.Labels = append(s.Labels, f.Label)
		if f.LabelIsKey {
			s.KeyLabels = append(s.KeyLabels, f.Label)
		}
		for _, o := range f.Options {
			text := o.Label
			if o.Grey != "" {
				text += " (" + o.Grey + ")"
			}
			s.Options[f.Key] = append(s.Options[f.Key], text)
		}
		if len(f.Dropped) > 0 {
			s.Dropped[f.Key] = "dropped: " + strings.Join(f.Dropped, ", ")
		}
	}
	return s
}
