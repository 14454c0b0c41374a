package mcpsdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// ExchangeHandler handles one tools/call, prompts/get or resources/read through a
// *runtime.Exchange: it reads the previous round's answers and either
// returns a complete response (&runtime.Response{Result: …}) or the next
// round from x.InputRequired. Errors that are *protocol.Error become JSON-RPC
// errors; for a tool, other errors become tool error results (the SDK's rule).
type ExchangeHandler func(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error)

// AddExchangeTool registers a hand-written tool whose handler asks for
// input with sampling/createMessage, roots/list or elicitation/create
// requests it builds itself, through a runtime.Exchange bound to the tool's
// name and "tools/call" (see runtime.Exchange for what the sealed
// requestState guarantees). A nil tool.InputSchema means {"type":"object"}
// (no arguments). It panics, like the SDK's AddTool, when opts has no key
// ring.
func AddExchangeTool(s *mcp.Server, tool *mcp.Tool, opts *Options, h ExchangeHandler) {
	requireKeys("AddExchangeTool", tool.Name, opts)
	t := *tool
	if t.InputSchema == nil {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	install(s)
	s.AddTool(&t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rreq, err := request(ctx, opts, "tools/call", req, req.Params.Arguments, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		resp, err := runExchange(ctx, t.Name, opts, rreq, h)
		if err != nil {
			return toolErrorResult(err)
		}
		return callToolResponse(resp), nil
	})
}

// AddExchangePrompt is [AddExchangeTool] for a prompt: the exchange is bound
// to the prompt's name and "prompts/get", and the response becomes a
// GetPromptResult as in [AddPrompt] (Result.Native *mcp.GetPromptResult
// passes unchanged; a text becomes one user message; IsError becomes -32602).
// The handler reads the prompt's arguments, a string map, as a JSON object
// from the exchange's request. It panics when opts has no key ring.
func AddExchangePrompt(s *mcp.Server, prompt *mcp.Prompt, opts *Options, h ExchangeHandler) {
	requireKeys("AddExchangePrompt", prompt.Name, opts)
	p := *prompt
	s.AddPrompt(&p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args, err := promptArgs(req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		rreq, err := request(ctx, opts, "prompts/get", req, args, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		resp, err := runExchange(ctx, p.Name, opts, rreq, h)
		if err != nil {
			return nil, protocolError(err)
		}
		return promptResponse(p.Description, resp)
	})
}

// runExchange runs h through an exchange bound to name for rreq and, for a
// client asked on its session, for every further round of the call
// (runtime.Converse).
func runExchange(ctx context.Context, name string, opts *Options, rreq *protocol.Request, h ExchangeHandler) (*runtime.Response, error) {
	return runtime.Converse(ctx, rreq, func(ctx context.Context, req *protocol.Request) (*runtime.Response, error) {
		x, err := runtime.NewExchange(name, &opts.Flow, req)
		if err != nil {
			return nil, err
		}
		return x.Run(ctx, func(ctx context.Context) (*runtime.Response, error) { return h(ctx, x) })
	})
}

// callToolResponse turns a flow or exchange response into a CallToolResult.
func callToolResponse(resp *runtime.Response) *mcp.CallToolResult {
	if resp.Result == nil {
		return &mcp.CallToolResult{InputRequests: inputRequests(resp), RequestState: resp.RequestState}
	}
	return toolResult(resp.Result)
}

// AddExchangeResource is [AddExchangeTool] for a resource: resources/read of
// resource.URI runs h through an exchange bound to the URI (as its name),
// "resources/read" and the arguments {"uri": <the URI read>} (MCP
// 2026-07-28, basic/patterns/mrtr: resources/read may return an
// input-required result). A complete response becomes one text content item
// with the resource's MIME type, or passes unchanged when Result.Native is a
// *mcp.ReadResourceResult; a result marked IsError becomes -32602 with its
// text. It panics when opts has no key ring.
func AddExchangeResource(s *mcp.Server, resource *mcp.Resource, opts *Options, h ExchangeHandler) {
	requireKeys("AddExchangeResource", resource.URI, opts)
	r := *resource
	s.AddResource(&r, resourceHandler(r.URI, r.MIMEType, opts, h))
}

// AddExchangeResourceTemplate is [AddExchangeResource] for every URI that
// matches template.URITemplate (RFC 6570): the exchange is bound to the
// template (as its name) and to the URI read, so a state issued while
// reading one URI cannot resume the read of another.
func AddExchangeResourceTemplate(s *mcp.Server, template *mcp.ResourceTemplate, opts *Options, h ExchangeHandler) {
	requireKeys("AddExchangeResourceTemplate", template.URITemplate, opts)
	t := *template
	s.AddResourceTemplate(&t, resourceHandler(t.URITemplate, t.MIMEType, opts, h))
}

func resourceHandler(name, mimeType string, opts *Options, h ExchangeHandler) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		args, err := json.Marshal(map[string]string{"uri": req.Params.URI})
		if err != nil {
			return nil, err
		}
		rreq, err := request(ctx, opts, "resources/read", req, args, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		resp, err := runExchange(ctx, name, opts, rreq, h)
		if err != nil {
			return nil, protocolError(err)
		}
		if resp.Result == nil {
			return &mcp.ReadResourceResult{InputRequests: inputRequests(resp), RequestState: resp.RequestState}, nil
		}
		if native, ok := nativeResult[mcp.ReadResourceResult](resp.Result.Native); ok {
			return native, nil
		}
		if resp.Result.IsError {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: resp.Result.Text}
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: req.Params.URI, MIMEType: mimeType, Text: resp.Result.Text}}}, nil
	}
}
