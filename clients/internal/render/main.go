// Command render writes docs/clients.md, the table of MCP clients and what
// they do with elicitation forms, from the data in package clients.
//
// Usage (from the clients directory, as go generate runs it):
//
//	go run ./internal/render -o ../docs/clients.md
//
// Without -o it writes to standard output. The output depends on the data
// alone, so a test can tell when the file in the repository is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/mcpgen/mcpgen/clients"
)

func main() {
	out := flag.String("o", "", "write to this file instead of standard output")
	flag.Parse()
	var buf bytes.Buffer
	render(&buf, clients.All)
	if *out == "" {
		if _, err := os.Stdout.Write(buf.Bytes()); err != nil {
			fmt.Fprintln(os.Stderr, "render:", err)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

// refs numbers the sources in the order the page first cites them.
type refs struct {
	n   map[clients.Source]int
	all []clients.Source
}

// of returns the number of s, giving it the next one on first use.
func (r *refs) of(s clients.Source) int {
	if r.n == nil {
		r.n = map[clients.Source]int{}
	}
	if n, ok := r.n[s]; ok {
		return n
	}
	r.all = append(r.all, s)
	r.n[s] = len(r.all)
	return len(r.all)
}

// mark is the matrix mark of a support level.
func mark(s clients.Support) string {
	switch s {
	case clients.Renders:
		return "✅"
	case clients.Degrades:
		return "◐"
	case clients.Breaks:
		return "✗"
	}
	return "?"
}

// linked is a cell's mark linked to its source, "?" when Unknown.
func (r *refs) linked(c clients.Cell) string {
	if c.Support == clients.Unknown {
		return "?"
	}
	m := mark(c.Support)
	if c.WholeForm {
		m += "!"
	}
	return fmt.Sprintf("[%s][%d]", m, r.of(c.Source))
}

// escaper escapes the characters Markdown (and a table cell) would read.
var escaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `&lt;`, `>`, `&gt;`, `|`, `\|`,
)

// threadRef is an "owner/repo#N" reference in a note or a How.
var threadRef = regexp.MustCompile(`\b([A-Za-z0-9-]+)/([A-Za-z0-9.-]+)#([1-9][0-9]*)\b`)

// text escapes s for Markdown and links its owner/repo#N references.
func text(s string) string {
	return threadRef.ReplaceAllString(escaper.Replace(s), "[$1/$2#$3](https://github.com/$1/$2/issues/$3)")
}

// kindOf reads the zero Kind as App.
func kindOf(c *clients.Client) clients.Kind {
	if c.Kind == "" {
		return clients.App
	}
	return c.Kind
}

// render writes the page for all to w.
func render(w io.Writer, all []*clients.Client) {
	var r refs
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }

	p("# MCP clients and elicitation forms\n\n")
	p("<!-- Generated from clients/table.go by `go generate ./clients`; do not edit by hand. -->\n\n")
	p("What the MCP clients people use do with an elicitation form, feature by feature, at the version named. ")
	p("mcpgen's build-time client check and `mcpgen preview` read the same data (package `clients`).\n\n")
	p("Every mark links to its source: an issue or pull-request thread, or the client's source file at a commit or tag. ")
	p("A `?` means no source was found, so nothing is claimed. ")
	p("The forms themselves follow the specification (MCP 2025-11-25 and 2026-07-28, client/elicitation, \"Requested Schema\").\n\n")
	p("| mark | meaning |\n|---|---|\n")
	p("| ✅ | shown as the specification describes (notes below may add how) |\n")
	p("| ◐ | shown, but the feature is lost or changed in a way the user may notice |\n")
	p("| ✗ | breaks: the user cannot answer as intended; **✗!** the whole form is refused or replaced |\n")
	p("| ? | no evidence |\n")
	p("| — | the client declares no elicitation: the tool's no-elicitation fallback runs instead |\n\n")
	p("The *SDK helpers* rows are client libraries, not apps: there ✅ means the helper hands the feature to the application's own handler unchanged, ◐ that it changes or drops it on the way, ✗ that it refuses the request.\n\n")
	p("**Widely used** clients (bold) are the ones the check looks at by default.\n\n")

	// The matrix.
	p("## Matrix\n\n")
	p("| client | form | url |")
	for _, f := range clients.Features {
		p(" %s |", f)
	}
	p("\n|---|---|---|")
	for range clients.Features {
		p("---|")
	}
	p("\n")
	section := ""
	for _, c := range all {
		s := "Apps"
		if kindOf(c) == clients.Library {
			s = "SDK helpers"
		}
		if s != section {
			section = s
			p("| *%s* | | |", s)
			for range clients.Features {
				p(" |")
			}
			p("\n")
		}
		name := fmt.Sprintf("[%s](#%s)", text(c.Name), c.ID)
		if c.Widely {
			name = "**" + name + "**"
		}
		p("| %s | %s | %s |", name, r.linked(c.Form), r.linked(c.URL))
		for _, f := range clients.Features {
			if !c.Elicits() {
				p(" — |")
				continue
			}
			p(" %s |", r.linked(c.Cell(f)))
		}
		p("\n")
	}
	p("\n")

	// The notes, client by client.
	p("## Clients\n\n")
	for _, c := range all {
		p("<a id=\"%s\"></a>\n\n### %s\n\n", c.ID, text(c.Name))
		facts := []string{"`" + c.ID + "`", "version " + text(c.Version), string(kindOf(c))}
		if c.Widely {
			facts = append(facts, "widely used")
		}
		p("%s\n\n", strings.Join(facts, " · "))
		for _, d := range []struct {
			what string
			c    clients.Cell
		}{{"Form mode", c.Form}, {"URL mode", c.URL}} {
			if d.c.Support == clients.Unknown {
				p("- **%s:** ? (no source)\n", d.what)
				continue
			}
			p("- **%s:** %s", d.what, r.linked(d.c))
			if d.c.How != "" {
				p(" %s.", text(d.c.How))
			}
			if d.c.Fix != "" {
				p(" *Fix:* %s.", text(d.c.Fix))
			}
			p("\n")
		}
		if len(c.Protocols) > 0 {
			p("- **Protocols:** %s", strings.Join(c.Protocols, ", "))
			if c.ProtocolsHow != "" {
				p(": %s", text(c.ProtocolsHow))
			}
			p(" [[%d]]\n", r.of(c.ProtocolsSource))
		} else {
			p("- **Protocols:** ? (no source)\n")
		}
		if l := c.Look; l != nil {
			p("- **Looks like:** %s", text(l.Layout))
			if l.FieldLabel != "" {
				p("; fields labelled by %s", l.FieldLabel)
			}
			if l.OptionLabel != "" {
				p("; options labelled by %s", l.OptionLabel)
			}
			if len(l.Buttons) > 0 {
				var bs []string
				for _, b := range l.Buttons {
					bs = append(bs, fmt.Sprintf("%s → %s", text(b.Label), b.Action))
				}
				p("; %s", strings.Join(bs, ", "))
			}
			p(" [[%d]]\n", r.of(l.Source))
		}
		for _, n := range c.Notes {
			p("- %s\n", text(n))
		}
		p("\n")
		if !c.Elicits() {
			continue
		}
		var rows []string
		for _, f := range clients.Features {
			cell, ok := c.Features[f]
			if !ok || (cell.How == "" && cell.Fix == "") {
				continue
			}
			fix := text(cell.Fix)
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |\n", f, r.linked(cell), text(cell.How), fix))
		}
		if len(rows) > 0 {
			p("| feature | | what happens | what a tool author can do |\n|---|---|---|---|\n")
			for _, row := range rows {
				p("%s", row)
			}
			p("\n")
		}
	}

	// The sources, numbered as cited.
	p("## Sources\n\n")
	for i, s := range r.all {
		p("%d. <%s>\n", i+1, s)
	}
	p("\n")
	for i, s := range r.all {
		p("[%d]: %s\n", i+1, s)
	}
}
