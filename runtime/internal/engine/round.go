package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// round is one request of a multi-round call (MCP 2026-07-28,
// basic/patterns/mrtr) as the round engine sees it. Every multi-round
// mechanism — a generated [Flow], a hand-written [Exchange] — runs on it, so
// opening and binding the requestState, the round limit, and sealing the
// next state live here once.
type round struct {
	ctx    context.Context // the request's, for the store's epoch when issue seals round 1
	name   string          // tool or prompt name, bound into the state
	kind   string          // state.Kind of the mechanism: "" (Flow) or "exchange"
	o      *Options        // with defaults filled in
	req    *protocol.Request
	digest []byte // SHA-256 of the canonical arguments
	max    int    // the round limit (Options.MaxRounds or a per-flow override)
	st     *state // the opened, bound state of a retry; nil on a first call
	ran    bool   // a branch (or an exchange's handler) ran in this request
	id     []byte // a first call's flow id, made by flowID when first needed
	// idText is idTextOf as base64url: a request encodes its flow id once
	// (see flowIDText).
	idText   string
	idTextOf []byte
	pages    []string // URL-mode pages whose answers the branch received (see dropPages)
	created  []string // URL-mode pages this request put in the store (see dropPages)
	waited   bool     // awaitPages already waited for this request's page
	// reasked are the fields asked again because their answers broke
	// rules (see Event.Reasked).
	reasked []string
	// changed: the answer this request carries is to a question that has
	// changed since (its message, descriptions, options or rules), so it
	// was not applied (see refuse).
	changed bool
	// emptyAccept: the answer this request carries accepted a form with
	// required fields and held no content at all (see askForm).
	emptyAccept bool

	// For the request's one log record and hooks (see end).
	action   Action // the branch dispatched (a flow's); "" for an exchange
	replayed bool   // the response is a completed flow's record
	logged   bool   // the request's record was written
}

// newRound checks opts and the limits of req and digests its arguments: the
// start of every request of a multi-round call. Errors: a plain error when
// opts or opts.Keys is nil; a *protocol.Error -32602 when a limit is exceeded
// or the arguments are not a JSON object.
func newRound(ctx context.Context, opts *Options, name string, req *protocol.Request) (*round, error) {
	if opts == nil || opts.Keys == nil {
		return nil, errors.New("mcpgen: Options.Keys is required")
	}
	o := opts.withDefaults()
	r := &round{ctx: ctx, name: name, o: o, req: req, max: o.MaxRounds}
	if err := o.checkLimits(ctx, r); err != nil {
		return nil, err
	}
	digest, tokens, err := canonicalArgs(req.Arguments)
	if tokens {
		decoded("digest")
	}
	if err != nil {
		r.end(ctx, nil, err)
		return nil, &protocol.Error{Code: protocol.CodeInvalidParams, Message: err.Error()}
	}
	r.digest = digest
	return r, nil
}

// open opens the request's requestState, when it has one, and checks its
// binding (tool, method, arguments, principal, expiry). A state that fails is
// reported to Options.OnReject and returned as a -32602 *protocol.Error; on
// success r.st holds it. A request without state leaves r.st nil.
func (r *round) open(ctx context.Context) error {
	if r.req.RequestState == "" {
		return nil
	}
	st, err := r.o.open(r.req.RequestState, r.name, r.req.Method, r.digest, r.req.Principal, r.o.Now())
	if err == nil && st.Kind != r.kind {
		err = &bindError{"other_tool", fmt.Sprintf("requestState was issued by %s, not %s", kindName(st.Kind), kindName(r.kind))}
	}
	if err != nil {
		return r.reject(ctx, err)
	}
	r.st = st
	return nil
}

// reject reports a requestState that failed to open or bind to OnReject and
// returns the -32602 error for the adapter.
func (r *round) reject(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	return &protocol.Error{Code: protocol.CodeInvalidParams, Message: "invalid requestState: " + err.Error()}
}

// rejected reports a refused request to OnReject and ends its record (see
// end) with the reason.
func (r *round) rejected(ctx context.Context, err error) {
	if r.o.OnReject != nil {
		r.o.OnReject(ctx, Rejection{Flow: r.name, Reason: err.Error(), Err: err})
	}
	r.end(ctx, nil, err)
}

