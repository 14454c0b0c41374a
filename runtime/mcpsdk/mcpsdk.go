// Package mcpsdk registers mcpgen flows on the official Go SDK,
// github.com/modelcontextprotocol/go-sdk (v1.8.0, MCP 2026-07-28), and serves
// them over Streamable HTTP (stateless for 2026-07-28, with sessions for older
// clients) or stdio.
//
// One way to serve each transport: over HTTP, [NewHTTPHandler] builds the
// endpoint and [Serve] serves it (alone at /mcp, or on your mux with your
// middleware and routes); over stdio, [ServeStdio].
//
// It translates between the SDK's requests and results and protocol.Request
// and runtime.Response; the flow itself lives in package runtime.
package mcpsdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Options configure how flows run on a go-sdk server.
type Options struct {
	// Flow holds the runtime options: key ring (required), TTL, round limit,
	// rejection hook.
	Flow runtime.Options
	// Principal returns the authenticated caller of a request, bound into the
	// requestState so that a state cannot be replayed by someone else
	// (MCP 2026-07-28, basic/patterns/mrtr: requestState comes back through
	// the client and must be verified before it is trusted). The default is the bearer token's user id
	// (RequestExtra.TokenInfo.UserID), or "" when unauthenticated.
	//
	// An authenticated request (go-sdk's auth middleware set
	// RequestExtra.TokenInfo) whose principal comes out "" is refused with
	// JSON-RPC -32603 and runs nothing: "" is the anonymous caller, shared by
	// everyone, so every user of such tokens could resume every other
	// user's calls. Set TokenInfo.UserID in the token verifier, or set
	// Principal.
	Principal func(ctx context.Context, extra *mcp.RequestExtra) string
}

// DefaultPrincipal returns extra.TokenInfo.UserID, or "" (anonymous: no
// TokenInfo; an authenticated request whose UserID is empty is refused, see
// [Options].Principal).
func DefaultPrincipal(_ context.Context, extra *mcp.RequestExtra) string {
	if extra == nil || extra.TokenInfo == nil {
		return ""
	}
	return extra.TokenInfo.UserID
}

// requireKeys panics, naming the registering function fn and what it
// registers, when opts has no key ring: every registration seals state.
func requireKeys(fn, name string, opts *Options) {
	if opts == nil || opts.Flow.Keys == nil {
		panic(fmt.Sprintf("mcpsdk.%s %q: Options.Flow.Keys is required", fn, name))
	}
}

// AddTool registers flow as a tool on s: its name, description and input
// schema are flow.Name(), flow.Description() and flow.InputSchema()
// ([runtime.Flow.InputSchema]: elicitable fields optional), and its handler
// runs flow.Call for each tools/call and retry. It panics, like the SDK's own
// AddTool, when opts has no key ring. It is [Tool] and s.AddTool, with
// [Install] on s.
func AddTool(s *mcp.Server, flow *runtime.Flow, opts *Options) {
	install(s)
	s.AddTool(tool("AddTool", flow, opts))
}

// AddTools registers every flow of flows on s, as [AddTool] registers one:
// for a package's tools, the generated Flows function's result
// (mcpsdk.AddTools(s, Flows(Handlers{}), opts)). It panics, before
// registering any, when opts has no key ring, when a flow is nil, or when
// two flows have one name (a server keeps one tool per name, so the second
// would silently replace the first).
func AddTools(s *mcp.Server, flows []*runtime.Flow, opts *Options) {
	checkFlows("mcpsdk.AddTools", flows)
	if len(flows) > 0 {
		requireKeys("AddTools", flows[0].Name(), opts)
	}
	install(s)
	for _, flow := range flows {
		s.AddTool(tool("AddTools", flow, opts))
	}
}

// checkFlows panics, naming fn, when flows holds a nil flow or two flows of
// one name.
func checkFlows(fn string, flows []*runtime.Flow) {
	seen := make(map[string]int, len(flows))
	for i, f := range flows {
		if f == nil {
			panic(fmt.Sprintf("%s: flows[%d] is nil", fn, i))
		}
		if j, ok := seen[f.Name()]; ok {
			panic(fmt.Sprintf("%s: flows[%d] and flows[%d] are both the tool %q; a server keeps one tool per name", fn, j, i, f.Name()))
		}
		seen[f.Name()] = i
	}
}

