package mcpsdk

import (
	"context"
	"reflect"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// HideUnaskable leaves the tools named tools out of the tools/list results
// s sends a client that declared no form elicitation (MCP 2026-07-28,
// client/elicitation, capabilities: {"elicitation":{}} or
// {"elicitation":{"form":{}}}): the request's own capabilities for a
// 2026-07-28 client (basic: per-request capabilities in _meta), those of the
// session's initialize for a 2025-era one (MCP 2025-11-25, basic/lifecycle),
// none for a 2025-era client over stateless HTTP, which cannot be sent a
// request anyway. Opt a tool in when it is useless without asking (a typed
// confirmation of a destructive action), so that a model on such a client
// is not offered a tool whose every call would end in its fallback.
//
// It only hides: a tools/call of a hidden tool by such a client (a model
// that knew its name) still runs the flow, which answers with the handler's
// Unaskable fallback (or runtime.DefaultUnaskable's tool error). It adds a
// receiving middleware to s (mcp.Server.AddReceivingMiddleware) on every
// call; call it once, with every tool to hide, before s serves. Names of
// tools s does not have are ignored; other methods pass untouched.
func HideUnaskable(s *mcp.Server, tools ...string) {
	hidden := slices.Clone(tools)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil || method != "tools/list" {
				return res, err
			}
			list, ok := res.(*mcp.ListToolsResult)
			lreq, rok := req.(*mcp.ListToolsRequest)
			if !ok || !rok || list == nil || declaresForms(lreq) {
				return res, err
			}
			out := *list // the SDK's result is not changed: a copy without the hidden tools
			out.Tools = slices.DeleteFunc(slices.Clone(list.Tools), func(t *mcp.Tool) bool {
				return t != nil && slices.Contains(hidden, t.Name)
			})
			return &out, nil
		}
	})
}

// declaresForms reports whether the client of req declared form
// elicitation: in the request's _meta, else (go-sdk's ClientCapabilities)
// in its session's initialize.
func declaresForms(req *mcp.ListToolsRequest) bool {
	var caps protocol.Capabilities
	var ok bool
	if v := reflect.ValueOf(req.Params); v.Kind() == reflect.Pointer && !v.IsNil() {
		caps, ok = metaCapabilities(req.Params.GetMeta())
	}
	if !ok {
		caps = capabilities(req.ClientCapabilities())
	}
	return caps.FormElicitation
}