// end writes the request's one record to Options.Logger and calls OnAsk,
// OnComplete and OnEnd, once per request (later calls do nothing). What
// happened ([Event].Outcome) is one of: asked (an input-required result; its
// inputRequests keys), completed, declined or cancelled (the branch that
// ran; is_error for a tool error), replayed (a completed flow's recorded
// response), rejected (err, the reason: a refused state, a broken limit,
// malformed arguments or answers, a store failure), failed (the branch
// returned an error, not logged: it may quote the user's answers). Neither
// answers nor the state are logged.
func (r *round) end(ctx context.Context, resp *Response, err error) {
	if r.logged {
		return
	}
	r.logged = true
	if r.o.OnAsk == nil && r.o.OnComplete == nil && r.o.OnEnd == nil && r.o.Logger == nil {
		return // no one to tell: build no record
	}
	ev := Event{Flow: r.name}
	if r.st != nil {
		ev.FlowID, ev.Round = r.flowIDText(r.st.FlowID), r.st.Round
	} else if r.id != nil {
		ev.FlowID = r.flowIDText(r.id)
	}
	attrs := make([]slog.Attr, 0, 6)
	switch {
	case r.replayed:
		ev.Outcome = "replayed"
	case err != nil && (r.ran && !isProtocolError(err)):
		ev.Outcome = "failed"
	case err != nil:
		ev.Outcome, ev.Reason = "rejected", refusalReason(err)
		attrs = append(attrs, slog.String("reason", err.Error()))
	case resp == nil:
		return
	case resp.Result == nil:
		ev.Outcome = "asked"
		for k := range resp.InputRequests {
			ev.Keys = append(ev.Keys, k)
		}
		slices.Sort(ev.Keys)
		ev.Reasked = r.reasked
		attrs = append(attrs, slog.Any("keys", ev.Keys))
	default:
		ev.Action, ev.IsError = r.action, resp.Result.IsError
		switch r.action {
		case Decline:
			ev.Outcome = "declined"
		case Cancel:
			ev.Outcome = "cancelled"
		default:
			ev.Outcome = "completed"
		}
		attrs = append(attrs, slog.Bool("is_error", ev.IsError))
	}
	switch ev.Outcome {
	case "asked":
		if r.o.OnAsk != nil {
			r.o.OnAsk(ctx, ev)
		}
	case "completed", "declined", "cancelled":
		if r.o.OnComplete != nil {
			r.o.OnComplete(ctx, ev)
		}
	}
	if r.o.OnEnd != nil {
		r.o.OnEnd(ctx, ev)
	}
	if r.o.Logger == nil {
		return
	}
	attrs = append([]slog.Attr{slog.String("tool", ev.Flow), slog.String("flow_id", ev.FlowID),
		slog.Int("round", ev.Round), slog.String("outcome", ev.Outcome)}, attrs...)
	level := slog.LevelInfo
	if ev.Outcome == "rejected" || ev.Outcome == "failed" {
		level = slog.LevelWarn
	}
	r.o.Logger.LogAttrs(ctx, level, "mcpgen round", attrs...)
}

// maxTraceContext bounds what [Options].TraceContext may seal into a
// state: a W3C traceparent is 55 characters; anything longer is dropped.
const maxTraceContext = 64

// refusalReason is the short word for why a request was rejected
// ([Event].Reason), from the error that rejected it: the engine's
// sentinels, a binding that failed (see bindError), or the JSON-RPC code.
func refusalReason(err error) string {
	var be *bindError
	var le *limitError
	switch {
	case errors.As(err, &be):
		return be.reason
	case errors.Is(err, ErrStateAuth), errors.Is(err, ErrStateEncoding), errors.Is(err, ErrStateFormat):
		return "tampered"
	case errors.Is(err, ErrStateKey):
		return "unknown_key"
	case errors.Is(err, ErrStateTooLarge), errors.Is(err, ErrContentTooLarge), errors.Is(err, ErrArgumentsTooLarge), errors.As(err, &le):
		return "too_large"
	case errors.Is(err, ErrEpoch):
		return "store_forgot"
	case errors.Is(err, ErrClaimed):
		return "busy"
	case errors.Is(err, ErrFlowQuota):
		return "quota"
	case errors.Is(err, ErrStore):
		return "store_unavailable"
	}
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Code == protocol.CodeInvalidParams {
		return "invalid_params"
	}
	return "other"
}

func isProtocolError(err error) bool {
	var pe *protocol.Error
	return errors.As(err, &pe)
}

// flowID returns the flow id of the call this request belongs to: the
// state's on a retry; on a first call a random one, made the first time it is
// needed (a branch runs, or a round is issued) and the same for the rest of
// the request, so that a branch that asks seals the id it already saw.
func (r *round) flowID() []byte {
	if r.st != nil {
		return r.st.FlowID
	}
	if r.id == nil {
		r.id = newFlowID()
	}
	return r.id
}

// flowIDText returns the flow id id as text, base64url without padding
// (RFC 4648 §5, 22 characters): what runtime.FlowID, the store's keys,
// Event.FlowID and the log show. The last id encoded is kept, so that a
// request encodes its flow id once.
func (r *round) flowIDText(id []byte) string {
	if r.idText == "" || !bytes.Equal(r.idTextOf, id) {
		r.idTextOf, r.idText = id, base64.RawURLEncoding.EncodeToString(id)
	}
	return r.idText
}

// legacy reports whether the client speaks a protocol before 2026-07-28:
// it is asked on its session (see [Converse]), sent schemas its version
// knows, and told of a completed URL-mode page by notification.
func (r *round) legacy() bool {
	v := r.req.ProtocolVersion
	return v != "" && v < protocol.VersionMRTR
}

