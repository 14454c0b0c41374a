package otelmcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
)

// Instrument traces and measures s, a go-sdk server whose flows run with o
// (for runtime/mcpsdk, &mcpsdk.Options.Flow): it sets o's hooks
// ([Telemetry.Hooks]) and adds the receiving middleware
// ([Telemetry.Middleware]) to s. cfg chooses the providers (nil: the global
// ones). Call it before s serves; it returns the telemetry, whose Store
// times other stores.
func Instrument(s *mcp.Server, o *runtime.Options, cfg *Config) *Telemetry {
	t := New(cfg)
	t.Hooks(o)
	s.AddReceivingMiddleware(t.Middleware(o))
	return t
}

// Middleware returns go-sdk receiving middleware that gives every request s
// receives its SERVER span and its mcp.server.operation.duration (see the
// package comment). o, when not nil, opens a retry's requestState for the
// previous round's span context. go-sdk v1.8.0 does not give middleware a
// request's JSON-RPC id, so its spans have no jsonrpc.request.id.
func (t *Telemetry) Middleware(o *runtime.Options) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			c := Call{Method: method}
			describe(&c, req)
			ctx, span := t.Start(ctx, &c, o)
			res, err := next(ctx, method, req)
			var code int64
			var je *jsonrpc.Error
			switch {
			case errors.As(err, &je):
				code = je.Code
			case err != nil:
				code = jsonrpc.CodeInternalError // go-sdk answers other errors so
			}
			if je != nil && unknownTarget(&c, je) {
				span.untargeted(method)
			}
			tr, _ := res.(*mcp.CallToolResult)
			span.End(ctx, code, tr != nil && tr.IsError)
			return res, err
		}
	}
}

// unknownTarget reports whether je is go-sdk's answer to a tools/call or
// prompts/get naming a tool or prompt the server does not have (v1.8.0,
// Server.callTool and Server.getPrompt): that name is whatever the client
// sent, so it must not become a span's name or a metric's label.
func unknownTarget(c *Call, je *jsonrpc.Error) bool {
	if je.Code != jsonrpc.CodeInvalidParams {
		return false
	}
	switch {
	case c.Tool != "":
		return je.Message == fmt.Sprintf("unknown tool %q", c.Tool)
	case c.Prompt != "":
		return je.Message == fmt.Sprintf("unknown prompt %q", c.Prompt)
	}
	return false
}

// describe fills c with what go-sdk's req says of itself: the target, the
// requestState, _meta, the protocol version and the session.
func describe(c *Call, req mcp.Request) {
	params := req.GetParams()
	if v := reflect.ValueOf(params); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		params = nil
	}
	switch p := params.(type) {
	case *mcp.CallToolParamsRaw:
		c.Tool, c.RequestState = p.Name, p.RequestState
	case *mcp.CallToolParams:
		c.Tool, c.RequestState = p.Name, p.RequestState
	case *mcp.GetPromptParams:
		c.Prompt, c.RequestState = p.Name, p.RequestState
	}
	if params != nil {
		c.Meta = params.GetMeta()
		c.ProtocolVersion, _ = c.Meta[mcp.MetaKeyProtocolVersion].(string)
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		c.SessionID = ss.ID()
		if c.ProtocolVersion == "" {
			if ip := ss.InitializeParams(); ip != nil {
				c.ProtocolVersion = ip.ProtocolVersion
			}
		}
	}
}