// Tool returns flow as a go-sdk tool and its handler, for a server that
// registers tools through its own inventory and middleware (a toolset, a
// read-only gate) instead of [AddTool]: its name, description and input
// schema are flow.Name(), flow.Description() and flow.InputSchema(), and the
// handler runs flow.Call for each tools/call and retry, as AddTool's does.
// Hand both to s.AddTool (go-sdk's), wrapped in your own handler if you like;
// the handler may be registered on several servers.
//
// The handler needs the middleware [Install] adds to the *mcp.Server that
// serves it (input-required results without "content": null, a session
// client's answers judged by the flow). [AddTool], [AddTools],
// [NewHTTPHandler] and [ServeStdio] install it on their server, so a server
// served through this package has it; a server served otherwise (go-sdk's
// own mcp.NewStreamableHTTPHandler, a transport of yours) must call Install
// once. A call that reaches the handler on a server without it is answered
// with JSON-RPC error -32603 naming Install, and runs nothing. Tool panics
// when opts has no key ring.
func Tool(flow *runtime.Flow, opts *Options) (*mcp.Tool, mcp.ToolHandler) {
	return tool("Tool", flow, opts)
}

// tool is [Tool], its panics naming fn, the function called.
func tool(fn string, flow *runtime.Flow, opts *Options) (*mcp.Tool, mcp.ToolHandler) {
	if flow == nil {
		panic("mcpsdk." + fn + ": the flow is nil")
	}
	requireKeys(fn, flow.Name(), opts)
	// The input schema is handed over as its JSON: go-sdk re-encodes a
	// tool's input schema on every tools/call (to find x-mcp-header
	// annotations), and encoding invopop's *jsonschema.Schema each time was
	// the largest cost mcpgen added to a call (bench/, BenchmarkRoundTrip).
	schema, err := json.Marshal(flow.InputSchema())
	if err != nil {
		panic(fmt.Sprintf("mcpsdk.%s %q: encoding the input schema: %v", fn, flow.Name(), err))
	}
	t := &mcp.Tool{Name: flow.Name(), Description: flow.Description(), InputSchema: json.RawMessage(schema)}
	return t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if !installedOn(ctx) {
			return nil, notInstalled(flow.Name())
		}
		rreq, err := request(ctx, opts, "tools/call", req, req.Params.Arguments, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		resp, err := flow.Call(ctx, &opts.Flow, rreq)
		if err != nil {
			return toolErrorResult(err)
		}
		return callToolResponse(resp), nil
	}
}

// toolErrorResult answers a tools/call whose flow or handler failed: a
// *protocol.Error (or an SDK *jsonrpc.Error) is a JSON-RPC error;
// any other error — one a branch returned — is a tool error result the model
// can read (MCP 2026-07-28, server/tools: tool execution errors are reported
// in the result with isError), which is also what the at-most-once store
// records and a replay of the call gets back. go-sdk would otherwise send a
// raw handler's error as a JSON-RPC error.
func toolErrorResult(err error) (*mcp.CallToolResult, error) {
	var pe *protocol.Error
	var je *jsonrpc.Error
	var u *unanswered
	switch {
	case errors.As(err, &pe) || errors.As(err, &je):
		return nil, protocolError(err)
	case errors.As(err, &u):
		// A question on a session whose answer will not come: its own
		// words say what happened.
		err = u
	}
	return toolResult(&runtime.Result{Text: err.Error(), IsError: true}), nil
}

// send sends ir to the client of session ss as a server-to-client request
// on the open call and returns its answer ([protocol.Request.Send]): an
// elicitation/create through ServerSession.Elicit, its answer as the client
// sent it (see keepAnswers: the flow judges it by its own rules, as on
// 2026-07-28; an answer the client refused itself, sending go-sdk's
// reason, is an accepted answer with Refused set, asked again with it);
// sampling/createMessage and roots/list through their ServerSession
// methods. A JSON-RPC error the client answered with becomes a plain error,
// so that its code is never taken for the server's own.
func send(ctx context.Context, ss *mcp.ServerSession, ir protocol.InputRequest) (protocol.InputResponse, error) {
	switch x := ir.(type) {
	case *protocol.ElicitRequest:
		raw := &rawAnswer{}
		res, err := ss.Elicit(context.WithValue(ctx, rawAnswerKey{}, raw), elicitParams(x))
		switch {
		case raw.res != nil:
			return inputResponse(raw.res), nil
		case err == nil:
			return inputResponse(res), nil
		}
		if _, why, ok := strings.Cut(err.Error(), schemaMismatch); ok {
			// The client refused its own answer (go-sdk's client checks it
			// too) and sent an error instead: the answer is not known.
			if missingAll(why, x) {
				// Nothing of what the form requires: the flow takes it as
				// the empty accept it was.
				return &protocol.ElicitResult{Action: protocol.Accept, Content: map[string]any{}}, nil
			}
			return &protocol.ElicitResult{Action: protocol.Accept, Refused: refusedReason(why)}, nil
		}
		return nil, clientError(err)
	}
	return sendDeprecated(ctx, ss, ir)
}

