// Package protocol holds the MCP wire shapes a multi-round tools/call or
// prompts/get reads and writes (SEP-2322, MCP 2026-07-28
// basic/patterns/mrtr), independent of any SDK: the [Request] an adapter
// fills in from its SDK's request, the client [Capabilities] it declared,
// the input requests a server embeds in an input-required result
// ([ElicitRequest], [SamplingRequest], [RootsRequest]) and the client's
// answers to them ([ElicitResult], [SamplingResult], [RootsResult]), the
// JSON-RPC [Error] and its codes, and the protocol versions the flow tells
// apart.
//
// Its users are the SDK adapters (runtime/mcpsdk for the official
// github.com/modelcontextprotocol/go-sdk, runtime/mcpgo for
// github.com/mark3labs/mcp-go), which translate between these types and
// their SDK's; runtime/elicittest, which plays the client in tests; and
// hand-written handlers that drive a runtime.Exchange themselves.
//
// A handler author writing branches for mcpgen's generated flows needs only
// package runtime: it re-exports [Action] and its constants as runtime.Action,
// runtime.Accept, runtime.Decline and runtime.Cancel.
//
// Package protocol does not import package runtime; runtime imports it.
package protocol
