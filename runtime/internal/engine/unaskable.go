package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// unaskableError is the [ErrUnaskable] that [Ask] and [AskURL] return when
// the client of the request cannot be sent the question: what the call ends
// in when a branch of the same request returns it (see round.unasked).
type unaskableError struct {
	question string    // the question's name
	why      string    // why the client cannot be asked
	r        *round    // the request it belongs to
	resp     *Response // what the call ends in when the branch returns the error
	err      error     // or the protocol error it ends in
}

// Error returns the text the call ends with when the branch returns e.
func (e *unaskableError) Error() string {
	switch {
	case e.err != nil:
		return e.err.Error()
	case e.resp != nil && e.resp.Result != nil:
		return e.resp.Result.Text
	}
	return fmt.Sprintf("mcpgen: %s cannot be asked: %s", e.question, e.why)
}

// Is reports whether target is [ErrUnaskable].
func (e *unaskableError) Is(target error) bool { return target == ErrUnaskable }

// unaskable returns the *unaskableError of question name in this request,
// which ends the call in resp or err when a branch returns it.
func (r *round) unaskable(name, why string, resp *Response, err error) *unaskableError {
	return &unaskableError{question: name, why: why, r: r, resp: resp, err: err}
}

// unasked returns the response a branch's returned error err ends the call
// in when it is (or wraps) an *unaskableError of this request; ok is false
// otherwise.
func (r *round) unasked(err error) (resp *Response, ok bool, rerr error) {
	var ue *unaskableError
	if err == nil || !errors.As(err, &ue) || ue.r != r {
		return nil, false, nil
	}
	return ue.resp, true, ue.err
}

// cannotSend returns the *unaskableError of question p ([Ask], [AskURL])
// when the client of this request cannot be sent it (form mode: it declared
// no form elicitation; URL mode: no URL-mode elicitation), ending the call,
// when the branch returns it, as asking it would have (see askForm); nil
// when it can be sent.
func (r *round) cannotSend(p *pendingQuestion) *unaskableError {
	caps := r.req.Capabilities()
	switch {
	case p.url == "" && caps.FormElicitation, p.url != "" && caps.URLElicitation:
		return nil
	case p.url == "":
		resp, err := r.defaultCannotAsk(p, "")
		return r.unaskable(p.name, undeclared(r.req, "form elicitation"), resp, err)
	case p.page != "":
		final, err := r.noURLElicitation("question " + strconv.Quote(p.name))
		return r.unaskable(p.name, undeclared(r.req, "URL-mode elicitation"), completeOrNil(final), err)
	}
	why := undeclared(r.req, "URL-mode elicitation")
	return r.unaskable(p.name, why, complete(ToolError("%s needs the user to complete a step at a URL (%s), but %s", r.name, p.name, why)), nil)
}

// completeOrNil is complete(res), or nil for a nil res.
func completeOrNil(res *Result) *Response {
	if res == nil {
		return nil
	}
	return complete(res)
}

// fieldsOf returns the JSON names of p's fields, in order.
func (p *pendingQuestion) fieldsOf() []string {
	if p.schema == nil {
		return nil
	}
	var out []string
	for pair := p.schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		out = append(out, pair.Key)
	}
	return out
}

// ctxUnaskedKey is the context key of the form an Unaskable fallback runs
// for, which [DefaultUnaskable] reads.
type ctxUnaskedKey struct{}

type unasked struct {
	r   *round
	p   *pendingQuestion
	why string // as cannotAsk was given it
}

// DefaultUnaskable returns what the flow answers, without an Unaskable method
// on the handler, when the tool's own form must be asked but the client
// cannot be asked (it declared no form elicitation, MCP 2026-07-28,
// client/elicitation, capabilities; or the adapter cannot send it a request):
// the tool error naming each field with its title and constraints, which ones
// the model can pass as arguments and call again and which only the user can
// confirm; or, under [ProtocolErrorOnMissingCapability], nil and the JSON-RPC
// -32021 *protocol.Error with data.requiredCapabilities
// ({"elicitation":{"form":{}}}). See runtime.DefaultUnaskable.
func DefaultUnaskable(ctx context.Context) (*Result, error) {
	u, ok := ctx.Value(ctxUnaskedKey{}).(*unasked)
	if !ok {
		return nil, errors.New("mcpgen: runtime.DefaultUnaskable outside a handler's Unaskable method")
	}
	resp, err := u.r.defaultCannotAsk(u.p, u.why)
	if resp == nil {
		return nil, err
	}
	return resp.Result, err
}

// runUnaskable runs the handler's Unaskable fallback for p, the tool's own
// form, which the client cannot be asked (why, as cannotAsk was given it:
// "" when it declared no form elicitation), or, without one, answers as
// [DefaultUnaskable] does. The fallback runs like a branch: [FlowID],
// [Principal] and [ClientOf] answer in it, and a question it asks ([Ask])
// returns [ErrUnaskable]. It cannot ask: ErrInputRequired from it (a
// URL-mode question asked of a client that declared URL mode alone) ends the
// call in a tool error that says so.
func (c *call) runUnaskable(p *pendingQuestion, why string) (*Response, error) {
	if c.f.def.Unaskable == nil {
		return c.r.defaultCannotAsk(p, why)
	}
	reason := why
	if reason == "" {
		reason = undeclared(c.r.req, "form elicitation")
	}
	ctx := c.ctx
	if ctx == nil {
		ctx = c.r.ctx
	}
	ctx = context.WithValue(ctx, ctxUnaskedKey{}, &unasked{r: c.r, p: p, why: why})
	a := newAsker(c.r)
	a.flowID = c.r.flowIDText(c.r.flowID())
	ctx = context.WithValue(ctx, ctxAskerKey{}, a)
	c.r.ran = true
	res, err := guard(c.r.o.Logger, c.f.def.Name+"'s Unaskable", func() (*Result, error) {
		return c.f.def.Unaskable(ctx, c.args, p.fieldsOf(), reason)
	})
	if resp, ok, err := c.r.unasked(err); ok {
		return resp, err
	}
	if errors.Is(err, ErrInputRequired) {
		return complete(ToolError("%s: its Unaskable method asked a question, but this client cannot be asked (%s)", c.f.def.Name, reason)), nil
	}
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = &Result{}
	}
	return complete(res), nil
}

// missingForm is the -32021 error of a form the client cannot be asked.
func missingForm(msg string) *protocol.Error {
	return &protocol.Error{
		Code:    protocol.CodeMissingCapability,
		Message: msg,
		Data: map[string]any{"requiredCapabilities": map[string]any{
			"elicitation": map[string]any{"form": map[string]any{}}}},
	}
}
