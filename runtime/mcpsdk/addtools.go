package mcpsdk

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
)

// AddTools registers each of flows on s with [AddTool], in order: a
// package's generated Flows, for example.
func AddTools(s *mcp.Server, flows []*runtime.Flow, opts *Options) {
	for _, f := range flows {
		AddTool(s, f, opts)
	}
}
