package mcpgo

import (
	"context"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// HideUnaskable leaves the tools named tools out of the tools/list results
// of the server built with hooks (server.WithHooks(hooks)) for a client that
// declared no form elicitation (MCP 2026-07-28, client/elicitation,
// capabilities: {"elicitation":{}} or {"elicitation":{"form":{}}}): the
// request's own capabilities for a 2026-07-28 client (basic: per-request
// capabilities in _meta), those of the session's initialize for a 2025-era
// one (MCP 2025-11-25, basic/lifecycle). It adds an after-list-tools hook
// (server.Hooks.AddAfterListTools), which gets the result before it is sent.
//
// It only hides: a tools/call of a hidden tool by such a client still runs
// the flow, which answers with the handler's Unaskable fallback (or
// runtime.DefaultUnaskable's tool error). mcp-go's own
// server.WithToolFilter is not used because it also refuses such calls as
// unknown tools. Names of tools the server does not have are ignored.
func HideUnaskable(hooks *server.Hooks, tools ...string) {
	hidden := slices.Clone(tools)
	hooks.AddAfterListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest, result *mcp.ListToolsResult) {
		if result == nil || declaresForms(ctx) {
			return
		}
		result.Tools = slices.DeleteFunc(slices.Clone(result.Tools), func(t mcp.Tool) bool {
			return slices.Contains(hidden, t.Name)
		})
	})
}

// declaresForms reports whether the client of the request ctx belongs to
// declared form elicitation ({"elicitation":{"url":{}}} alone does not).
func declaresForms(ctx context.Context) bool {
	caps := clientCapabilities(ctx)
	return caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil)
}