// missingAll reports whether why, go-sdk's reason for refusing an answer,
// is that it lacks every field the form x requires ("validating root:
// required: missing properties: ["a" "b"]", the names as %q writes them).
func missingAll(why string, x *protocol.ElicitRequest) bool {
	_, list, ok := strings.Cut(why, "required: missing properties: ")
	if !ok || x.RequestedSchema == nil || len(x.RequestedSchema.Required) == 0 {
		return false
	}
	// go-sdk writes the list with %q: ["a" "b"].
	list = strings.TrimSpace(list)
	list, _ = strings.CutPrefix(list, "[")
	list, _ = strings.CutSuffix(list, "]")
	var missing []string
	for _, w := range strings.Fields(list) {
		if name, err := strconv.Unquote(w); err == nil {
			missing = append(missing, name)
		}
	}
	for _, name := range x.RequestedSchema.Required {
		if !slices.Contains(missing, name) {
			return false
		}
	}
	return true
}

// clientError returns err without the JSON-RPC error the client answered
// with inside it (its text kept): a client's code is not the server's.
func clientError(err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return errors.New(err.Error())
	}
	return err
}

// request translates an SDK request into the flow's. Its error, a
// *jsonrpc.Error -32603, refuses an authenticated request without a
// principal (see Options.Principal).
func request[P mcp.Params](ctx context.Context, opts *Options, method string, req *mcp.ServerRequest[P], args json.RawMessage,
	responses mcp.InputResponseMap, state string) (*protocol.Request, error) {
	principal := opts.Principal
	if principal == nil {
		principal = DefaultPrincipal
	}
	r := &protocol.Request{
		Method:          method,
		Arguments:       args,
		RequestState:    state,
		ProtocolVersion: req.ProtocolVersion(),
		Principal:       principal(ctx, req.Extra),
	}
	if req.Extra != nil {
		r.ClientAddress = httpserve.ClientFrom(req.Extra.Header)
	}
	if r.Principal == "" && req.Extra != nil && req.Extra.TokenInfo != nil {
		return nil, &jsonrpc.Error{Code: protocol.CodeInternalError, Message: "mcpgen: this request is authenticated (a bearer token), " +
			"but it has no principal (TokenInfo.UserID is empty), so its requestState could be resumed by any other user: " +
			"set UserID in the token verifier, or set mcpsdk.Options.Principal"}
	}
	if v := r.ProtocolVersion; v != "" && v < protocol.VersionMRTR && req.Session != nil {
		ss := req.Session
		// A URL-mode step completes out of band: a session's client learns
		// it from notifications/elicitation/complete (MCP 2025-11-25,
		// client/elicitation).
		r.NotifyElicitationComplete = func(ctx context.Context, id string) error {
			return ss.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id})
		}
		if p := req.Session.InitializeParams(); p != nil && p.Capabilities != nil {
			// A session: every round of the call goes down the call's own
			// stream (MCP 2025-11-25, basic/transports).
			r.Send = func(ctx context.Context, ir protocol.InputRequest) (protocol.InputResponse, error) {
				return send(ctx, ss, ir)
			}
		} else {
			// go-sdk's stateless transport stands in an initialize without
			// capabilities: this client's own initialize was not kept.
			r.Unaskable = "this protocol " + v + " client reached the server over stateless HTTP, which keeps no session: " +
				"the server does not know what it declared at initialize and cannot send it elicitation/create " +
				"(serve it with mcpsdk.NewHTTPHandler and a MaxSessions that is not negative: it keeps sessions for such clients; " +
				"or connect with protocol " + protocol.VersionMRTR + ")"
		}
	}
	// ClientCapabilities decodes the request's _meta on each access: the
	// flow asks for it only when it needs it, and only once.
	r.LoadCapabilities = func() protocol.Capabilities {
		if v := reflect.ValueOf(req.Params); v.Kind() == reflect.Pointer && !v.IsNil() {
			if c, ok := metaCapabilities(req.Params.GetMeta()); ok {
				return c
			}
		}
		return capabilities(req.ClientCapabilities())
	}
	if len(responses) > 0 {
		r.InputResponses = make(map[string]protocol.InputResponse, len(responses))
		for k, v := range responses {
			r.InputResponses[k] = inputResponse(v)
		}
	}
	return r, nil
}

