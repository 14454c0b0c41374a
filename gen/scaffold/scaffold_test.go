package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotate"
)

// Render registers every tool in the order given, with its flow
// constructor and handler type as annotate names them, and names the
// server after the package; with a URL-mode question it mounts the page and
// the development sign-in.
func TestRenderRegistersEveryTool(t *testing.T) {
	var tools []*annotate.Struct
	for _, s := range []struct{ name, tool string }{{"BookFlightArgs", "book_flight"}, {"PayInvoice", "pay_invoice"}} {
		st := &annotate.Struct{Name: s.name, Tool: s.tool}
		st.Derive()
		tools = append(tools, st)
	}
	inFlows := []annotate.ToolEntry{{Struct: "BookFlightArgs"}, {Struct: "PayInvoice"}}
	// A tool whose file has a build constraint is not in Flows: the main
	// registers it after them, with its own flow constructor.
	src, err := Render("travel", tools, inFlows[:1], nil)
	require.NoError(t, err)
	assert.Contains(t, string(src), "mcpsdk.AddTools(s, append(Flows(Handlers{}), NewPayInvoiceFlow(payInvoiceHandler{})), opts)")
	src, err = Render("travel", tools, nil, nil)
	require.NoError(t, err)
	assert.Contains(t, string(src), "mcpsdk.AddTools(s, []*runtime.Flow{NewBookFlightArgsFlow(bookFlightArgsHandler{}), NewPayInvoiceFlow(payInvoiceHandler{})}, opts)")

	src, err = Render("travel", tools, inFlows, nil)
	require.NoError(t, err)
	out := string(src)
	assert.Contains(t, out, "mcpsdk.AddTools(s, Flows(Handlers{}), opts)")
	assert.NotContains(t, out, `"github.com/mcpgen/mcpgen/runtime"`, "no page, no runtime import")
	assert.Contains(t, out, "// Command travel serves its MCP tools (book_flight, pay_invoice)")
	assert.Contains(t, out, `&mcp.Implementation{Name: "travel", Version: "0.1.0"}`)
	assert.Contains(t, out, `otelenv.Start(ctx, "travel", stdio)`)
	assert.Contains(t, out, "mcpsdk.StdioPrincipal()")
	assert.Contains(t, out, "mcpsdk.InstanceSessionIDs(os.Getenv(mcpsdk.EnvInstance))")
	assert.Contains(t, out, "mcpsdk.Serve(ctx, addr, endpoint, mux,")
	assert.NotContains(t, out, "page.Handler", "no URL-mode question, no page")
	for _, name := range declaredForPages {
		assert.NotRegexp(t, `(?m)^\s+"([^"]*/)?`+name+`"$`, out, "declaredForPages lists only what pages add")
	}
	assert.NotContains(t, out, "SignIn")

	q := &annotate.Struct{Name: "APIKey", Question: true, URLMode: true}
	q.Derive()
	src, err = Render("travel", tools, inFlows, []*annotate.Struct{q})
	require.NoError(t, err)
	out = string(src)
	assert.Contains(t, out, "URL-mode questions (APIKey)")
	assert.Contains(t, out, "devauth.NewSignIn(o.Keys, where)")
	assert.Contains(t, out, "mux.Handle(devauth.SignInPath, signIn)")
	assert.Contains(t, out, "page.Handler(o, opts)")
	for _, name := range append(declared, declaredForPages...) {
		if name != "main" && name != "serve" && name != "pages" && name != "pagePath" {
			assert.Regexp(t, `(?m)^\s+"([^"]*/)?`+name+`"$`, out, "declared lists the imports")
		}
	}
	assert.Regexp(t, `(?m)^func pages\(`, out)
	assert.Regexp(t, `(?m)^const pagePath = `, out)
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
