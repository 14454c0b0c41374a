package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

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
type Exchange struct {
	name   string
	opts   *Options
	req    *Request
	digest []byte
	st     *exchangeState // nil on a first call
}

// exchangeState is the plaintext inside an Exchange's sealed requestState.
// Kind keeps it apart from a Flow's state (flowState has no "x" and requires
// "k" and "s", which this lacks), so neither opens as the other.
type exchangeState struct {
	binding
	Kind   string            `json:"x"`           // always exchangeKind
	FlowID []byte            `json:"f"`           // random, fixed in round 1
	Asked  map[string]string `json:"q"`           // key → method asked in the last round
	Carry  json.RawMessage   `json:"c,omitempty"` // the handler's data from earlier rounds
	Round  int               `json:"r"`           // input-required results issued so far
}

const exchangeKind = "exchange"

// NewExchange starts handling one request of the tool or prompt called name.
// On a retry (req.RequestState non-empty) it opens the state and checks its
// binding and every answer to a key it asked.
//
// Errors: a plain error when opts or opts.Keys is nil; a *[ProtocolError]
// -32602 (for the adapter to send as the JSON-RPC error) when the arguments
// are not a JSON object, when the state fails to open or belongs to another
// tool, method, set of arguments or principal, or has expired (each reported
// to [Options.OnReject]), and when an answer to an asked key has the wrong
// shape (an elicitation answer under a sampling key, or an answer the adapter
// could not decode).
func NewExchange(name string, opts *Options, req *Request) (*Exchange, error) {
	o, digest, err := begin(context.Background(), opts, name, req)
	if err != nil {
		return nil, err
	}
	x := &Exchange{name: name, opts: o, req: req, digest: digest}
	if req.RequestState == "" {
		return x, nil
	}
	st, err := x.open(req.RequestState)
	if err != nil {
		return nil, o.rejectState(context.Background(), name, err)
	}
	for key, method := range st.Asked {
		ans, ok := req.InputResponses[key]
		if !ok {
			continue
		}
		if got := responseMethod(ans); got != method {
			return nil, &ProtocolError{Code: CodeInvalidParams,
				Message: fmt.Sprintf("inputResponses[%q] is not an answer to a %s request", key, method)}
		}
	}
	x.st = st
	return x, nil
}

func (x *Exchange) open(state string) (*exchangeState, error) {
	o := x.opts
	pt, err := o.Keys.Open(state, o.MaxStateSize)
	if err != nil {
		return nil, err
	}
	var st exchangeState
	if err := json.Unmarshal(pt, &st); err != nil {
		return nil, fmt.Errorf("requestState payload does not decode: %w", err)
	}
	if st.Kind != exchangeKind {
		return nil, errors.New("requestState was not issued by an exchange")
	}
	if err := st.check(x.name, x.req.Method, x.digest, x.req.Principal, o.Now(), o.ClockSkew); err != nil {
		return nil, err
	}
	if st.Round < 1 || len(st.Asked) == 0 || len(st.FlowID) == 0 {
		return nil, errors.New("requestState is incomplete")
	}
	return &st, nil
}

// responseMethod is the request method an answer replies to, or "" for nil
// (an answer the adapter could not decode).
func responseMethod(r InputResponse) string {
	switch v := r.(type) {
	case *ElicitResult:
		if v != nil {
			return (*ElicitRequest)(nil).Method()
		}
	case *SamplingResult:
		if v != nil {
			return (*SamplingRequest)(nil).Method()
		}
	case *RootsResult:
		if v != nil {
			return (*RootsRequest)(nil).Method()
		}
	}
	return ""
}

// Round returns how many input-required results preceded this request (0 on
// a first call).
func (x *Exchange) Round() int {
	if x.st == nil {
		return 0
	}
	return x.st.Round
}

// FlowID returns the exchange's random id, fixed in its first round ("" on a
// first call), so that a final step can be made idempotent.
func (x *Exchange) FlowID() string {
	if x.st == nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(x.st.FlowID)
}

// Arguments returns the request's raw arguments object (nil when absent).
// They are bound into the state: a retry with other arguments is rejected.
func (x *Exchange) Arguments() json.RawMessage { return x.req.Arguments }

// Capabilities returns the client capabilities this request declared.
func (x *Exchange) Capabilities() Capabilities { return x.req.Capabilities() }

// answer returns the answer under key if the sealed state asked key in the
// last round; answers without state or under keys not asked are ignored
// (MCP 2026-07-28, basic/patterns/mrtr: unknown keys are ignored).
func (x *Exchange) answer(key string) InputResponse {
	if x.st == nil {
		return nil
	}
	if _, asked := x.st.Asked[key]; !asked {
		return nil
	}
	return x.req.InputResponses[key]
}

