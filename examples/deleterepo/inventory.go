package deleterepo

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// This file registers the tools the way the servers they come from do:
// through the server's own inventory, where each tool says whether it only
// reads (github-mcp-server's toolsets, tiger-cli's read-only mode), and
// through the server's own middleware. mcpgen's tools join that inventory
// as values (mcpsdk.Tool), beside a tool the server wrote by hand, instead
// of going straight to the go-sdk server with mcpsdk.AddTools.

// InventoryTool is one tool of the server's inventory: the go-sdk tool, its
// handler, and whether it only reads.
type InventoryTool struct {
	Tool     *mcp.Tool
	Handler  mcp.ToolHandler
	ReadOnly bool
}

// Inventory returns every tool of the server: its own list_repositories,
// which only reads, and mcpgen's delete_repository and service_delete
// (every tool of the package, from the generated Flows), which delete, on
// backend b.
func Inventory(b *Backend, opts *mcpsdk.Options) []InventoryTool {
	list := &mcp.Tool{Name: "list_repositories", Description: "List the repositories.",
		InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	inv := []InventoryTool{{Tool: list, ReadOnly: true,
		Handler: func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(b.Names(), "\n")}}}, nil
		}}}
	destructive := true
	for _, flow := range Flows(Handlers{
		DeleteRepositoryArgs: deleteRepositoryArgsHandler{b},
		DeleteServiceArgs:    deleteServiceArgsHandler{b},
	}) {
		tool, handler := mcpsdk.Tool(flow, opts)
		tool.Annotations = &mcp.ToolAnnotations{DestructiveHint: &destructive}
		inv = append(inv, InventoryTool{Tool: tool, Handler: handler})
	}
	return inv
}

// Register adds the tools of inv to s through the server's own middleware,
// which hands each call's tool name to audit before it runs; with readOnly,
// only the tools that only read. s must be served by mcpsdk
// (NewHTTPHandler, ServeStdio), which adds what mcpgen's handlers need to
// it, or have mcpsdk.Install(s) called once.
func Register(s *mcp.Server, inv []InventoryTool, readOnly bool, audit func(tool string)) {
	for _, t := range inv {
		if readOnly && !t.ReadOnly {
			continue
		}
		name, next := t.Tool.Name, t.Handler
		s.AddTool(t.Tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			audit(name)
			return next(ctx, req)
		})
	}
}
