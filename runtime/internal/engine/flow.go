package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"

	gjsonschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/internal/exact"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Args is implemented by every struct mcpgen generates code for (through its
// pointer): a tool's arguments and a //mcpgen:question alike. See
// runtime.Args.
type Args interface {
	// MissingFields returns the JSON names of elicitable fields that hold no
	// answer, in field order.
	MissingFields() []string
	// RequestedSchema returns the flat requestedSchema for the named fields
	// (all missing ones when none are named), in field order.
	RequestedSchema(fields ...string) *jsonschema.Schema
	// ApplyContent validates a form's accepted content and sets the fields;
	// nothing is set when any field fails (*ValidationError).
	ApplyContent(content map[string]any) error
	// ApplyPartial sets every valid answer in content and leaves the rest,
	// returning a *ValidationError for the rest; for partial results.
	ApplyPartial(content map[string]any) error
	// Validate checks every rule on every field, and that required
	// elicitable fields are present.
	Validate() error
}

// Flow is one tool (or prompt) whose arguments may be elicited: what
// tools/call or prompts/get runs (MCP 2026-07-28, server/tools and
// server/prompts), asking the user for missing arguments with input-required
// results (basic/patterns/mrtr). See runtime.Flow.
type Flow struct {
	def Def
}

// errZeroFlow is what the zero Flow's Call returns.
var errZeroFlow = errors.New("mcpgen: this runtime.Flow was not made by a generated New<T>Flow")

// Name returns the tool's (or prompt's) name, as //mcpgen:tool gives it
// (MCP 2026-07-28, server/tools: Tool.name; server/prompts: Prompt.name):
// what an adapter registers and what every requestState the flow issues is
// bound to. It is "" only for the zero Flow.
func (f *Flow) Name() string { return f.def.Name }

// Description returns the tool's (or prompt's) description, as
// //mcpgen:tool gives it (MCP 2026-07-28, server/tools: Tool.description;
// server/prompts: Prompt.description), for an adapter to register; "" when
// there is none.
func (f *Flow) Description() string { return f.def.Description }

// decodedHook, when set (by tests), hears each decoding of a request's
// arguments into values on the way to the branch, by where it happens.
var decodedHook hook

type hook func(site string)

func (h hook) call(site string) {
	if h != nil {
		h(site)
	}
}

// decoded reports a decoding of a request's arguments to decodedHook.
func decoded(site string) { decodedHook.call(site) }

// undeclared says why the client of r cannot be asked through what ("form
// elicitation"): [protocol.Request.Unaskable], or that it declared no such
// thing.
func undeclared(r *protocol.Request, what string) string {
	if r.Unaskable != "" {
		return r.Unaskable
	}
	return "this client declared no " + what
}

// Response is what the flow returns: either a final Result, or input
// requests with the sealed state to echo.
type Response struct {
	Result        *Result
	InputRequests map[string]protocol.InputRequest
	RequestState  string
}

type ctxKey int

const principalKey ctxKey = 0

// Principal returns who is calling, as the adapter identified them
// (protocol.Request.Principal: for go-sdk, the authenticated user of the
// bearer token): the principal bound into the requestState (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security). See runtime.Principal.
func Principal(ctx context.Context) string {
	s, _ := ctx.Value(principalKey).(string)
	return s
}

// FlowID returns the id of the flow a branch (or an exchange handler) runs
// in: random, 22 characters of base64url, and never "" inside one. See
// runtime.FlowID.
func FlowID(ctx context.Context) string {
	if a := askerFrom(ctx); a != nil {
		return a.flowID
	}
	return ""
}

// Round returns how many input-required results preceded the branch (or
// the exchange handler) that is running: 0 on a first call, and outside
// one.
func Round(ctx context.Context) int {
	if a := askerFrom(ctx); a != nil {
		return a.round
	}
	return 0
}

