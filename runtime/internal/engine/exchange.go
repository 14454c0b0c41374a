package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Exchange runs the rounds of a hand-written tools/call or prompts/get
// handler that asks the client for input itself — sampling/createMessage,
// roots/list, or elicitation/create requests it builds — instead of through
// a generated [Flow] (SEP-2322, MCP 2026-07-28 basic/patterns/mrtr). See
// runtime.Exchange.
type Exchange struct {
	r *round // r.st is nil on a first call
	a *asker // set by Run: the typed questions of this request
}

// NewExchange starts handling one request of the tool or prompt called name.
// See runtime.NewExchange.
func NewExchange(name string, opts *Options, req *protocol.Request) (*Exchange, error) {
	ctx := context.Background()
	r, err := newRound(ctx, opts, name, req)
	if err != nil {
		return nil, err
	}
	r.kind = exchangeKind
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	r.flowID() // made now, so that FlowID never makes it concurrently
	if r.st != nil {
		for _, a := range r.st.Asked {
			ans, ok := req.InputResponses[a.Key]
			if !ok {
				continue
			}
			if got := responseMethod(ans); got != a.method() {
				err := &protocol.Error{Code: protocol.CodeInvalidParams,
					Message: fmt.Sprintf("inputResponses[%q] is not an answer to a %s request", a.Key, a.method())}
				r.end(ctx, nil, err)
				return nil, err
			}
		}
	}
	return &Exchange{r: r}, nil
}

// exchangeKind is the state.Kind of an Exchange's requestState.
const exchangeKind = "exchange"

// responseMethod is the request method an answer replies to, or "" for nil
// (an answer the adapter could not decode).
func responseMethod(r protocol.InputResponse) string {
	switch v := r.(type) {
	case *protocol.ElicitResult:
		if v != nil {
			return (*protocol.ElicitRequest)(nil).Method()
		}
	case *protocol.SamplingResult:
		if v != nil {
			return (*protocol.SamplingRequest)(nil).Method()
		}
	case *protocol.RootsResult:
		if v != nil {
			return (*protocol.RootsRequest)(nil).Method()
		}
	}
	return ""
}

// Arguments returns the request's raw arguments object (nil when absent).
// They are bound into the state: a retry with other arguments is rejected.
func (x *Exchange) Arguments() json.RawMessage { return x.r.req.Arguments }

// answer returns the answer under key if the sealed state asked key in the
// last round; answers without state or under keys not asked are ignored
// (MCP 2026-07-28, basic/patterns/mrtr: unknown keys are ignored).
func (x *Exchange) answer(key string) protocol.InputResponse {
	if x.r.st == nil || x.r.st.lookup(key) == nil {
		return nil
	}
	return x.r.req.InputResponses[key]
}

// Elicitation returns the answer to the elicitation/create request asked
// under key in the previous round, and whether there is one.
func (x *Exchange) Elicitation(key string) (*protocol.ElicitResult, bool) {
	r, ok := x.answer(key).(*protocol.ElicitResult)
	return r, ok && r != nil
}

// Sampling returns the answer to the sampling/createMessage request asked
// under key in the previous round, and whether there is one.
func (x *Exchange) Sampling(key string) (*protocol.SamplingResult, bool) {
	r, ok := x.answer(key).(*protocol.SamplingResult)
	return r, ok && r != nil
}

// Roots returns the answer to the roots/list request asked under key in the
// previous round, and whether there is one.
func (x *Exchange) Roots(key string) (*protocol.RootsResult, bool) {
	r, ok := x.answer(key).(*protocol.RootsResult)
	return r, ok && r != nil
}

// Carried decodes into v the data the previous round passed to
// [Exchange.InputRequired] as carry. It reports false, leaving v alone, when there is
// none (a first call, or a nil carry). The data was sealed by this server, so
// it is as trustworthy as the server that wrote it; an error means it does
// not fit v.
func (x *Exchange) Carried(v any) (bool, error) {
	if x.r.st == nil || len(x.r.st.Carry) == 0 {
		return false, nil
	}
	if err := json.Unmarshal(x.r.st.Carry, v); err != nil {
		return false, fmt.Errorf("mcpgen: carried state of %q: %w", x.r.name, err)
	}
	return true, nil
}

