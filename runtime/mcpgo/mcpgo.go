// Package mcpgo registers mcpgen flows on github.com/mark3labs/mcp-go
// (v1.2.1, which speaks MCP 2026-07-28 with multi round-trip requests,
// SEP-2322) and serves them over stateless Streamable HTTP ([NewHTTPHandler]);
// over stdio, serve the server with mcp-go's own server.ServeStdio. The same
// generated tools as runtime/mcpsdk, on the other Go SDK.
//
// It translates between mcp-go's requests and results and protocol.Request and
// runtime.Response; the flow itself lives in package runtime. mcp-go builds
// the input-required result (server.NewInputRequestBuilder), reads the
// retry's answers (server.ElicitationResponse); a client before 2026-07-28
// on a stateful session (stdio) is asked every round of a call within the
// call, through server-initiated elicitation/create requests
// (runtime.Converse).
//
// One difference from runtime/mcpsdk: mcp-go v1.2.1 turns every error a tool
// handler returns into JSON-RPC -32603 (internal error), with the error's
// text as the message. A rejected requestState (the flow's -32602) or a
// missing capability under runtime.ProtocolErrorOnMissingCapability (-32021)
// therefore reaches the client as a -32603 error whose message carries the
// intended code, e.g. "invalid requestState: … (JSON-RPC -32602)". No branch
// runs and the rejection hook is called either way.
package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Options configure how flows run on an mcp-go server.
type Options struct {
	// Flow holds the runtime options: key ring (required), TTL, round limit,
	// rejection hook.
	Flow runtime.Options
	// Principal returns the authenticated caller of a request, bound into the
	// requestState so that a state cannot be replayed by someone else
	// (MCP 2026-07-28, basic/patterns/mrtr: requestState comes back through
	// the client and must be verified before it is trusted). mcp-go has no token model of its own: put the caller into
	// the context in your authentication middleware (for HTTP, with
	// server.WithHTTPContextFunc) and read it here. The default returns ""
	// (anonymous: states are bound to no one).
	Principal func(ctx context.Context, req mcp.CallToolRequest) string
}

// AddTool registers flow as a tool on s: its name, description and input
// schema are flow.Name(), flow.Description() and flow.InputSchema()
// ([runtime.Flow.InputSchema]: elicitable fields optional), and its handler
// runs flow.Call for each tools/call and retry. It panics when opts has no
// key ring, or when the input schema does not encode. It is [Tool] and
// s.AddTool.
func AddTool(s *server.MCPServer, flow *runtime.Flow, opts *Options) {
	t := tool("AddTool", flow, opts)
	s.AddTool(t.Tool, t.Handler)
}

// AddTools registers every flow of flows on s, as [AddTool] registers one:
// for a package's tools, the generated Flows function's result
// (mcpgo.AddTools(s, Flows(Handlers{}), opts)). It panics, before
// registering any, when opts has no key ring, when a flow is nil, or when
// two flows have one name (a server keeps one tool per name, so the second
// would silently replace the first).
func AddTools(s *server.MCPServer, flows []*runtime.Flow, opts *Options) {
	tools := make([]server.ServerTool, 0, len(flows))
	seen := make(map[string]int, len(flows))
	for i, f := range flows {
		if f == nil {
			panic(fmt.Sprintf("mcpgo.AddTools: flows[%d] is nil", i))
		}
		if j, ok := seen[f.Name()]; ok {
			panic(fmt.Sprintf("mcpgo.AddTools: flows[%d] and flows[%d] are both the tool %q; a server keeps one tool per name", j, i, f.Name()))
		}
		seen[f.Name()] = i
		tools = append(tools, tool("AddTools", f, opts))
	}
	s.AddTools(tools...)
}

// Tool returns flow as an mcp-go tool with its handler, for a server that
// registers tools through its own inventory and middleware (a toolset, a
// read-only gate) instead of [AddTool]: its name, description and input
// schema are flow.Name(), flow.Description() and flow.InputSchema(), and
// the handler runs flow.Call for each tools/call and retry, as AddTool's
// does. Hand it to s.AddTools (mcp-go's), or its Tool and Handler to
// s.AddTool, wrapped in your own handler if you like. mcp-go needs no
// server-wide setup for it. It panics when opts has no key ring, or when
// the input schema does not encode.
func Tool(flow *runtime.Flow, opts *Options) server.ServerTool {
	return tool("Tool", flow, opts)
}