// checkPlain validates the arguments against the tool's input schema
// ([Flow.InputSchema]: what tools/list shows the model), so that a plain argument
// the schema requires or bounds (a required origin, an amount's minimum) is
// refused before anything is asked, as an SDK's typed tool would refuse it.
// Elicitable fields are never required there, and their own rules are the
// generated Validate's. The schema is resolved once per flow.
func (f *Flow) checkPlain(raw json.RawMessage) error {
	v, ok := plainSchemas.Load(f)
	if !ok {
		v, _ = plainSchemas.LoadOrStore(f, resolveInputSchema(f))
	}
	rs, ok := v.(*gjsonschema.Resolved)
	if !ok {
		return fmt.Errorf("the tool's input schema does not resolve: %v", v)
	}
	var args any = map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		decodedHook.call("input schema")
		if err := json.Unmarshal(raw, &args); err != nil {
			return err
		}
	}
	return rs.Validate(args)
}

// plainSchemas holds each flow's resolved input schema (or the error that
// kept it from resolving), by *Flow: a flow's definition never changes.
var plainSchemas sync.Map

func resolveInputSchema(f *Flow) any {
	b, err := json.Marshal(f.InputSchema())
	if err != nil {
		return err
	}
	var s gjsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	return rs
}

// Call runs one request of the flow (MCP 2026-07-28, basic/patterns/mrtr): it
// validates the arguments, asks for missing fields with an input-required
// Response, and on a retry opens the state, applies the answer and runs
// exactly one branch — at most once per flow: a retry of a flow that
// completed returns the recorded response and runs nothing (see [Store]).
//
// Errors are *protocol.Error (for the adapter to return as a JSON-RPC error:
// -32602 for a rejected state or malformed inputResponses, -32021 for a
// missing capability when so configured, -32602 too for a retry whose flow
// the store may have forgotten ([ErrEpoch]: start the call again), -32603
// when [Options.Store] failed or a concurrent duplicate did not finish
// within [Options.ClaimWait]) or
// errors returned by the branch (recorded, and returned again on replay).
// Call on the zero Flow, which no New<T>Flow made, returns an error and does
// nothing else.
//
// A client asked within the request (req.Send set: a session of a protocol
// before 2026-07-28) gets every round of the call in this one request (see
// [Converse]).
func (f *Flow) Call(ctx context.Context, opts *Options, req *protocol.Request) (*Response, error) {
	if f.def.New == nil || f.def.Dispatch == nil {
		return nil, errZeroFlow
	}
	return Converse(ctx, req, flowRequest{f: f, opts: opts}.run)
}

// flowRequest is what runs each request of a call of a Flow (see
// [Converse]): the flow and the options it is called with.
type flowRequest struct {
	f    *Flow
	opts *Options
}

// run runs one request of the flow: what Call does for each round.
func (fr flowRequest) run(ctx context.Context, req *protocol.Request) (*Response, error) {
	return fr.f.call(ctx, fr.opts, req)
}

// call runs one request of the flow: it opens the round (the state is
// judged first: it binds arguments that passed the checks after it when
// it was issued), decodes the arguments (a tool error when they are
// invalid), and runs the rest at most once per flow (see [round.once] and
// [call.run]).
func (f *Flow) call(ctx context.Context, opts *Options, req *protocol.Request) (*Response, error) {
	r, err := newRound(ctx, opts, f.def.Name, req)
	if err != nil {
		return nil, err
	}
	ctx = context.WithValue(ctx, principalKey, req.Principal)
	if f.def.MaxRounds > 0 {
		r.max = f.def.MaxRounds
	}
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	if err := f.checkBranch(ctx, r); err != nil {
		return nil, err
	}
	args := f.def.New()
	if err := f.decode(args, req); err != nil {
		resp := complete(ToolError("invalid arguments: %v", err))
		r.end(ctx, resp, nil)
		return resp, nil
	}
	c := &call{f: f, r: r, args: args}
	return r.once(ctx, c.run)
}