// refuse returns the complete tool-error response that ends a call which
// needs another round it may not have: after max input-required results
// (a client on a session is asked each round within its one request, see
// [Converse], under the same limit). It returns nil when st (nil on a first
// call) may ask again. problem, when set,
// is what was wrong with the last answer.
func (r *round) refuse(st *state, problem string) *Response {
	n := 0
	if st != nil {
		n = st.Round - st.Waits
	}
	var msg string
	switch {
	case n >= r.max:
		msg = fmt.Sprintf("%s: gave up after %d rounds of input requests without a usable answer", r.name, n)
		switch {
		case problem != "":
			msg += "; last problem: " + problem
		case r.changed:
			msg += "; the question changed between rounds (its message, a description, its options or a rule), " +
				"so the answer to the earlier one was not applied: keep what shapes a question the same from round to round"
		}
	default:
		return nil
	}
	return complete(&Result{Text: msg, IsError: true})
}

// issue returns the input-required response of the next round: requests (by
// key), and st sealed with the round counted, asked recorded as what this
// round asks, the flow id fixed (the request's [round.flowID] in round 1) and
// the binding of round 1 kept (so asking again never extends the expiry). When the call may not ask
// again (see refuse) it returns that tool error instead and seals nothing.
// Round 1's binding carries the store's epoch for the flow's id ([Store.Epoch]); when the
// store cannot give it, the request is refused with -32603 (see
// storeFailed) and nothing is sealed.
func (r *round) issue(st *state, asked []asked, requests map[string]protocol.InputRequest, problem string) (*Response, error) {
	if resp := r.refuse(st, problem); resp != nil {
		return resp, nil
	}
	if len(st.FlowID) == 0 {
		st.FlowID = r.flowID()
	}
	if st.Expires == 0 {
		epoch, err := r.o.Store.Epoch(r.ctx, r.flowIDText(st.FlowID))
		if err == nil && epoch == "" {
			err = errors.New("the store returned an empty epoch")
		}
		if err != nil {
			return nil, r.storeFailed(r.ctx, fmt.Errorf("%w: epoch: %w", ErrStore, err))
		}
		st.binding = r.o.bind(r.name, r.req, r.digest)
		st.Epoch = epoch
	}
	st.Round++
	st.Kind = r.kind
	st.Trace = ""
	if r.o.TraceContext != nil {
		if t := r.o.TraceContext(r.ctx); len(t) <= maxTraceContext {
			st.Trace = t
		}
	}
	st.Asked = asked
	sealed, err := r.o.seal(st)
	if err != nil {
		return nil, err
	}
	return &Response{InputRequests: requests, RequestState: sealed}, nil
}

// kindName names a state.Kind for a rejection reason.
func kindName(kind string) string {
	if kind == "" {
		return "a flow"
	}
	return "an " + kind
}

func complete(r *Result) *Response { return &Response{Result: r} }

// Event is one request of a multi-round call as [Options].OnAsk, OnComplete
// and OnEnd see it, for metrics and tracing: never an answer's value or the
// state. See runtime.Event.
type Event struct {
	Flow   string   // tool or prompt name
	FlowID string   // the flow id ([FlowID]); "" only for a first call that ran no branch and asked nothing
	Round  int      // input-required results before this request (0 on a first call)
	Keys   []string // OnAsk: the inputRequests keys of the input-required result, sorted
	// Action is, for OnComplete, the branch that ran: accept, decline or
	// cancel; "" for an exchange handler, or a tool error no branch produced
	// (invalid arguments, a missing capability, the round limit).
	Action  Action
	IsError bool // OnComplete: the result is a tool error
	// Outcome is what the request ended in: "asked" (an input-required
	// result), "completed", "declined" or "cancelled" (the branch that ran,
	// or a final tool error), "replayed" (a completed flow's recorded
	// response, nothing run), "rejected" (refused, see Reason), or "failed"
	// (the branch returned an error).
	Outcome string
	// Reason is, for a rejected request, why, in one word: "tampered" (the
	// state failed authentication or is not one), "unknown_key" (sealed
	// under a key the ring no longer holds), "expired", "future" (issued
	// ahead of this clock), "other_principal", "other_arguments",
	// "other_tool" (another tool, method or mechanism), "malformed" (opened
	// but cannot be resumed), "too_large" (a size limit), "store_forgot"
	// ([ErrEpoch]), "store_unavailable" ([ErrStore]), "busy"
	// ([ErrClaimed]), "quota" ([ErrFlowQuota]), "invalid_params" (malformed
	// arguments or answers), or "other".
	Reason string
	// Reasked are, for an asked request, the JSON names of the fields asked
	// again because the answers to them broke the form's rules; nil when
	// the question is asked for the first time or as it stood.
	Reasked []string
}
