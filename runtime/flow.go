package runtime

import (
	"context"
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Args is implemented by every struct mcpgen generates code for (through its
// pointer): a tool's arguments and a //mcpgen:question alike. The methods
// are documented on the generated code (docs/tags.md, "The generated API").
type Args = engine.Args

// Flow is one tool (or prompt) whose arguments may be elicited: what
// tools/call or prompts/get runs (MCP 2026-07-28, server/tools and
// server/prompts), asking the user for missing arguments with input-required
// results (basic/patterns/mrtr). mcpgen generates a constructor for each
// annotated struct (New<T>Flow), the only way to make one; adapters
// register it with an SDK ([Flow.Name], [Flow.Description],
// [Flow.InputSchema]) and call [Flow.Call] for every tools/call or
// prompts/get. A Flow has no exported fields and never changes once made,
// so one may serve any number of concurrent calls. The zero Flow is no
// tool: its Call returns an error and its InputSchema panics.
type Flow = engine.Flow

// Response is what the flow returns: either a final Result, or input
// requests with the sealed state to echo.
type Response = engine.Response

// Principal returns who is calling, as the adapter identified them
// (protocol.Request.Principal: for go-sdk, the authenticated user of the bearer
// token): the principal bound into the requestState (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security). It is "" for an anonymous
// caller, and outside a flow's branches, Choices functions and exchange
// handlers.
func Principal(ctx context.Context) string { return engine.Principal(ctx) }

// FlowID returns the id of the flow a branch (or an exchange handler) runs
// in: random, 22 characters of base64url, and never "" inside one. A call
// that asks fixes it in its first request and carries it in the sealed state,
// so every round of the call sees the same id; a call that completes without
// asking gets a fresh one. Key a branch's side effects on it (an idempotency
// key, a charge id) so that a final retry sent twice does the work once. A
// client that sends the same first call again starts another flow, with
// another id. It is "" outside a branch or an exchange handler (in a flow's
// Choices and FormOptions functions too: they run before the flow's id is
// fixed).
func FlowID(ctx context.Context) string { return engine.FlowID(ctx) }

// Round returns how many input-required results preceded the branch that is
// running (0 when the call completed without asking).
func Round(ctx context.Context) int { return engine.Round(ctx) }

// Converse runs one request of a multi-round call with call (a [Flow]'s
// Call, or an [Exchange] made for the request and run) and, when the client
// is asked within the request (req.Send is set: a stateful session of a
// protocol before 2026-07-28), every further round of the call too: each
// input-required result call returns is sent to the client as
// server-to-client requests on the open call (MCP 2025-11-25,
// client/elicitation: a server may send elicitation/create while it handles
// a request), and the answers go back into call as a retry of the original
// request would carry them (MCP 2026-07-28, basic/patterns/mrtr:
// inputResponses under the same keys, the requestState echoed), until call
// returns a complete result or an error. Every round is a request of the
// engine like any other: the round limit, the requestState's binding, the
// at-most-once record, the hooks, logs, spans and metrics are the same as
// for a 2026-07-28 client that retries by itself.
//
// Without req.Send it returns call(ctx, req) as it is.
//
// An error of Send (the client answered with an error, its stream or
// session went away, notifications/cancelled ended ctx) ends the call with
// that error, wrapped: nothing ran, and nothing was recorded (a branch runs
// only in the request that completes the call).
//
// Each round sends the input requests one by one, in the order of their
// keys.
func Converse(ctx context.Context, req *protocol.Request, call func(ctx context.Context, req *protocol.Request) (*Response, error)) (*Response, error) {
	return engine.Converse(ctx, req, call)
}

// Exchange runs the rounds of a hand-written tools/call or prompts/get
// handler that asks the client for input itself — sampling/createMessage,
// roots/list, or elicitation/create requests it builds — instead of through a
// generated [Flow] (SEP-2322, MCP 2026-07-28 basic/patterns/mrtr).
//
// It keeps the same promises as a Flow: the requestState it issues is sealed
// with [Options.Keys] and bound to the tool name, the method, the digest of
// the arguments, the principal and an expiry; a retry whose state does not
// open or match is rejected with -32602 before the handler sees any answer;
// an answer counts only when it arrives under a key the sealed state says
// was asked, with the method it was asked with; and a request is sent only
// when the client declared the capability it needs.
//
// A handler creates one per request with [NewExchange], reads the answers
// of the previous round ([Exchange.Elicitation], [Exchange.Sampling],
// [Exchange.Roots]) and what it carried over ([Exchange.Carried]), and
// either completes or calls [Exchange.Ask] for the next round.
type Exchange = engine.Exchange

// NewExchange starts handling one request of the tool or prompt called name.
// On a retry (req.RequestState non-empty) it opens the state and checks its
// binding and every answer to a key it asked.
//
// Errors: a plain error when opts or opts.Keys is nil; a *[protocol.Error]
// -32602 (for the adapter to send as the JSON-RPC error) when the arguments
// are not a JSON object, when the state fails to open or belongs to another
// tool, method, set of arguments or principal, or has expired (each reported
// to [Options.OnReject]), and when an answer to an asked key has the wrong
// shape (an elicitation answer under a sampling key, or an answer the adapter
// could not decode).
func NewExchange(name string, opts *Options, req *protocol.Request) (*Exchange, error) {
	return engine.NewExchange(name, opts, req)
}

// ClientOf returns what the client of the request ctx belongs to declared
// (see [protocol.Client]): its capabilities (MCP 2026-07-28, basic:
// per-request capabilities in _meta; MCP 2025-11-25, basic/lifecycle: those
// of the session's initialize), its protocol version and era
// ([protocol.Client.MRTR]), and whether a form can be sent to it
// ([protocol.Client.CanAsk]). It answers in a flow's branches, Choices
// functions, FormOptions and Unaskable fallback, and in an exchange handler;
// elsewhere it returns the zero Client, which declared nothing.
func ClientOf(ctx context.Context) protocol.Client { return engine.ClientOf(ctx) }

// Event is one request of a multi-round call as [Options].OnAsk,
// OnComplete and OnEnd see it, for metrics and tracing: never an answer's
// value or the state.
type Event = engine.Event