// Elicitation returns the answer to the elicitation/create request asked
// under key in the previous round, and whether there is one.
func (x *Exchange) Elicitation(key string) (*ElicitResult, bool) {
	r, ok := x.answer(key).(*ElicitResult)
	return r, ok && r != nil
}

// Sampling returns the answer to the sampling/createMessage request asked
// under key in the previous round, and whether there is one.
func (x *Exchange) Sampling(key string) (*SamplingResult, bool) {
	r, ok := x.answer(key).(*SamplingResult)
	return r, ok && r != nil
}

// Roots returns the answer to the roots/list request asked under key in the
// previous round, and whether there is one.
func (x *Exchange) Roots(key string) (*RootsResult, bool) {
	r, ok := x.answer(key).(*RootsResult)
	return r, ok && r != nil
}

// Carried decodes into v the data the previous round passed to
// [Exchange.Ask] as carry. It reports false, leaving v alone, when there is
// none (a first call, or a nil carry). The data was sealed by this server, so
// it is as trustworthy as the server that wrote it; an error means it does
// not fit v.
func (x *Exchange) Carried(v any) (bool, error) {
	if x.st == nil || len(x.st.Carry) == 0 {
		return false, nil
	}
	if err := json.Unmarshal(x.st.Carry, v); err != nil {
		return false, fmt.Errorf("mcpgen: carried state of %q: %w", x.name, err)
	}
	return true, nil
}

// Ask returns the input-required response of the next round: requests (by
// key, at least one) and a sealed requestState that binds this request and
// carries carry (any JSON-encodable value, or nil) to the next round, where
// [Exchange.Carried] returns it. The state travels to the client: carry is
// encrypted, but it adds to the state's size, which must stay within
// [Options.MaxStateSize] for the retry to be accepted.
//
// Errors: a *[ProtocolError] -32021 with data.requiredCapabilities when a
// request needs a capability the client did not declare (ask only for what
// the client declared; pick with [Exchange.Capabilities] first); a plain
// error for an empty map, an empty key, a nil or unknown request, or a carry
// that does not encode. When [Options.MaxRounds] rounds were already issued,
// or when a legacy client (ProtocolVersion before 2026-07-28, served through
// an SDK bridge that answers a single round) already answered one, Ask
// returns a complete response holding a tool error result instead.
func (x *Exchange) Ask(requests map[string]InputRequest, carry any) (*Response, error) {
	if len(requests) == 0 {
		return nil, fmt.Errorf("mcpgen: %s: Ask needs at least one input request", x.name)
	}
	caps := x.Capabilities()
	asked := make(map[string]string, len(requests))
	var missing []string
	required := map[string]any{}
	for key, ir := range requests {
		if key == "" || ir == nil || requiredCapability(ir) == nil {
			return nil, fmt.Errorf("mcpgen: %s: input request %q is empty or of unknown type %T", x.name, key, ir)
		}
		asked[key] = ir.Method()
		if !caps.Supports(ir) {
			missing = append(missing, fmt.Sprintf("%s (%s)", key, ir.Method()))
			for k, v := range requiredCapability(ir) {
				required[k] = v
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, &ProtocolError{
			Code:    CodeMissingCapability,
			Message: x.name + " needs client capabilities the request did not declare for " + strings.Join(missing, ", "),
			Data:    map[string]any{"requiredCapabilities": required},
		}
	}
	round := x.Round()
	if round >= x.opts.MaxRounds {
		return complete(ToolError("%s: gave up after %d rounds of input requests", x.name, round)), nil
	}
	if v := x.req.ProtocolVersion; v != "" && v < ProtocolMRTR && round >= 1 {
		// An SDK bridges one round for a legacy session and re-runs the
		// handler once; a second input-required result would reach a client
		// that cannot read it (DESIGN.md, "The flow", step 7).
		return complete(ToolError("%s: needs another round of input, but protocol %s clients answer only one", x.name, v)), nil
	}
	st := &exchangeState{
		binding: x.opts.bind(x.name, x.req, x.digest),
		Kind:    exchangeKind, Asked: asked, Round: round + 1,
	}
	if x.st != nil {
		st.FlowID = x.st.FlowID
	} else {
		st.FlowID = newFlowID()
	}
	if carry != nil {
		b, err := json.Marshal(carry)
		if err != nil {
			return nil, fmt.Errorf("mcpgen: %s: encoding carried state: %w", x.name, err)
		}
		st.Carry = b
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("mcpgen: encoding requestState: %w", err)
	}
	return &Response{InputRequests: requests, RequestState: x.opts.Keys.Seal(b)}, nil
}
