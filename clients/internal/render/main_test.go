package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/clients"
)

// The committed page, relative to this package's directory.
const page = "../../../docs/clients.md"

func rendered() string {
	var buf bytes.Buffer
	render(&buf, clients.All)
	return buf.String()
}

func TestPageIsCurrent(t *testing.T) {
	got, err := os.ReadFile(page)
	require.NoError(t, err)
	if string(got) != rendered() {
		t.Fatalf("docs/clients.md is stale: run `go generate ./clients` and commit the result")
	}
}

func TestPageCoversTheData(t *testing.T) {
	out := rendered()
	for _, c := range clients.All {
		assert.Contains(t, out, `<a id="`+c.ID+`"></a>`, "a section for %s", c.ID)
		for _, cell := range append([]clients.Cell{c.Form, c.URL}, cellsOf(c)...) {
			if cell.Support != clients.Unknown {
				assert.Contains(t, out, "<"+string(cell.Source)+">", "%s cites %s", c.ID, cell.Source)
			}
		}
		if c.Widely {
			assert.Contains(t, out, "**["+text(c.Name)+"](#"+c.ID+")**", "%s is marked widely used", c.ID)
		}
	}
	for _, f := range clients.Features {
		assert.Contains(t, out, " "+string(f)+" |", "a matrix column for %s", f)
	}
}

func cellsOf(c *clients.Client) []clients.Cell {
	var out []clients.Cell
	for _, f := range clients.Features {
		if cell, ok := c.Features[f]; ok {
			out = append(out, cell)
		}
	}
	return out
}

// The page is for users: it names no working notes.
func TestPageNamesNoWorkingNotes(t *testing.T) {
	out := rendered()
	for _, w := range []string{"DESIGN", "SPEC", "CLIENTS.md", "/work/shared", "/work/"} {
		assert.NotContains(t, out, w)
	}
}

func TestMarksAndText(t *testing.T) {
	var r refs
	assert.Equal(t, "?", r.linked(clients.Cell{}))
	assert.Equal(t, "[✅][1]", r.linked(clients.Cell{Support: clients.Renders, Source: "https://github.com/a/b/issues/1"}))
	assert.Equal(t, "[✗!][2]", r.linked(clients.Cell{Support: clients.Breaks, WholeForm: true, Source: "https://github.com/a/b/issues/2"}))
	assert.Equal(t, "[◐][1]", r.linked(clients.Cell{Support: clients.Degrades, Source: "https://github.com/a/b/issues/1"}))
	assert.Equal(t, `a \| b &lt;host&gt; \_meta`, text("a | b <host> _meta"))
	assert.Equal(t, "see [openai/codex#12](https://github.com/openai/codex/issues/12).", text("see openai/codex#12."))
	assert.False(t, strings.Contains(text("x|y"), "x|y"))
}
