package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Args is implemented by every struct mcpgen generates code for (through its
// pointer): a tool's arguments and a //mcpgen:question alike. The methods
// are documented on the generated code (docs/tags.md, "The generated API").
//
// Its methods:
//
//   - MissingFields() []string (): MissingFields returns the JSON names of
//     elicitable fields that hold no answer, in field order.
//   - RequestedSchema(fields ...string) *jsonschema.Schema ():
//     RequestedSchema returns the flat requestedSchema for the named fields
//     (all missing ones when none are named), in field order.
//   - ApplyContent(content map[string]any) error (): ApplyContent validates a
//     form's accepted content and sets the fields; nothing is set when any
//     field fails (*ValidationError).
//   - ApplyPartial(content map[string]any) error (): ApplyPartial sets every
//     valid answer in content and leaves the rest, returning a
//     *ValidationError for the rest; for partial results.
//   - Validate() error (): Validate checks every rule on every field, and
//     that required elicitable fields are present.
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
//
// Its methods:
//
//   - Name() string: returns the tool's (or prompt's) name, as //mcpgen:tool
//     gives it (MCP 2026-07-28, server/tools: Tool.name; server/prompts:
//     Prompt.name): what an adapter registers and what every requestState the
//     flow issues is bound to.
//   - Description() string: returns the tool's (or prompt's) description, as
//     //mcpgen:tool gives it (MCP 2026-07-28, server/tools: Tool.description;
//     server/prompts: Prompt.description), for an adapter to register; ""
//     when there is none.
//   - Call(ctx context.Context, opts *Options, req *protocol.Request) (*Response, error): runs
//     one request of the flow (MCP 2026-07-28, basic/patterns/mrtr): it
//     validates the arguments, asks for missing fields with an input-required
//     Response, and on a retry opens the state, applies the answer and runs
//     exactly one branch — at most once per flow: a retry of a flow that
//     completed returns the recorded response and runs nothing (see [Store]).
//   - InputSchema() *jsonschema.Schema: returns the tool's input schema (MCP
//     2026-07-28, server/tools: Tool.inputSchema, what tools/list shows the
//     model; an adapter registers it; for a prompt, its arguments), a
//     {"type":"object"} *jsonschema.Schema (invopop/jsonschema), a new object
//     on every call (its property schemas may be shared with the generated
//     code's: change a copy): the one mcpgen wrote at generation time, or
//     else the flow's argument struct reflected by invopop/jsonschema,
//     without $schema, $id or $defs, with every elicitable field made
//     optional and carrying its title, description, enum and format but no
//     default (an SDK that fills defaults in would make the field never
//     missing).
type Flow = engine.Flow

// Response is what the flow returns: either a final Result, or input
// requests with the sealed state to echo.
//
// Its fields:
//
//   - Result (*Result): the final result, or nil while input is required.
//   - InputRequests (map[string]protocol.InputRequest): by key, what the
//     client is asked (MCP 2026-07-28, basic/patterns/mrtr: inputRequests).
//   - RequestState (string): the sealed requestState the client echoes.
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

// Round returns how many input-required results preceded the branch (or
// the exchange handler) that is running: 0 on a first call, and outside
// one.
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
// An adapter creates one per request with [NewExchange] and runs the
// handler through Exchange.Run. The handler reads the answers of the
// previous round (Exchange.Elicitation, Sampling, Roots) and what it carried
// over (Exchange.Carried), and either completes or returns
// Exchange.InputRequired for the next round. What every handler reads from
// its context answers in it too, as in a generated flow's branches:
// [Round], [FlowID], [Principal], [ClientOf] (the capabilities the request
// declared); and a typed question is asked the one way questions are
// asked, with [Ask] or [AskURL].
//
// Its methods:
//
//   - Arguments() json.RawMessage: returns the request's raw arguments object
//     (nil when absent).
//   - Elicitation(key string) (*protocol.ElicitResult, bool): returns the
//     answer to the elicitation/create request asked under key in the
//     previous round, and whether there is one.
//   - Sampling(key string) (*protocol.SamplingResult, bool): returns the
//     answer to the sampling/createMessage request asked under key in the
//     previous round, and whether there is one.
//   - Roots(key string) (*protocol.RootsResult, bool): returns the answer to
//     the roots/list request asked under key in the previous round, and
//     whether there is one.
//   - Carried(v any) (bool, error): decodes into v the data the previous
//     round passed to [Exchange.InputRequired] as carry.
//   - InputRequired(requests map[string]protocol.InputRequest, carry any) (*Response, error): returns
//     the input-required response of the next round: requests (by key, at
//     least one) and a sealed requestState that binds this request and
//     carries carry (any JSON-encodable value, or nil) to the next round,
//     where [Exchange.Carried] returns it.
//   - Run(ctx context.Context, h func(ctx context.Context) (*Response, error)) (*Response, error): runs
//     h, the exchange's handler, in a context where it can ask typed
//     questions ([Ask], [AskURL]) and keep computed values ([Keep]) as a
//     generated flow's branches do, and where [FlowID], [Round],
//     [Principal] and [ClientOf] answer.
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
//
// Its fields:
//
//   - Flow (string): tool or prompt name
//   - FlowID (string): the flow id ([FlowID]); "" only for a first call that
//     ran no branch and asked nothing
//   - Round (int): input-required results before this request (0 on a first
//     call)
//   - Keys ([]string): OnAsk: the inputRequests keys of the input-required
//     result, sorted
//   - Action (Action) is, for OnComplete, the branch that ran: accept,
//     decline or cancel; "" for an exchange handler, or a tool error no
//     branch produced (invalid arguments, a missing capability, the round
//     limit).
//   - IsError (bool): OnComplete: the result is a tool error
//   - Outcome (string) is what the request ended in: "asked" (an
//     input-required result), "completed", "declined" or "cancelled" (the
//     branch that ran, or a final tool error), "replayed" (a completed flow's
//     recorded response, nothing run), "rejected" (refused, see Reason), or
//     "failed" (the branch returned an error).
//   - Reason (string) is, for a rejected request, why, in one word:
//     "tampered" (the state failed authentication or is not one),
//     "unknown_key" (sealed under a key the ring no longer holds), "expired",
//     "future" (issued ahead of this clock), "other_principal",
//     "other_arguments", "other_tool" (another tool, method or mechanism),
//     "malformed" (opened but cannot be resumed), "too_large" (a size limit),
//     "store_forgot" ([ErrEpoch]), "store_unavailable" ([ErrStore]), "busy"
//     ([ErrClaimed]), "quota" ([ErrFlowQuota]), "invalid_params" (malformed
//     arguments or answers), or "other".
//   - Reasked ([]string) are, for an asked request, the JSON names of the
//     fields asked again because the answers to them broke the form's rules;
//     nil when the question is asked for the first time or as it stood.
type Event = engine.Event