// InputRequired returns the input-required response of the next round:
// requests (by key, at least one) and a sealed requestState that binds this
// request and carries carry (any JSON-encodable value, or nil) to the next
// round, where [Exchange.Carried] returns it. It sends requests the form
// engine does not model — sampling/createMessage, roots/list, an
// elicitation/create the handler built, several in one round — and reads
// their answers back with [Exchange.Sampling], [Exchange.Roots] and
// [Exchange.Elicitation]; a typed question (a //mcpgen:question struct) is
// asked with [Ask], in an exchange handler as in a branch. The state travels to the client: carry is
// encrypted, but it adds to the state's size, which must stay within
// [Options.MaxStateSize] for the retry to be accepted.
//
// Errors: a *[protocol.Error] -32021 with data.requiredCapabilities when a
// request needs a capability the client did not declare (ask only for what
// the client declared; pick with [ClientOf](ctx).Filter first); a plain
// error for an empty map, an empty key, a nil or unknown request, or a carry
// that does not encode. When [Options.MaxRounds] rounds were already issued,
// InputRequired returns a complete response holding a tool error result
// instead. A
// client on a session (ProtocolVersion before 2026-07-28) is asked each
// round within its one request, when the adapter runs the exchange through
// [Converse].
func (x *Exchange) InputRequired(requests map[string]protocol.InputRequest, carry any) (*Response, error) {
	name := x.r.name
	if len(requests) == 0 {
		return nil, fmt.Errorf("mcpgen: %s: InputRequired needs at least one input request", name)
	}
	caps := x.r.req.Capabilities()
	asks := make([]asked, 0, len(requests))
	var missing []string
	required := map[string]any{}
	for key, ir := range requests {
		if key == "" || ir == nil || requiredCapability(ir) == nil {
			return nil, fmt.Errorf("mcpgen: %s: input request %q is empty or of unknown type %T", name, key, ir)
		}
		a := asked{Key: key}
		if m := ir.Method(); m != (*protocol.ElicitRequest)(nil).Method() {
			a.Method = m
		}
		asks = append(asks, a)
		if !caps.Supports(ir) {
			missing = append(missing, fmt.Sprintf("%s (%s)", key, ir.Method()))
			for k, v := range requiredCapability(ir) {
				required[k] = v
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, &protocol.Error{
			Code:    protocol.CodeMissingCapability,
			Message: name + " needs client capabilities the request did not declare for " + strings.Join(missing, ", "),
			Data:    map[string]any{"requiredCapabilities": required},
		}
	}
	sort.Slice(asks, func(i, j int) bool { return asks[i].Key < asks[j].Key })
	st := x.base()
	if x.a != nil {
		st.Replies, st.Kept = x.a.replies, x.a.kept
	}
	if carry != nil {
		b, err := json.Marshal(carry)
		if err != nil {
			return nil, fmt.Errorf("mcpgen: %s: encoding carried state: %w", name, err)
		}
		st.Carry = b
	}
	return x.r.issue(st, asks, requests, "")
}

// base returns the state the next round of this exchange starts from: the
// binding, flow id and round count of the state it resumed (on a first call,
// only the flow id [FlowID] gives the handler).
func (x *Exchange) base() *state {
	if x.r.st == nil {
		return &state{FlowID: x.r.flowID()}
	}
	return &state{binding: x.r.st.binding, FlowID: x.r.st.FlowID, Round: x.r.st.Round, Waits: x.r.st.Waits}
}

// Run runs h, the exchange's handler, in a context where it can ask typed
// questions ([Ask], [AskURL]) and keep computed values ([Keep]) as a
// generated flow's branches do, and where [FlowID], [Round], [Principal]
// and [ClientOf] answer. When h
// returns [ErrInputRequired] from a question, Run returns that question's
// input-required response instead (or the tool error that ends the call);
// anything else h returns is returned unchanged. Adapters call it; a
// handler's own [Exchange.InputRequired] rounds keep the questions already
// answered.
//
// On a retry, h runs at most once per exchange, as a flow's branches do
// (see [Store]): a retry of an exchange that completed returns the recorded
// response without running h; a store failure is a -32603 *[protocol.Error]
// and h does not run.
func (x *Exchange) Run(ctx context.Context, h func(ctx context.Context) (*Response, error)) (*Response, error) {
	return x.r.once(ctx, func(ctx context.Context) (*Response, error) {
		a := newAsker(x.r)
		a.flowID = x.r.flowIDText(x.r.flowID())
		if st := x.r.st; st != nil {
			a.round = st.Round
		}
		x.a = a
		x.r.ran = true
		ctx = context.WithValue(ctx, ctxAskerKey{}, a)
		ctx = context.WithValue(ctx, principalKey, x.r.req.Principal)
		resp, err := guard(x.r.o.Logger, x.r.name+"'s handler", func() (*Response, error) { return h(ctx) })
		if uresp, ok, uerr := x.r.unasked(err); ok {
			return uresp, uerr // a question the client cannot be asked, returned unchanged
		}
		if err != nil && errors.Is(err, ErrInputRequired) {
			base := x.base()
			if x.r.st != nil {
				base.Carry = x.r.st.Carry // what the handler's own rounds carried goes on
			}
			if next, ok, nerr := a.next(base); ok || nerr != nil {
				return next, nerr
			}
		}
		return resp, err
	})
}