// checkBranch refuses (-32602) a state that resumes a flow without
// elicitable fields on a branch other than Accept. Nothing is asked before
// the branch of such a flow, so its states all carry Accept (see
// Def.Dispatch): this one came from another flow of the same name,
// and Decline or Cancel, which its handler does not have, must not run.
func (f *Flow) checkBranch(ctx context.Context, r *round) error {
	if len(f.def.Fields) > 0 || r.st == nil {
		return nil
	}
	if rep, ok := r.st.Replies[""]; ok && rep.Action == Accept {
		return nil
	}
	return r.reject(ctx, &bindError{"malformed", "requestState resumes a form or a branch other than Accept, but this tool has no elicitable field"})
}

// run is the part of a request that may run a branch (see [round.once]):
// it shapes the tool's own form, decides it (see [round.form]) on every
// request, and asks it, ends the call, or runs the branch of its reply. On
// a retry whose branch asked a question, the form's reply is settled while
// the form, as computed now, is the one answered; when its options changed
// since, it is asked again, as a question is.
func (c *call) run(ctx context.Context) (*Response, error) {
	if resp, err := c.prepare(ctx); resp != nil || err != nil {
		return resp, err
	}
	st := c.r.st
	_, settled := st.replies()[""]
	if st != nil && !settled && (len(st.Asked) != 1 || len(st.Asked[0].Fields) == 0 || st.Asked[0].Name != "") {
		return nil, c.r.reject(ctx, &bindError{"other_tool", "requestState was not issued by a flow"})
	}
	fm := c.form()
	st = c.resumed(fm, st)
	d, err := c.r.form(fm, st)
	switch {
	case err != nil:
		return nil, err
	case d.final != nil:
		return complete(d.final), nil
	case d.ask != nil:
		return c.r.askForm(askBase(st, settled), d.ask)
	}
	switch d.rep.Action {
	case Accept, Decline, Cancel:
	default:
		return nil, c.r.reject(ctx, &bindError{"malformed", fmt.Sprintf("requestState has unknown branch %q", d.rep.Action)})
	}
	return c.dispatch(ctx, st, d.rep)
}

// resumed returns the state the tool's form fm is decided from: st, or, on
// a first call of a flow that opted in (//mcpgen:unsealed) carrying an
// answer under the round-1 key, the state of that round (see unsealed):
// the answer is taken as the reply to the round-1 form (answers under
// other keys are ignored; without one the form is asked as on any first
// call).
func (c *call) resumed(fm *form, st *state) *state {
	if st != nil || !c.f.def.AcceptUnsealed {
		return st
	}
	if _, answered := c.r.req.InputResponses[c.f.def.Key]; !answered {
		return st
	}
	return c.unsealed(fm)
}

// askBase returns the state a question asking the tool's form again is
// sealed on: st's binding, flow id and round (issue replaces Asked), or an
// empty one on a first call. Asked again after the branch ran (settled:
// st holds the form's reply), the questions' replies stay (each is checked
// against its own digest), and the values kept from the old answers go.
func askBase(st *state, settled bool) *state {
	if st == nil {
		return &state{}
	}
	base := *st
	if settled {
		base.Replies = maps.Clone(st.Replies)
		delete(base.Replies, "")
		base.Kept = nil
	}
	return &base
}

// decode reads the request's arguments into args and checks them: the
// generated Decode (and the input schema as a whole when it asks for it),
// or else encoding/json by exact JSON name and the input schema; then the
// rules of the elicitable fields present (missing ones are asked for).
func (f *Flow) decode(args Args, req *protocol.Request) error {
	req.Arguments = dropEmptyAnswers(req.Arguments, f.def.Fields)
	if f.def.Decode != nil {
		decoded("decodeArguments")
		if err := f.def.Decode(args, req.Arguments); err != nil {
			return err
		}
	} else {
		decoded("encoding/json")
		req.Arguments = exact.Arguments(req.Arguments, reflect.TypeOf(args), f.def.DateFields)
		if len(req.Arguments) > 0 && string(req.Arguments) != "null" {
			if err := json.Unmarshal(req.Arguments, args); err != nil {
				return errors.New(exact.ErrorText(err, reflect.TypeOf(args), "arguments"))
			}
		}
	}
	if err := presentErrors(args.Validate()); err != nil {
		return err
	}
	if f.def.Decode == nil || f.def.CheckInputSchema {
		return f.checkPlain(req.Arguments)
	}
	return nil
}

