package scaffold

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotate"
)

// Render registers every tool in the order given, with its flow
// constructor and handler type as annotate names them, and names the
// server after the package.
func TestRenderRegistersEveryTool(t *testing.T) {
	var tools []*annotate.Struct
	for _, s := range []struct{ name, tool string }{{"BookFlightArgs", "book_flight"}, {"PayInvoice", "pay_invoice"}} {
		st := &annotate.Struct{Name: s.name, Tool: s.tool}
		st.Derive()
		tools = append(tools, st)
	}
	src, err := Render("travel", tools)
	require.NoError(t, err)
	out := string(src)
	first := strings.Index(out, "mcpsdk.AddTool(s, NewBookFlightArgsFlow(bookFlightArgsHandler{}), opts)")
	second := strings.Index(out, "mcpsdk.AddTool(s, NewPayInvoiceFlow(payInvoiceHandler{}), opts)")
	assert.True(t, first > 0 && second > first, out)
	assert.Contains(t, out, "// Command travel serves its MCP tools (book_flight, pay_invoice)")
	assert.Contains(t, out, `&mcp.Implementation{Name: "travel", Version: "0.1.0"}`)
	for _, name := range declared {
		if name != "main" && name != "serve" {
			assert.Regexp(t, `(?m)^\s+"([^"]*/)?`+name+`"$`, out, "declared lists the imports")
		}
	}
}

// A main registers tools declared under one build constraint under that
// constraint; tools under different ones need mains of their own, which is
// said, naming each.
func TestSharedConstraint(t *testing.T) {
	tool := func(name, constraint string) *annotate.Struct {
		return &annotate.Struct{Name: name, BuildConstraint: constraint}
	}
	c, err := sharedConstraint([]*annotate.Struct{tool("A", "pro"), tool("B", "pro")})
	require.NoError(t, err)
	assert.Equal(t, "pro", c)
	c, err = sharedConstraint([]*annotate.Struct{tool("A", ""), tool("B", "")})
	require.NoError(t, err)
	assert.Empty(t, c)
	_, err = sharedConstraint([]*annotate.Struct{tool("A", ""), tool("B", "pro && linux")})
	require.ErrorContains(t, err, "A (no build constraint), B (//go:build pro && linux)")
}
