package preview

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/clients"
	"github.com/mcpgen/mcpgen/gen/driver"
)

// Page is what the HTML page shows.
type Page struct {
	// Command is the command line that made the page, shown at its top.
	Command string
	// Packages are the import paths of the packages shown.
	Packages []string
	// Clients are the clients shown, after the reference column.
	Clients []*clients.Client
	// Forms are the package's forms, each with its columns.
	Forms []FormView
}

// FormView is one form with its columns: the specification's first, then
// one per client.
type FormView struct {
	Form
	// SchemaJSON is the requestedSchema, indented.
	SchemaJSON string
	Columns    []Column
}

// Kind says what the form is: "tool", "question" or "URL-mode question".
func (f FormView) Kind() string {
	switch {
	case f.URL:
		return "URL-mode question"
	case f.Question:
		return "question"
	}
	return "tool"
}

// Build draws every form for the reference column and each client of cs.
func Build(forms []Form, cs []*clients.Client) *Page {
	p := &Page{Clients: cs}
	for _, f := range forms {
		b, _ := json.MarshalIndent(f.Schema, "", "  ")
		v := FormView{Form: f, SchemaJSON: string(b)}
		for _, c := range append([]*clients.Client{Reference}, cs...) {
			v.Columns = append(v.Columns, column(f, c))
		}
		p.Forms = append(p.Forms, v)
		if !slices.Contains(p.Packages, f.Package) {
			p.Packages = append(p.Packages, f.Package)
		}
	}
	return p
}

//go:embed page.html
var files embed.FS

var page = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"join":    strings.Join,
	"sources": groupSources,
}).ParseFS(files, "page.html"))

// WriteHTML writes the page as one self-contained HTML document.
func (p *Page) WriteHTML(w io.Writer) error { return page.Execute(w, p) }

// SelectClients returns the clients spec names: "widely" (the clients the
// check cares about by default), "all", or IDs separated by commas.
func SelectClients(spec string) ([]*clients.Client, error) {
	switch spec {
	case "widely":
		return clients.Widely(), nil
	case "all":
		return clients.All, nil
	}
	var out []*clients.Client
	for _, id := range strings.Split(spec, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		c := clients.ByID(id)
		if c == nil {
			var ids []string
			for _, c := range clients.All {
				ids = append(ids, c.ID)
			}
			return nil, fmt.Errorf("no client %q in the table (widely, all, or some of: %s)", id, strings.Join(ids, ", "))
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("no client named: use widely, all, or client IDs separated by commas")
	}
	return out, nil
}

// Options says what to preview.
type Options struct {
	Dir       string   // working directory for the go command ("" = current)
	Patterns  []string // package patterns (default ".")
	BuildTags []string // build tags (-tags)
	Clients   []*clients.Client
	Command   string // the command line, shown on the page
}

// Load loads the packages as mcpgen does (the driver: load, model, render
// and type-check, nothing written) and returns their forms, or the
// diagnostics that stop mcpgen itself.
func Load(opts Options) ([]Form, []annotate.Diagnostic, error) {
	res, err := driver.Run(driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, BuildTags: opts.BuildTags, Check: true})
	if err != nil {
		return nil, nil, err
	}
	if len(res.Diagnostics) > 0 {
		return nil, res.Diagnostics, nil
	}
	forms := Forms(res.Packages)
	if len(forms) == 0 {
		return nil, nil, errors.New("no form to show: no tool with an elicitable field and no //mcpgen:question")
	}
	return forms, nil, nil
}

// Generate loads the packages ([Load]) and returns the page's HTML for
// opts.Clients.
func Generate(opts Options) ([]byte, []annotate.Diagnostic, error) {
	forms, diags, err := Load(opts)
	if err != nil || len(diags) > 0 {
		return nil, diags, err
	}
	p := Build(forms, opts.Clients)
	p.Command = opts.Command
	var b bytes.Buffer
	if err := p.WriteHTML(&b); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), nil, nil
}

// sourceGroup is the sources of one page or file: its label, and a link to
// each source (Text: its line fragment, "L10-L20", or the label alone).
type sourceGroup struct {
	Label string
	Links []sourceLink
}

type sourceLink struct {
	Href clients.Source
	Text string
}

// groupSources groups sources by the page or file they point into, in
// order, so that a file cited at many lines is named once.
func groupSources(srcs []clients.Source) []sourceGroup {
	var out []sourceGroup
	at := map[string]int{}
	for _, s := range srcs {
		page, frag, _ := strings.Cut(string(s), "#")
		label := sourceLabel(clients.Source(page))
		if strings.Contains(page, "/issues/") || strings.Contains(page, "/pull/") {
			label, frag = sourceLabel(s), "" // a thread: the fragment is a comment
		}
		i, ok := at[label]
		if !ok {
			i = len(out)
			at[label] = i
			out = append(out, sourceGroup{Label: label})
		}
		out[i].Links = append(out[i].Links, sourceLink{Href: s, Text: frag})
	}
	return out
}

// sourceLabel is a source's URL shortened for a link's text: a GitHub
// thread as OWNER/REPO#N, a file at a commit as OWNER/REPO@COMMIT:PATH with
// the commit cut to 7 digits; another URL without its scheme.
func sourceLabel(s clients.Source) string {
	u := strings.TrimPrefix(string(s), "https://")
	rest, ok := strings.CutPrefix(u, "github.com/")
	if !ok {
		return u
	}
	parts := strings.SplitN(rest, "/", 5)
	if len(parts) >= 4 && (parts[2] == "issues" || parts[2] == "pull" || parts[2] == "discussions") {
		n, _, _ := strings.Cut(parts[3], "#")
		return parts[0] + "/" + parts[1] + "#" + n
	}
	if len(parts) == 5 && parts[2] == "blob" {
		commit := parts[3]
		if len(commit) > 7 {
			commit = commit[:7]
		}
		return parts[0] + "/" + parts[1] + "@" + commit + ":" + parts[4]
	}
	return rest
}