func inputResponse(v mcp.InputResponse) protocol.InputResponse {
	switch x := v.(type) {
	case *mcp.ElicitResult:
		if x == nil {
			return nil
		}
		return &protocol.ElicitResult{Action: protocol.Action(x.Action), Content: x.Content}
	}
	return deprecatedInputResponse(v)
}

func inputRequests(resp *runtime.Response) mcp.InputRequestMap {
	m := make(mcp.InputRequestMap, len(resp.InputRequests))
	for k, ir := range resp.InputRequests {
		switch x := ir.(type) {
		case *protocol.ElicitRequest:
			m[k] = elicitParams(x)
		default:
			if r := deprecatedInputRequest(ir); r != nil {
				m[k] = r
			}
		}
	}
	return m
}

func toolResult(r *runtime.Result) *mcp.CallToolResult {
	if native, ok := nativeResult[mcp.CallToolResult](r.Native); ok {
		return native
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: r.Text}},
		StructuredContent: r.Structured,
		IsError:           r.IsError,
	}
}

// nativeResult returns a Result.Native of type *T: as it is, or decoded
// from the json.RawMessage a replayed response carries (runtime.Store keeps
// a flow's final result as JSON). It reports false for anything else.
func nativeResult[T any](v any) (*T, bool) {
	switch x := v.(type) {
	case *T:
		return x, x != nil
	case json.RawMessage:
		var t T
		if json.Unmarshal(x, &t) == nil {
			return &t, true
		}
	}
	return nil, false
}

// protocolError maps a *protocol.Error to the SDK's *jsonrpc.Error so
// that the client receives a JSON-RPC error; other errors pass through (go-sdk
// sends a raw handler's error as a JSON-RPC error too; tools use
// toolErrorResult instead).
func protocolError(err error) error {
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		return err
	}
	je := &jsonrpc.Error{Code: pe.Code, Message: pe.Message}
	if pe.Data != nil {
		if b, merr := json.Marshal(pe.Data); merr == nil {
			je.Data = b
		}
	}
	return je
}

// Serve serves routes on addr until ctx is done, then shuts down
// gracefully: it closes h's sessions of older clients (ending their open
// streams) and gives open requests 5 seconds. h is the endpoint, built by
// [NewHTTPHandler]; routes is the whole server: nil serves h alone at /mcp,
// and an http.ServeMux of yours serves h where you mounted it (behind your
// middleware, such as go-sdk's auth.RequireBearerToken, whose
// TokenInfo.UserID then becomes each request's principal,
// [DefaultPrincipal]) with your own routes beside it (a URL-mode page, a
// sign-in, a health check), every one of them under the bounds below:
//
//	h := mcpsdk.NewHTTPHandler(s, nil)
//	mux := http.NewServeMux()
//	mux.Handle("/mcp", auth(h))
//	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
//	err := mcpsdk.Serve(ctx, "127.0.0.1:8080", h, mux, nil)
//
// If ready is non-nil it receives the bound address (useful with port 0).
// It returns the listen or serve error, or the shutdown error when requests
// were still open after the grace period; nil after a clean shutdown.
//
// Connections are bounded by default: headers must arrive within 10 s
// (ReadHeaderTimeout) and fit in 64 KiB (MaxHeaderBytes), a keep-alive
// connection idle for 2 minutes is closed (IdleTimeout), and every
// request's body must arrive within 30 s of its headers, else the
// connection is closed. The body deadline is set per request and lifted
// once the body is read, so the long response streams of older clients'
// sessions are never cut (there is no WriteTimeout). Pass srv (at most one)
// to run your own *http.Server instead, with its timeouts and limits; its
// Handler is replaced, and the 30 s body deadline still applies. A
// ReadTimeout or WriteTimeout on it cuts older clients' streams.
func Serve(ctx context.Context, addr string, h *Handler, routes http.Handler, ready func(net.Addr), srv ...*http.Server) error {
	if routes == nil {
		routes = httpserve.At(h)
	}
	var own *http.Server
	if len(srv) > 0 {
		own = srv[0]
	}
	return httpserve.Serve(ctx, addr, routes, own, ready, h.CloseSessions)
}

