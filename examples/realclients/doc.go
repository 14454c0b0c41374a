// Package realclients drives mcpgen's examples with MCP clients no one here
// wrote, through every flow that needs more than one question in a call on a
// 2025-11-25 or 2025-06-18 session: go-sdk's and mcp-go's clients (the tests
// of this package), the TypeScript SDK (tssdk.mjs, run by run-tssdk, with
// TestTSSDKConnect for URL mode), and the MCP Inspector's web UI in headless
// Chromium (inspector.mjs, run by run-inspector). docs/realclients.md says
// what each drives and how to run it.
package realclients