// tool is [Tool], its panics naming fn, the function called.
func tool(fn string, flow *runtime.Flow, opts *Options) server.ServerTool {
	if flow == nil {
		panic("mcpgo." + fn + ": the flow is nil")
	}
	if opts == nil || opts.Flow.Keys == nil {
		panic(fmt.Sprintf("mcpgo.%s %q: Options.Flow.Keys is required", fn, flow.Name()))
	}
	schema, err := json.Marshal(flow.InputSchema())
	if err != nil {
		panic(fmt.Sprintf("mcpgo.%s %q: input schema: %v", fn, flow.Name(), err))
	}
	t := mcp.NewToolWithRawSchema(flow.Name(), flow.Description(), schema)
	return server.ServerTool{Tool: t, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rreq, err := request(ctx, opts, req)
		if err != nil {
			return nil, err
		}
		resp, err := flow.Call(ctx, &opts.Flow, rreq)
		var pe *protocol.Error
		if err != nil && !errors.As(err, &pe) {
			// A branch's error is a tool error result the model can read (and
			// what the at-most-once store records for a replay), not a
			// JSON-RPC error.
			return toolResult(&runtime.Result{Text: err.Error(), IsError: true}), nil
		}
		if err != nil {
			return nil, err
		}
		if resp.Result == nil {
			b := server.NewInputRequestBuilder(resp.RequestState)
			for key, ir := range resp.InputRequests {
				if er, ok := ir.(*protocol.ElicitRequest); ok {
					b.Elicit(key, elicitationParams(er))
				}
			}
			return b.ToolResult(), nil
		}
		return toolResult(resp.Result), nil
	}}
}

func request(ctx context.Context, opts *Options, req mcp.CallToolRequest) (*protocol.Request, error) {
	args := req.Params.RawArguments
	if len(args) == 0 && req.Params.Arguments != nil {
		b, err := json.Marshal(req.Params.Arguments)
		if err != nil {
			return nil, &protocol.Error{Code: protocol.CodeInvalidParams, Message: "arguments do not encode: " + err.Error()}
		}
		args = b
	}
	r := &protocol.Request{
		Method:          "tools/call",
		Arguments:       args,
		RequestState:    req.Params.RequestState,
		ProtocolVersion: server.RequestProtocolVersion(ctx),
		ClientAddress:   httpserve.ClientFrom(req.Header),
	}
	if opts.Principal != nil {
		r.Principal = opts.Principal(ctx, req)
	}
	if v := r.ProtocolVersion; v != "" && v < protocol.VersionMRTR {
		if srv, session := server.ServerFromContext(ctx), server.ClientSessionFromContext(ctx); srv != nil && session != nil {
			// A URL-mode step completes out of band: a session's client
			// learns it from notifications/elicitation/complete (MCP
			// 2025-11-25, client/elicitation).
			r.NotifyElicitationComplete = func(ctx context.Context, id string) error {
				return srv.SendElicitationComplete(ctx, session, id)
			}
			if _, ok := session.(server.SessionWithElicitation); ok {
				// Every round of the call is asked on the session, within
				// the call (MCP 2025-11-25, client/elicitation;
				// runtime.Converse).
				r.Send = func(ctx context.Context, ir protocol.InputRequest) (protocol.InputResponse, error) {
					return send(ctx, srv, session, ir)
				}
			}
		}
	}
	if caps := clientCapabilities(ctx); caps != nil && caps.Elicitation != nil {
		// {"elicitation":{}} means form; {"elicitation":{"url":{}}} alone does not.
		r.FormElicitation = caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
		r.URLElicitation = caps.Elicitation.URL != nil
	}
	if len(req.Params.InputResponses) > 0 {
		r.InputResponses = make(map[string]protocol.InputResponse, len(req.Params.InputResponses))
		for key := range req.Params.InputResponses {
			// Every input request the flow sends is an elicitation; an answer
			// that does not decode as one is passed as nil (-32602 in the flow).
			var ir protocol.InputResponse
			if er := server.ElicitationResponse(req.Params.InputResponses, key); er != nil {
				content, _ := er.Content.(map[string]any)
				ir = &protocol.ElicitResult{Action: protocol.Action(er.Action), Content: content}
			}
			r.InputResponses[key] = ir
		}
	}
	return r, nil
}

