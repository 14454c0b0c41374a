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

// A main carries the AND of its tools' build constraints, each once, so
// that it builds only where every tool it registers does.
func TestSharedConstraint(t *testing.T) {
	tool := func(name, constraint string) *annotate.Struct {
		return &annotate.Struct{Name: name, BuildConstraint: constraint}
	}
	for _, c := range []struct {
		tools []*annotate.Struct
		want  string
	}{
		{[]*annotate.Struct{tool("A", ""), tool("B", "")}, ""},
		{[]*annotate.Struct{tool("A", "pro"), tool("B", "pro")}, "pro"},
		{[]*annotate.Struct{tool("A", ""), tool("B", "pro && linux")}, "pro && linux"},
		{[]*annotate.Struct{tool("A", "amd64 && linux"), tool("B", "pro"), tool("C", "amd64 && linux")}, "amd64 && linux && pro"},
	} {
		got, err := sharedConstraint(c.tools)
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
	}
}
