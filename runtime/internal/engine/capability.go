package engine

import "github.com/mcpgen/mcpgen/runtime/protocol"

// requiredCapability returns the requiredCapabilities object of a -32021
// error for ir (MCP 2026-07-28, basic: MissingRequiredClientCapabilityError),
// or nil for an unknown type.
func requiredCapability(ir protocol.InputRequest) map[string]any {
	switch ir.(type) {
	case *protocol.ElicitRequest:
		return map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	case *protocol.SamplingRequest:
		return map[string]any{"sampling": map[string]any{}}
	case *protocol.RootsRequest:
		return map[string]any{"roots": map[string]any{}}
	}
	return nil
}