// call is one request of a Flow: the round it runs in, its decoded
// arguments and its form's run-time shape.
type call struct {
	ctx     context.Context // the request's, with the principal: for the Unaskable fallback
	f       *Flow
	r       *round
	args    Args
	rules   *rules // run-time choices, echoes and defaults of the tool's form; nil without
	message string // the form's message: FormOptions', or //mcpgen:message
}

// prepare computes what shapes the tool's own form in this request: the
// options of every choices field (the handler's <Field>Choices methods) and
// the handler's FormOptions (message, typed echoes, defaults). An argument
// given up front must keep them: one of the caller's options (like an enum
// argument), the exact echo. It returns nil, nil to go on, or the tool error
// that ends the call.
func (c *call) prepare(ctx context.Context) (*Response, error) {
	c.ctx, c.message = ctx, c.f.def.Message
	if len(c.f.def.Choices) == 0 && c.f.def.Form == nil {
		return nil, nil
	}
	ctx = context.WithValue(ctx, ctxRoundKey{}, c.r) // for ClientOf
	c.rules = &rules{}
	if c.f.def.Form != nil {
		opts, err := guard(c.r.o.Logger, c.f.def.Name+"'s FormOptions", func() (*AskOptions, error) { return c.f.def.Form(ctx, c.args) })
		if err != nil {
			return nil, err
		}
		if opts != nil {
			if len(opts.Choices) > 0 {
				return complete(ToolError("%s: FormOptions returned Choices, but a tool's options come from its <Field>Choices methods", c.f.def.Name)), nil
			}
			c.rules.equal, c.rules.defaults, c.rules.descriptions = opts.Equal, opts.Defaults, opts.Descriptions
			if opts.Message != "" {
				c.message = opts.Message
			}
		}
	}
	if len(c.f.def.Choices) > 0 {
		c.rules.choices = make(map[string][]Choice, len(c.f.def.Choices))
	}
	for _, name := range c.f.def.Fields {
		fn, ok := c.f.def.Choices[name]
		if !ok {
			continue
		}
		choices, err := guard(c.r.o.Logger, c.f.def.Name+"'s "+name+" choices", func() ([]Choice, error) { return fn(ctx, c.args) })
		if err != nil {
			return nil, err
		}
		c.rules.choices[name] = choices
	}
	missing := c.args.MissingFields()
	var present []string
	for _, name := range c.f.def.Fields {
		if slices.Contains(missing, name) || slices.Contains(c.f.def.AskAlways, name) {
			continue // asked: the answer is checked
		}
		_, chosen := c.rules.choices[name]
		_, echoed := c.rules.equal[name]
		if chosen || echoed {
			present = append(present, name)
		}
	}
	if len(present) == 0 {
		return nil, nil
	}
	given := make(map[string]any, len(present))
	if c.f.def.Value != nil {
		for _, name := range present {
			given[name] = c.f.def.Value(c.args, name)
		}
	} else {
		decoded("form rules")
		_ = json.Unmarshal(c.r.req.Arguments, &given)
	}
	if ve := c.rules.check(given, present, nil); ve != nil {
		return complete(ToolError("invalid arguments: %v", ve)), nil
	}
	return nil, nil
}

// form returns the tool's own form in this request: the missing fields and
// the ask=always ones, in field order, asked under //mcpgen:key; a form of
// optional fields only is not asked.
func (c *call) form() *form {
	missing := c.args.MissingFields()
	fields := make([]string, 0, len(missing)+len(c.f.def.AskAlways))
	for _, name := range c.f.def.Fields {
		if slices.Contains(missing, name) || slices.Contains(c.f.def.AskAlways, name) {
			fields = append(fields, name)
		}
	}
	return &form{key: c.f.def.Key, target: c.args, fresh: c.f.def.New, rules: c.rules, message: c.message, fields: fields,
		always: c.f.def.AskAlways, optionalNotAsked: true, memo: c.f, unaskable: c.runUnaskable}
}

