package protocol

import "strconv"

// JSON-RPC error codes used by the flow (MCP 2026-07-28, basic: error codes),
// the values of [Error.Code].
const (
	// CodeInvalidParams is JSON-RPC's invalid params: a requestState that does
	// not open, does not match or can no longer be honoured (the flow store
	// lost its memory since the flow began: start the call again), or
	// malformed inputResponses.
	CodeInvalidParams = -32602
	// CodeMissingCapability is MCP's "missing required client capability"
	// (MCP 2026-07-28, basic: MissingRequiredClientCapabilityError); its
	// data carries requiredCapabilities.
	CodeMissingCapability = -32021
	// CodeInternalError is JSON-RPC's internal error: the flow store failed,
	// or a concurrent duplicate of a retry did not finish within
	// runtime.Options.ClaimWait. No branch ran; the client may retry later.
	CodeInternalError = -32603
)

// Error is a JSON-RPC error the flow asks the adapter to return instead of a
// result (JSON-RPC 2.0, error object; MCP 2026-07-28, basic: error codes).
// Code is a JSON-RPC error code ([CodeInvalidParams],
// [CodeMissingCapability], [CodeInternalError]); Message is the error's
// message; Data, when non-nil, is sent as the error's data (for -32021,
// {"requiredCapabilities": {…}}).
type Error struct {
	Code    int64
	Message string
	Data    any
}

// Error returns the message with its code: "message (JSON-RPC -32602)".
func (e *Error) Error() string {
	return e.Message + " (JSON-RPC " + strconv.FormatInt(e.Code, 10) + ")"
}
