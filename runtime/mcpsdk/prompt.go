package mcpsdk

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
)

// AddPrompt registers flow as a prompt on s: prompts/get runs flow.Call with
// the method "prompts/get" bound into the requestState, so a state issued by
// a tool of the same name cannot resume the prompt and the other way round
// (MCP 2026-07-28, basic/patterns/mrtr: prompts/get may return an
// input-required result).
//
// The prompt's arguments are the properties of flow.InputSchema()
// ([runtime.Flow.InputSchema]): name, title, description, and required for
// the plain (non-elicitable) required fields. Prompt arguments are strings
// on the wire (server/prompts: GetPromptRequest.arguments is a string map),
// so the struct's plain fields must be strings; elicited fields may have
// any kind, as the form answers carry JSON values.
//
// A branch's *runtime.Result becomes one user message with its text, or is
// returned unchanged when Result.Native is a *mcp.GetPromptResult. A result
// marked IsError (bad arguments, a client without form elicitation, the
// round limit) becomes a JSON-RPC -32602 error with its text, since a prompt
// result has no error flag. It panics, like the SDK's AddPrompt, when opts
// has no key ring.
func AddPrompt(s *mcp.Server, flow *runtime.Flow, opts *Options) {
	requireKeys("AddPrompt", flow.Name(), opts)
	prompt := &mcp.Prompt{Name: flow.Name(), Description: flow.Description(), Arguments: promptArguments(flow.InputSchema())}
	s.AddPrompt(prompt, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args, err := promptArgs(req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		rreq, err := request(ctx, opts, "prompts/get", req, args, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		resp, err := flow.Call(ctx, &opts.Flow, rreq)
		if err != nil {
			return nil, protocolError(err)
		}
		return promptResponse(flow.Description(), resp)
	})
}

// promptArgs encodes a prompts/get string map as the JSON arguments object
// the flow decodes (nil map: no arguments).
func promptArgs(m map[string]string) (json.RawMessage, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "arguments: " + err.Error()}
	}
	return b, nil
}

func promptArguments(schema *jsonschema.Schema) []*mcp.PromptArgument {
	out := []*mcp.PromptArgument{}
	if schema == nil || schema.Properties == nil {
		return out
	}
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		out = append(out, &mcp.PromptArgument{
			Name:        pair.Key,
			Title:       pair.Value.Title,
			Description: pair.Value.Description,
			Required:    slices.Contains(schema.Required, pair.Key),
		})
	}
	return out
}

// promptResponse turns a flow or exchange response into a GetPromptResult.
func promptResponse(description string, resp *runtime.Response) (*mcp.GetPromptResult, error) {
	if resp.Result == nil {
		return &mcp.GetPromptResult{InputRequests: inputRequests(resp), RequestState: resp.RequestState}, nil
	}
	r := resp.Result
	if native, ok := nativeResult[mcp.GetPromptResult](r.Native); ok {
		return native, nil
	}
	if r.IsError {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: r.Text}
	}
	return &mcp.GetPromptResult{
		Description: description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: r.Text}}},
	}, nil
}