// unsealed returns the state an opted-in first call (//mcpgen:unsealed)
// resumes from: round 1 asked fm under its key, as a first call would.
func (c *call) unsealed(fm *form) *state {
	if final := fm.rules.settle(c.f.def.Name, c.args, nil); final != nil {
		return nil // the engine ends the call with it
	}
	whole := fm.rules.schema(c.args, fm.fields...)
	var fields []string
	for pair := whole.Properties.Oldest(); pair != nil; pair = pair.Next() {
		fields = append(fields, pair.Key)
	}
	if len(fields) == 0 {
		return nil
	}
	return &state{Round: 1, FlowID: c.r.flowID(), Asked: []asked{{Key: fm.key, Fields: fields,
		Question: fm.digestOf(whole)}}}
}

// dispatch runs the branch of rep, the tool form's reply, in a context where
// it can ask questions (Ask). With Accept the answer is already applied to
// the arguments; with Decline or Cancel the valid answers kept from earlier
// rounds are. st is the state the call resumes from (nil on a first call).
// A branch that asked ends the request in the question's input-required
// result, sealing rep so that the retry runs the same branch on the same
// arguments.
func (c *call) dispatch(ctx context.Context, st *state, rep reply) (*Response, error) {
	var declined []string // with Decline: the fields of the form declined
	switch rep.Action {
	case Decline:
		declined = rep.Fields
		_ = c.args.ApplyPartial(rep.Content)
	case Cancel:
		_ = c.args.ApplyPartial(rep.Content)
	}
	a := newAsker(c.r)
	a.tool, a.toolSet = rep, true
	c.r.ran, c.r.action = true, rep.Action
	id := c.r.flowID()
	if st != nil && len(st.FlowID) > 0 {
		id = st.FlowID
	}
	a.flowID = c.r.flowIDText(id)
	if st != nil {
		a.round = st.Round
	}
	ctx = context.WithValue(ctx, ctxAskerKey{}, a)
	res, err := guard(c.r.o.Logger, c.f.def.Name+"'s "+string(rep.Action)+" branch", func() (*Result, error) {
		return c.f.def.Dispatch(ctx, c.args, rep.Action, declined)
	})
	if resp, ok, err := c.r.unasked(err); ok {
		return resp, err // a question the client cannot be asked, returned unchanged
	}
	if err != nil && errors.Is(err, ErrInputRequired) {
		// The state of the next round carries the id the branch saw.
		next := &state{FlowID: id}
		if st != nil {
			next.binding, next.Round, next.Waits = st.binding, st.Round, st.Waits
		}
		if resp, ok, err := a.next(next); ok || err != nil {
			return resp, err
		}
	}
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = &Result{}
	}
	return complete(res), nil
}

// presentErrors drops "required" errors: at the start of a call, missing
// fields are asked for, not reported.
func presentErrors(err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var out *ValidationError // made at the first error to present: none when only fields are missing
	for _, fe := range ve.Errors {
		if fe.Keyword == "required" {
			continue
		}
		if out == nil {
			out = &ValidationError{}
		}
		out.Add(fe.Field, fe.Keyword, fe.Message)
	}
	if out == nil {
		return nil
	}
	return out.Err()
}

func equalDigest(a, b []byte) bool { return string(a) == string(b) }

// applyAnswer applies an accepted answer's content to target (a flow's
// arguments or a question) and checks the run-time rules of the fields
// answered; it returns every failing field (the generated rules' and the
// run-time ones') as one *ValidationError, or nil when the answer holds.
// Other errors are returned as they are.
func applyAnswer(target Args, rl *rules, content map[string]any, fields []string) (*ValidationError, error) {
	var ve *ValidationError
	if err := target.ApplyContent(content); err != nil && !errors.As(err, &ve) {
		return nil, err
	}
	if ve != nil && !rl.empty() {
		// A field that already broke a generated rule is not judged by
		// the run-time ones too: one reason per field is enough to act on.
		fields = slices.DeleteFunc(slices.Clone(fields), ve.Has)
	}
	return rl.check(content, fields, ve), nil
}
