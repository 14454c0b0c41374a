package callclient

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// list prints each tool: its name, its description, then its input
// schema's properties in the server's order (type, required, description).
// It follows nextCursor for at most MaxListPages pages.
func (c *caller) list(ctx context.Context, cs *mcp.ClientSession) error {
	n := 0
	for tool, err := range tools(ctx, cs) {
		if err != nil {
			return err
		}
		if n > 0 {
			fmt.Fprintln(c.stdout)
		}
		n++
		c.printTool(tool)
	}
	if n == 0 {
		fmt.Fprintln(c.stdout, "(the server lists no tools)")
	}
	return nil
}

// tools yields the server's tools page by page (tools/list), at most
// MaxListPages pages; an error ends it.
func tools(ctx context.Context, cs *mcp.ClientSession) iter.Seq2[*mcp.Tool, error] {
	return func(yield func(*mcp.Tool, error) bool) {
		params := &mcp.ListToolsParams{}
		for page := 1; ; page++ {
			res, err := cs.ListTools(ctx, params)
			if err != nil {
				yield(nil, fmt.Errorf("tools/list: %w", err))
				return
			}
			for _, tool := range res.Tools {
				if !yield(tool, nil) {
					return
				}
			}
			if res.NextCursor == "" {
				return
			}
			if page == MaxListPages {
				yield(nil, fmt.Errorf("tools/list: %w", &limitError{Limit: "MaxListPages",
					What: fmt.Sprintf("the server sent %d pages and a nextCursor for one more; mcpgen-call follows at most %d", page, MaxListPages)}))
				return
			}
			params = &mcp.ListToolsParams{Cursor: res.NextCursor}
		}
	}
}

// printTool prints one tool: its name, description and arguments.
func (c *caller) printTool(tool *mcp.Tool) {
	fmt.Fprintln(c.stdout, clean(tool.Name))
	if tool.Description != "" {
		fmt.Fprintln(c.stdout, "  "+clean(tool.Description))
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	b, _ := json.Marshal(tool.InputSchema)
	if json.Unmarshal(b, &schema) != nil || len(schema.Properties) == 0 {
		return
	}
	required := make(map[string]bool, len(schema.Required))
	for _, name := range schema.Required {
		required[name] = true
	}
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	fmt.Fprintln(c.stdout, "  arguments:")
	for _, name := range orderedNames(schema.Properties, c.orders.lookup(names)) {
		var p struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
		}
		_ = json.Unmarshal(schema.Properties[name], &p)
		kind := fmt.Sprint(p.Type)
		if p.Type == nil {
			kind = "any"
		}
		var notes []string
		notes = append(notes, kind)
		if required[name] {
			notes = append(notes, "required")
		}
		line := fmt.Sprintf("    %s (%s)", name, strings.Join(notes, ", "))
		if p.Description != "" {
			line += ": " + p.Description
		}
		fmt.Fprintln(c.stdout, clean(line))
	}
}