// ServeStdio serves s over stdin/stdout until the client disconnects or ctx
// is done, with the middleware of [Install] on s. A stdio session is stateful, so a client of 2025-11-25 or
// earlier is asked every round of a call on it, within the call (see
// runtime.Converse).
func ServeStdio(ctx context.Context, s *mcp.Server) error {
	install(s)
	return s.Run(ctx, &mcp.StdioTransport{})
}

// elicitParams is the SDK's form of an elicitation/create request: a form's
// requestedSchema, or a URL-mode request's URL (MCP 2026-07-28,
// client/elicitation).
func elicitParams(x *protocol.ElicitRequest) *mcp.ElicitParams {
	if x.Mode == "url" {
		return &mcp.ElicitParams{Mode: x.Mode, Message: x.Message, URL: x.URL, ElicitationID: x.ElicitationID}
	}
	if x.RequestedSchemaJSON != nil {
		return &mcp.ElicitParams{Mode: x.Mode, Message: x.Message, RequestedSchema: json.RawMessage(x.RequestedSchemaJSON)}
	}
	return &mcp.ElicitParams{Mode: x.Mode, Message: x.Message, RequestedSchema: x.RequestedSchema}
}

// metaCapabilities reads the capabilities a 2026-07-28 request declares in
// its _meta straight from the decoded map, as go-sdk's
// ServerRequest.ClientCapabilities would decode them: that re-encodes the
// value and decodes it again through a decoder that allocates 32 KiB, on
// every request that asks. It reports false, for the SDK to decide, unless
// the value is a JSON object whose members the SDK's types decode without
// error (their names matched exactly, as the SDK's decoder does; other
// members are ignored by both): experimental and extensions objects; roots
// an object whose listChanged is a boolean; sampling an object whose context
// and tools are objects; elicitation an object whose form and url are
// objects; each of them possibly null.
func metaCapabilities(meta map[string]any) (protocol.Capabilities, bool) {
	var c protocol.Capabilities
	caps, ok := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	if !ok {
		return c, false
	}
	object := func(v any) (map[string]any, bool) { // nil for null
		if v == nil {
			return nil, true
		}
		m, ok := v.(map[string]any)
		return m, ok
	}
	objects := func(m map[string]any, names ...string) bool {
		for _, n := range names {
			if _, ok := object(m[n]); !ok {
				return false
			}
		}
		return true
	}
	if !objects(caps, "experimental", "extensions") {
		return c, false
	}
	roots, ok := object(caps["roots"])
	if !ok {
		return c, false
	}
	if roots != nil {
		if lc, present := roots["listChanged"]; present && lc != nil {
			if _, ok := lc.(bool); !ok {
				return c, false
			}
		}
		c.Roots = true
	}
	sampling, ok := object(caps["sampling"])
	if !ok || sampling != nil && !objects(sampling, "context", "tools") {
		return c, false
	}
	c.Sampling = sampling != nil
	elicitation, ok := object(caps["elicitation"])
	if !ok {
		return c, false
	}
	if elicitation != nil {
		form, fok := object(elicitation["form"])
		url, uok := object(elicitation["url"])
		if !fok || !uok {
			return c, false
		}
		// {"elicitation":{}} means form; {"elicitation":{"url":{}}} alone does not.
		c.FormElicitation = form != nil || url == nil
		c.URLElicitation = url != nil
	}
	return c, true
}

// capabilities is the flow's view of what go-sdk decoded of the client's
// capabilities (none when caps is nil): {"elicitation":{}} means form, and
// {"elicitation":{"url":{}}} alone does not (MCP 2026-07-28,
// client/elicitation, capabilities).
func capabilities(caps *mcp.ClientCapabilities) protocol.Capabilities {
	var c protocol.Capabilities
	if caps == nil {
		return c
	}
	if caps.Elicitation != nil {
		c.FormElicitation = caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
		c.URLElicitation = caps.Elicitation.URL != nil
	}
	c.Sampling, c.Roots = samplingAndRoots(caps)
	return c
}
