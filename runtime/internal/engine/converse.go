package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Converse runs one request of a multi-round call with call (a [Flow]'s Call,
// or an [Exchange] made for the request and run) and, when the client is
// asked within the request (req.Send is set: a stateful session of a protocol
// before 2026-07-28), every further round of the call too: each
// input-required result call returns is sent to the client as
// server-to-client requests on the open call (MCP 2025-11-25,
// client/elicitation: a server may send elicitation/create while it handles a
// request), and the answers go back into call as a retry of the original
// request would carry them (MCP 2026-07-28, basic/patterns/mrtr:
// inputResponses under the same keys, the requestState echoed), until call
// returns a complete result or an error. See runtime.Converse.
func Converse(ctx context.Context, req *protocol.Request, call func(ctx context.Context, req *protocol.Request) (*Response, error)) (*Response, error) {
	if req.Send == nil {
		return call(ctx, req)
	}
	next := *req // each round's request; req keeps the original arguments
	for round := 0; ; round++ {
		resp, err := call(ctx, &next)
		if err != nil && round > 0 {
			return nil, sessionError(ctx, err)
		}
		if err != nil || resp == nil || resp.Result != nil || len(resp.InputRequests) == 0 {
			return resp, err
		}
		answers := make(map[string]protocol.InputResponse, len(resp.InputRequests))
		for _, key := range slices.Sorted(maps.Keys(resp.InputRequests)) {
			ir := resp.InputRequests[key]
			ans, err := req.Send(ctx, ir)
			if err != nil {
				if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
					return nil, fmt.Errorf("mcpgen: the call ended while the client was asked (%s): %w; nothing ran", ir.Method(), cause)
				}
				return nil, &sendError{method: ir.Method(), err: err}
			}
			answers[key] = ans
		}
		// The retry is the original request with this round's answers and
		// state: the engine may have rewritten the arguments it decoded.
		prev := next
		next = *req
		next.InputResponses, next.RequestState = answers, resp.RequestState
		// What the client declared is read once per call (Capabilities
		// fills the fields and clears LoadCapabilities).
		next.FormElicitation, next.URLElicitation, next.Sampling, next.Roots, next.LoadCapabilities =
			prev.FormElicitation, prev.URLElicitation, prev.Sampling, prev.Roots, prev.LoadCapabilities
	}
}

// sessionError words for a client on a session the error that ended a
// round after the first: the client never sent inputResponses, so a
// -32602 about its answer (a malformed or oversized answer, an unknown
// action) says "the answer to elicitation/create", and ends the call as a
// tool error, not a JSON-RPC error about parameters it did not send; a call
// that ended because ctx did (notifications/cancelled, the stream gone)
// says so. Other errors (a store failure's -32603, a branch's error) are
// returned as they are.
func sessionError(ctx context.Context, err error) error {
	var pe *protocol.Error
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("mcpgen: the call ended while it waited (%w); nothing more ran", context.Cause(ctx))
	case errors.As(err, &pe) && pe.Code == protocol.CodeInvalidParams:
		msg := inputResponsesKey.ReplaceAllString(pe.Message, "the answer to elicitation/create")
		return errors.New("mcpgen: the client's answer was refused: " + msg + "; nothing ran, call again")
	}
	return err
}

// inputResponsesKey matches how a 2026-07-28 error names an answer.
var inputResponsesKey = regexp.MustCompile(`inputResponses\[[^\]]*\]`)

// sendError ends a call whose question the client could not answer: it
// answered with an error, or the request never reached it. Nothing ran.
type sendError struct {
	method string
	err    error
}

func (e *sendError) Error() string {
	return "mcpgen: the client did not answer " + e.method + " (" + e.err.Error() + "); nothing ran, call again"
}

func (e *sendError) Unwrap() error { return e.err }
