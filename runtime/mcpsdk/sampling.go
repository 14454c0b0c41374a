//lint:file-ignore SA1019 sampling and roots are deprecated by SEP-2577 in MCP 2026-07-28 but still served during the deprecation window; this file is their only bridge.

package mcpsdk

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// samplingAndRoots reports whether the client declared sampling and roots.
func samplingAndRoots(caps *mcp.ClientCapabilities) (sampling, roots bool) {
	return caps.Sampling != nil, caps.RootsV2 != nil || caps.Roots.ListChanged
}

// deprecatedInputRequest converts a runtime sampling or roots request to the
// SDK's params, or returns nil for any other type.
func deprecatedInputRequest(ir protocol.InputRequest) mcp.InputRequest {
	switch x := ir.(type) {
	case *protocol.SamplingRequest:
		msgs := make([]*mcp.SamplingMessage, 0, len(x.Messages))
		for _, msg := range x.Messages {
			msgs = append(msgs, &mcp.SamplingMessage{Role: mcp.Role(msg.Role), Content: &mcp.TextContent{Text: msg.Text}})
		}
		return &mcp.CreateMessageParams{Messages: msgs, SystemPrompt: x.SystemPrompt, MaxTokens: x.MaxTokens}
	case *protocol.RootsRequest:
		return &mcp.ListRootsParams{}
	}
	return nil
}

// deprecatedInputResponse converts the SDK's sampling or roots answer, or
// returns nil for anything else (the flow then rejects it with -32602).
func deprecatedInputResponse(v mcp.InputResponse) protocol.InputResponse {
	switch x := v.(type) {
	case *mcp.CreateMessageWithToolsResult:
		if x == nil {
			return nil
		}
		return &protocol.SamplingResult{Role: string(x.Role), Text: joinText(x.Content), Model: x.Model, StopReason: x.StopReason}
	case *mcp.CreateMessageResult:
		if x == nil {
			return nil
		}
		return &protocol.SamplingResult{Role: string(x.Role), Text: joinText([]mcp.Content{x.Content}), Model: x.Model, StopReason: x.StopReason}
	case *mcp.ListRootsResult:
		if x == nil {
			return nil
		}
		roots := make([]protocol.Root, 0, len(x.Roots))
		for _, r := range x.Roots {
			if r != nil {
				roots = append(roots, protocol.Root{URI: r.URI, Name: r.Name})
			}
		}
		return &protocol.RootsResult{Roots: roots}
	}
	return nil
}

// joinText joins the text items of a sampling answer, one per line.
func joinText(content []mcp.Content) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// sendDeprecated sends a sampling or roots request to the client of session
// ss on the open call (MCP 2025-11-25, client/sampling and client/roots)
// and returns its answer; any other request is an error.
func sendDeprecated(ctx context.Context, ss *mcp.ServerSession, ir protocol.InputRequest) (protocol.InputResponse, error) {
	switch p := deprecatedInputRequest(ir).(type) {
	case *mcp.CreateMessageParams:
		msgs := make([]*mcp.SamplingMessageV2, 0, len(p.Messages))
		for _, m := range p.Messages {
			msgs = append(msgs, &mcp.SamplingMessageV2{Role: m.Role, Content: []mcp.Content{m.Content}})
		}
		res, err := ss.CreateMessageWithTools(ctx, &mcp.CreateMessageWithToolsParams{Messages: msgs, SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens})
		if err != nil {
			return nil, clientError(err)
		}
		return deprecatedInputResponse(res), nil
	case *mcp.ListRootsParams:
		res, err := ss.ListRoots(ctx, p)
		if err != nil {
			return nil, clientError(err)
		}
		return deprecatedInputResponse(res), nil
	}
	return nil, fmt.Errorf("mcpgen: cannot send a %s request on a session", ir.Method())
}
