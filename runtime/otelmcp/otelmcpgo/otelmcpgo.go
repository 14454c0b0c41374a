// Package otelmcpgo traces and measures mcpgen flows served by
// runtime/mcpgo (github.com/mark3labs/mcp-go) with package
// runtime/otelmcp: the same spans, attributes and metrics as on go-sdk,
// for tools/call, the one method mcp-go v1.2.1 lets middleware wrap
// (server.WithToolHandlerMiddleware). Other methods (initialize,
// tools/list) get no span. mcp-go gives a tool handler no JSON-RPC id, so
// spans have no jsonrpc.request.id; and it answers every error a handler
// returns with -32603 (see runtime/mcpgo), so a rejected requestState's span
// has error.type "-32603", its mcpgen.refusal.reason saying why.
package otelmcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Instrument sets o's hooks ([otelmcp.Telemetry.Hooks]; for runtime/mcpgo,
// &mcpgo.Options.Flow) and returns the server option that adds the tool
// middleware ([Middleware]): pass it to server.NewMCPServer. cfg chooses
// the providers (nil: the global ones).
func Instrument(o *runtime.Options, cfg *otelmcp.Config) server.ServerOption {
	t := otelmcp.New(cfg)
	t.Hooks(o)
	return server.WithToolHandlerMiddleware(Middleware(t, o))
}

// Middleware returns mcp-go tool middleware that gives every tools/call its
// SERVER span and its mcp.server.operation.duration through t. o, when not
// nil, opens a retry's requestState for the previous round's span context.
func Middleware(t *otelmcp.Telemetry, o *runtime.Options) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			c := otelmcp.Call{Method: "tools/call", Tool: req.Params.Name, RequestState: req.Params.RequestState,
				ProtocolVersion: server.RequestProtocolVersion(ctx)}
			if m := req.Params.Meta; m != nil {
				c.Meta = m.AdditionalFields
			}
			if s := server.ClientSessionFromContext(ctx); s != nil {
				c.SessionID = s.SessionID()
			}
			ctx, span := t.Start(ctx, &c, o)
			res, err := next(ctx, req)
			var code int64
			if err != nil {
				code = protocol.CodeInternalError // what mcp-go answers every handler error with
			}
			span.End(ctx, code, err == nil && res != nil && res.IsError)
			return res, err
		}
	}
}
