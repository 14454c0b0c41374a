package mcpsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// installed holds the servers the adapter's middleware is on, by
// *mcp.Server.
var installed sync.Map

// Install adds to s, once (later calls do nothing), the middleware the
// handlers of [Tool] need on every transport: a receiving middleware that
// writes a tools/call's input-required result without go-sdk's "content":
// null (MCP 2026-07-28, basic/patterns/mrtr), and a sending one that hands
// a session client's answer to elicitation/create to the flow as the client
// sent it. [AddTool], [AddTools], [NewHTTPHandler] and [ServeStdio] call
// it; call it yourself on a server that registers tools from Tool and is
// served otherwise (go-sdk's own HTTP handler or transports). A tools/call of Tool's handler on a server without it is a
// JSON-RPC error naming Install.
func Install(s *mcp.Server) { install(s) }

func install(s *mcp.Server) {
	if _, loaded := installed.LoadOrStore(s, true); loaded {
		return
	}
	s.AddReceivingMiddleware(shapeResults)
	s.AddSendingMiddleware(keepAnswers)
}

// installedKey is the context key by which shapeResults tells a tool's
// handler that the server has the middleware of Install.
type installedKey struct{}

// installedOn reports whether ctx, a tools/call's, passed through the
// middleware of Install.
func installedOn(ctx context.Context) bool { return ctx.Value(installedKey{}) != nil }

// notInstalled is the error of a tools/call of tool that reached Tool's
// handler on a server without the middleware of Install.
func notInstalled(tool string) error {
	return &jsonrpc.Error{Code: protocol.CodeInternalError, Message: "mcpgen: the tool " + strconv.Quote(tool) +
		" comes from mcpsdk.Tool, and its server lacks mcpgen's middleware: call mcpsdk.Install(s) once on the *mcp.Server " +
		"that serves it (mcpsdk.AddTool, AddTools, NewHTTPHandler and ServeStdio do it for you)"}
}

// shapeResults writes a tools/call's input-required result without the
// "content": null go-sdk v1.8.0 puts in it (its CallToolResult encodes a nil
// Content as null, and it fills in [] only for complete results). An
// input-required result carries resultType, inputRequests and requestState,
// and no content (MCP 2026-07-28, basic/patterns/mrtr: a result never
// carries both content and input requests; schema.ts, InputRequiredResult);
// a null where a client's schema expects an array or nothing is what a
// strict client refuses.
func shapeResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" {
			ctx = context.WithValue(ctx, installedKey{}, true)
		}
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.Content == nil && len(r.InputRequests) > 0 {
			return inputRequired{r}, err
		}
		return res, err
	}
}

// rawAnswerKey is the context key of the *rawAnswer a send waits for.
type rawAnswerKey struct{}

// rawAnswer is a client's answer to elicitation/create as it arrived,
// before go-sdk's ServerSession.Elicit checked it against the
// requestedSchema and filled in the schema's defaults.
type rawAnswer struct{ res *mcp.ElicitResult }

// keepAnswers hands the answer to an elicitation/create sent with a
// *rawAnswer in its context (see send) to that rawAnswer, as the client sent
// it: go-sdk's own check of the content against the requestedSchema, which
// returns only an error, then refuses nothing the flow would take, and the
// flow judges every answer by its own rules, with its own reasons, as on
// 2026-07-28 (MCP 2025-11-25, client/elicitation: the server validates the
// content it receives).
func keepAnswers(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if raw, ok := ctx.Value(rawAnswerKey{}).(*rawAnswer); ok && err == nil && method == "elicitation/create" {
			if er, ok := res.(*mcp.ElicitResult); ok && er != nil {
				raw.res = &mcp.ElicitResult{Action: er.Action, Content: maps.Clone(er.Content)}
			}
		}
		return res, err
	}
}

// inputRequired is an input-required CallToolResult that encodes without
// "content": null.
type inputRequired struct{ *mcp.CallToolResult }

// MarshalJSON encodes the result as go-sdk does, without "content": null.
// go-sdk writes _meta (when set) and then content first; only that member
// is cut, the rest of the bytes are go-sdk's.
func (r inputRequired) MarshalJSON() ([]byte, error) {
	b, err := r.CallToolResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	at := 1 // after '{'
	if bytes.HasPrefix(b, []byte(`{"_meta":`)) {
		dec := json.NewDecoder(bytes.NewReader(b))
		var meta json.RawMessage
		if _, err := dec.Token(); err != nil {
			return b, nil
		}
		if _, err := dec.Token(); err != nil {
			return b, nil
		}
		if err := dec.Decode(&meta); err != nil {
			return b, nil
		}
		at = int(dec.InputOffset()) + 1 // after the ',' that follows _meta
	}
	const member = `"content":null,`
	if at > len(b) || !bytes.HasPrefix(b[at:], []byte(member)) {
		return b, nil
	}
	return append(b[:at:at], b[at+len(member):]...), nil
}