// send sends the elicitation/create request ir to the client of session on
// the open call and returns its answer ([protocol.Request.Send]); mcp-go
// sends no other kind of request for a flow.
func send(ctx context.Context, srv *server.MCPServer, session server.ClientSession, ir protocol.InputRequest) (protocol.InputResponse, error) {
	er, ok := ir.(*protocol.ElicitRequest)
	if !ok {
		return nil, fmt.Errorf("mcpgen: cannot send a %s request on an mcp-go session", ir.Method())
	}
	var res *mcp.ElicitationResult
	var err error
	if er.Mode == "url" {
		res, err = srv.RequestURLElicitation(ctx, session, er.ElicitationID, er.URL, er.Message)
	} else {
		res, err = srv.RequestElicitation(ctx, mcp.ElicitationRequest{
			Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
			Params:  elicitationParams(er),
		})
	}
	if err != nil {
		return nil, err
	}
	content, _ := res.Content.(map[string]any)
	return &protocol.ElicitResult{Action: protocol.Action(res.Action), Content: content}, nil
}

// elicitationParams is mcp-go's form of an elicitation/create request.
func elicitationParams(er *protocol.ElicitRequest) mcp.ElicitationParams {
	var schema any = er.RequestedSchema
	if er.RequestedSchemaJSON != nil {
		schema = json.RawMessage(er.RequestedSchemaJSON)
	}
	return mcp.ElicitationParams{Mode: er.Mode, Message: er.Message, RequestedSchema: schema, URL: er.URL, ElicitationID: er.ElicitationID}
}

// clientCapabilities returns the capabilities the request declared
// (2026-07-28: per request, in _meta) or, for an older client, those of its
// session's initialize.
func clientCapabilities(ctx context.Context) *mcp.ClientCapabilities {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
		return info.ClientCapabilities
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		caps := s.GetClientCapabilities()
		return &caps
	}
	return nil
}

func toolResult(r *runtime.Result) *mcp.CallToolResult {
	if native, ok := r.Native.(*mcp.CallToolResult); ok {
		return native
	}
	if raw, ok := r.Native.(json.RawMessage); ok {
		// A replayed result: runtime.Store keeps it as JSON.
		if native, err := mcp.ParseCallToolResult(&raw); err == nil {
			return native
		}
	}
	res := mcp.NewToolResultText(r.Text)
	res.StructuredContent = r.Structured
	res.IsError = r.IsError
	return res
}

// HTTPOptions configure [NewHTTPHandler].
type HTTPOptions struct {
	// AllowedOrigins lists the origins ("scheme://host[:port]", as a browser
	// sends them in the Origin header) allowed besides the request's own
	// host. A request whose Origin is neither the request's Host nor listed
	// is refused with HTTP 403 before anything else (MCP 2025-11-25,
	// basic/transports, Streamable HTTP: servers MUST validate Origin; it
	// guards local servers against DNS rebinding). A request without Origin
	// (every non-browser client) is allowed. "*" allows every origin.
	// NewHTTPHandler panics, naming the entry, on one that is not an origin.
	AllowedOrigins []string
	// StreamableHTTP are passed to server.NewStreamableHTTPServer after
	// server.WithStateLess(true), e.g. server.WithHTTPContextFunc to carry
	// the caller's identity into the context for [Options].Principal.
	StreamableHTTP []server.StreamableHTTPOption
}

// NewHTTPHandler returns a stateless Streamable HTTP handler for s, with
// the options of opts (nil: the defaults: no foreign origin): no session
// ids, each request stands alone, so any instance behind a load balancer
// can answer any retry (MCP 2026-07-28, basic/patterns/mrtr). It is the one
// way to serve an mcp-go server's tools over HTTP with mcpgen: mount it on
// an http.Server of yours (give that server header, idle and body bounds:
// the handler bounds each request's body itself, within 30 seconds of its
// headers), wrapped in your middleware if you like. A request whose Origin
// header names another host is refused with HTTP 403 (see
// [HTTPOptions].AllowedOrigins).
func NewHTTPHandler(s *server.MCPServer, opts *HTTPOptions) http.Handler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	h := server.NewStreamableHTTPServer(s, append([]server.StreamableHTTPOption{server.WithStateLess(true)}, o.StreamableHTTP...)...)
	guard := httpserve.NewOriginGuard("mcpgo.HTTPOptions.AllowedOrigins", o.AllowedOrigins)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if guard.Allow(w, r) {
			httpserve.BodyDeadline(w, r)
			httpserve.MarkClient(r)
			h.ServeHTTP(w, r)
		}
	})
}
