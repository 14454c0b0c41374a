package callclient

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// list prints each tool: its name, its description, then its input
// schema's properties in the server's order (type, required, description).
func (c *caller) list(ctx context.Context, cs *mcp.ClientSession) error {
	n := 0
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("tools/list: %w", err)
		}
		if n > 0 {
			fmt.Fprintln(c.stdout)
		}
		n++
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
			continue
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
			if slices.Contains(schema.Required, name) {
				notes = append(notes, "required")
			}
			line := fmt.Sprintf("    %s (%s)", name, strings.Join(notes, ", "))
			if p.Description != "" {
				line += ": " + p.Description
			}
			fmt.Fprintln(c.stdout, clean(line))
		}
	}
	if n == 0 {
		fmt.Fprintln(c.stdout, "(the server lists no tools)")
	}
	return nil
}
