// Package runtime is the library that runs what mcpgen generates: the
// flows, their options and results, validation errors, key rings for the
// sealed requestState, and the rounds of a hand-written [Exchange]. It is
// what a handler author and a server's main use.
// What only generated code calls (value conversion, format checks, schema
// builders) is in runtime/impl, which has no compatibility promise.
//
// It knows the protocol: the elicitation of MCP 2026-07-28
// (client/elicitation), the Multi Round-Trip flow of SEP-2322
// (basic/patterns/mrtr) that turns a tools/call or prompts/get into
// input-required results and resumes it on retry, field-level validation
// errors, and the sealed requestState that lets any server instance resume a
// paused call.
//
// The wire shapes a call reads and writes (the request, the client's
// capabilities, the input requests and their answers, JSON-RPC errors and
// protocol versions) are in runtime/protocol, for SDK adapters, tests that
// play the client and hand-written exchanges; a handler author needs only
// this package ([Action] and its constants are the same as protocol's).
//
// It does not know any SDK: the adapters in runtime/mcpsdk (the official
// github.com/modelcontextprotocol/go-sdk) and runtime/mcpgo
// (github.com/mark3labs/mcp-go) translate between an SDK's request and result
// types and [protocol.Request] and [Response].
//
// The engine behind it is an internal package, runtime/internal/engine (as
// protobuf-go keeps its implementation under internal/): this package names its
// types by alias (type Flow = engine.Flow) and hands its functions on, so
// each type's documentation here lists its fields and methods, with the
// first sentence of each; an editor shows each one's whole documentation.
package runtime
