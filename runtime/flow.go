package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gjsonschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/internal/exact"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Args is implemented by every struct mcpgen generates code for (through its
// pointer): a tool's arguments and a //mcpgen:question alike. The methods
// are documented on the generated code (README, "The generated API").
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

// Outcome tells a generated dispatcher which branch of the handler to run.
type Outcome struct {
	Action Action `json:"a"`
	// Declined, with Decline, holds the JSON names of the fields the user was
	// asked for in the round they declined.
	Declined []string `json:"d,omitempty"`
}

// Flow is one tool (or prompt) whose arguments may be elicited. mcpgen
// generates a constructor for each annotated struct (New<T>Flow) that fills
// it in; adapters register it with an SDK and call [Flow.Call] for every
// tools/call or prompts/get. Its fields must not change after its first Call.
type Flow struct {
	// Name is the tool or prompt name (//mcpgen:tool), bound into the state.
	Name string
	// Description is the tool's description (//mcpgen:tool).
	Description string
	// Message is the elicitation message of round 1 (//mcpgen:message); when
	// empty it is "Please provide: " and the titles of the fields asked.
	Message string
	// Key is the inputRequests key of round 1 (//mcpgen:key, default Name);
	// round n > 1 uses Key_n.
	Key string
	// Fields lists every elicitable field's JSON name, in field order. A
	// flow without any (a tool whose arguments have no elicit tag) asks
	// nothing before its branch, so the user never has a form to decline or
	// cancel: Dispatch is only ever called with Accept (see Dispatch).
	Fields []string
	// AskAlways lists the ask=always fields: asked even when present.
	AskAlways []string
	// DateFields lists the time.Time fields with format "date": in the
	// arguments they are RFC 3339 full-dates ("2026-07-28", what the tool's
	// input schema announces), which encoding/json cannot put in a
	// time.Time, so the flow reads them as midnight UTC.
	DateFields []string
	// AcceptUnsealed opts this tool into applying answers that arrive without
	// a requestState (//mcpgen:unsealed). Only for answers whose tampering can
	// do no harm: such answers are not bound to a question, a principal or
	// the arguments (MCP 2026-07-28, basic/patterns/mrtr: a server may skip
	// integrity protection only where tampering can do no worse than fail
	// the request).
	AcceptUnsealed bool
	// MaxRounds overrides Options.MaxRounds for this flow when positive.
	MaxRounds int
	// Choices gives, by JSON name, the function that lists the options of
	// each elicit:"choices" field for this call (the handler's
	// <Field>Choices method). They are asked for on every request; an
	// argument or answer counts only if it is among the options of the
	// request it arrives in, and an answer only to a question whose options
	// were the same. A required single select with one option takes it
	// without asking, on a retry too (its options shrank since it was
	// asked): the rest of the form is asked, or, with nothing left to ask,
	// the branch runs (Decline or Cancel when that was the user's answer).
	Choices map[string]func(ctx context.Context, args Args) ([]Choice, error)
	// New returns a new zero argument struct.
	New func() Args
	// Decode decodes a request's arguments (a JSON object; empty or null:
	// none) into args, a value from New, once and by exact JSON name, and
	// checks the rules the tool's input schema gives its plain arguments
	// (the generated decodeArguments). It returns a *ValidationError naming
	// every failing argument, or another error for arguments that are not a
	// JSON object. When nil, the arguments are read with encoding/json by
	// exact name and checked against [InputSchema].
	Decode func(args Args, raw []byte) error
	// Value returns the value args (from New) holds for the elicitable field
	// name as form content would hold it (a string or []string; nil for a
	// nil pointer): how an argument given up front is held to its run-time
	// choices without reading the arguments again. Generated for tools with
	// elicit:"choices" fields; when nil, the arguments are decoded for it.
	Value func(args Args, name string) any
	// Schema returns the tool's input schema as mcpgen wrote it from the
	// struct at generation time (see [InputSchema]); nil: reflected.
	Schema func() *jsonschema.Schema
	// CheckInputSchema, with Decode, also checks the arguments against
	// [InputSchema]: generated code sets it when a plain argument has a
	// type or a rule its own checks do not cover.
	CheckInputSchema bool
	// Dispatch runs exactly one branch of the user's handler. When Fields
	// is empty it is only ever called with Accept: the first call runs
	// Accept at once, every state the flow issues then comes from a
	// question Accept asked ([Ask], whose answer Accept itself receives),
	// and a requestState that names another branch or fields to answer
	// (sealed by another flow of the same name, e.g. an earlier version of
	// the tool that had elicitable fields) is refused with -32602 before
	// anything runs. So the handler of such a tool needs Accept only.
	Dispatch func(ctx context.Context, args Args, o Outcome) (*Result, error)
}

// questionMemo holds question digests by flow, key and fields asked (see
// [Flow.question]); questionCount counts its entries, at most maxQuestions.
var (
	questionMemo  sync.Map // questionID → []byte
	questionCount atomic.Int32
)

type questionID struct {
	flow *Flow
	id   string // key, then the fields asked, separated by NUL
}

// maxQuestions bounds the question digests memoised in a process: the fields
// asked in round 1 depend on which arguments a caller left out.
const maxQuestions = 4096

// question returns formDigest(key, "", schema(fields), rules); without
// run-time rules it is memoised:
// a generated RequestedSchema depends only on the names it is given, so the
// digest of one flow, key and field list never changes while the process
// runs, and encoding the schema to JSON was most of the flow's own cost per
// request. schema, when non-nil, is args.RequestedSchema(fields...).
func (c *call) question(key string, fields []string, schema *jsonschema.Schema) []byte {
	if !c.rules.empty() {
		// Run-time choices make the schema depend on the caller: no memo.
		if schema == nil {
			schema = c.schema(fields)
		}
		return formDigest(key, "", schema, c.rules)
	}
	f, args := c.f, c.args
	id := questionID{flow: f, id: key + "\x00" + strings.Join(fields, "\x00")}
	if d, ok := questionMemo.Load(id); ok {
		return d.([]byte)
	}
	if schema == nil {
		schema = args.RequestedSchema(fields...)
	}
	d := formDigest(key, "", schema, nil)
	if questionCount.Load() < maxQuestions {
		if _, loaded := questionMemo.LoadOrStore(id, d); !loaded {
			questionCount.Add(1)
		}
	}
	return d
}

// CapabilityPolicy says what a flow does when it must ask the user but the
// client did not declare form elicitation (MCP 2026-07-28, basic/patterns/mrtr:
// ask only for what the client declared).
type CapabilityPolicy int

const (
	// ToolErrorOnMissingCapability (the default) returns a tool error result
	// naming every missing field with its title and constraints, so that the
	// model can pass them as arguments.
	ToolErrorOnMissingCapability CapabilityPolicy = iota
	// ProtocolErrorOnMissingCapability returns JSON-RPC error -32021 with
	// data.requiredCapabilities {"elicitation":{"form":{}}}.
	ProtocolErrorOnMissingCapability
)

// Defaults of [Options].
const (
	DefaultTTL          = 10 * time.Minute
	DefaultMaxRounds    = 3
	DefaultMaxStateSize = 16 << 10 // characters of base64url
	DefaultClockSkew    = 30 * time.Second
	// DefaultClaimWait is the default of [Options.ClaimWait].
	DefaultClaimWait = 2 * time.Second
	// DefaultMaxArgumentsBytes bounds the raw arguments object of a request
	// (bytes of UTF-8).
	DefaultMaxArgumentsBytes = 64 << 10
	// DefaultMaxContentBytes bounds one form answer's content as a whole
	// (bytes of UTF-8).
	DefaultMaxContentBytes = 64 << 10
	// DefaultMaxStringBytes bounds each string in a form answer (bytes of
	// UTF-8).
	DefaultMaxStringBytes = 8 << 10
	// DefaultMaxSelectItems bounds the items of each array in a form answer
	// (a multi select's choices).
	DefaultMaxSelectItems = 100
)

// Rejection describes a retry that was refused with -32602: the hook in
// [Options.OnReject] receives one for logs and metrics.
type Rejection struct {
	Flow   string // tool or prompt name
	Reason string // why, in words
	Err    error  // the underlying error, e.g. ErrStateAuth
}

// Options configure how flows run on one server. Every instance behind a
// load balancer must share Keys; nothing else is shared.
type Options struct {
	// Keys seals and opens requestState. Required.
	Keys *KeyRing
	// TTL is how long a requestState stays valid (default 10 minutes).
	TTL time.Duration
	// MaxRounds bounds the input-required results of one call (default 3).
	MaxRounds int
	// MaxStateSize bounds an incoming requestState, in characters, checked
	// before any decoding (default 16 KiB).
	MaxStateSize int
	// MaxContentBytes bounds the content of each form answer (accept):
	// bytes of every key and string, plus 8 per number, boolean or null
	// (default [DefaultMaxContentBytes], 64 KiB; negative: no limit).
	// MaxStringBytes bounds each string in it, in bytes (default
	// [DefaultMaxStringBytes], 8 KiB; negative: no limit). MaxSelectItems
	// bounds each array in it, in items (default [DefaultMaxSelectItems],
	// 100; negative: no limit). All three, like MaxStateSize, are checked
	// before any other work; a retry over a limit is rejected with -32602
	// naming the answer and the field, and reported to OnReject with
	// [ErrContentTooLarge] (or [ErrStateTooLarge]).
	MaxContentBytes int
	MaxStringBytes  int
	MaxSelectItems  int
	// MaxArgumentsBytes bounds the raw arguments object of every request,
	// first call or retry, in bytes, checked before the arguments are
	// decoded (default [DefaultMaxArgumentsBytes], 64 KiB; negative: no
	// limit). Arguments over it are rejected with -32602 naming the limit
	// and reported to OnReject with [ErrArgumentsTooLarge].
	MaxArgumentsBytes int
	// ClockSkew is how far in the future a state's issued-at may lie
	// (default 30 s), for instances whose clocks differ.
	ClockSkew time.Duration
	// MissingCapability chooses between a tool error (default) and -32021.
	MissingCapability CapabilityPolicy
	// OnReject, when set, receives every rejected retry.
	OnReject func(ctx context.Context, r Rejection)
	// OnAsk, when set, receives every request that ends in an
	// input-required result (MCP 2026-07-28, basic/patterns/mrtr), and
	// OnComplete every request that ends in a final result of a flow or
	// exchange (a replay of a completed flow is neither): for metrics. The
	// [Event] carries names, keys and counts, never answers or the state.
	OnAsk      func(ctx context.Context, e Event)
	OnComplete func(ctx context.Context, e Event)
	// Logger, when set, receives one record per request of a flow or
	// exchange, "mcpgen round", with tool, flow_id, round and outcome:
	// asked (with the inputRequests keys), completed, declined or cancelled
	// (with is_error), replayed, rejected (with the reason; level Warn) or
	// failed (the branch returned an error, not quoted; level Warn). Answer
	// values and the state are never logged.
	Logger *slog.Logger
	// Now returns the current time (default time.Now), for tests.
	Now func() time.Time
	// Store makes every retry of a flow run at most once: it holds each
	// flow's claim and then its final response until the flow's lifetime
	// ends (see [Store]). Default: one [MemoryStore] per process, right for
	// a single instance. Instances that share Keys must share a Store
	// (runtime/redisstore), or a replay sent to another instance runs its
	// branch again. When the store fails, a retry is refused with JSON-RPC
	// -32603 and runs nothing; OnReject hears an error wrapping [ErrStore].
	Store Store
	// ClaimWait is how long a retry whose flow another request is running
	// waits for that request's record before it is refused with JSON-RPC
	// -32603 "retry later" (default [DefaultClaimWait], 2 s; negative: no
	// wait). No branch runs either way.
	ClaimWait time.Duration
}

func (o *Options) withDefaults() *Options {
	c := *o
	if c.TTL <= 0 {
		c.TTL = DefaultTTL
	}
	if c.MaxRounds <= 0 {
		c.MaxRounds = DefaultMaxRounds
	}
	if c.MaxStateSize <= 0 {
		c.MaxStateSize = DefaultMaxStateSize
	}
	if c.MaxArgumentsBytes == 0 {
		c.MaxArgumentsBytes = DefaultMaxArgumentsBytes
	}
	if c.MaxContentBytes == 0 {
		c.MaxContentBytes = DefaultMaxContentBytes
	}
	if c.MaxStringBytes == 0 {
		c.MaxStringBytes = DefaultMaxStringBytes
	}
	if c.MaxSelectItems == 0 {
		c.MaxSelectItems = DefaultMaxSelectItems
	}
	if c.ClockSkew <= 0 {
		c.ClockSkew = DefaultClockSkew
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Store == nil {
		c.Store = defaultStore
	}
	if c.ClaimWait == 0 {
		c.ClaimWait = DefaultClaimWait
	}
	return &c
}

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

const (
	flowIDKey ctxKey = iota
	roundKey
	principalKey
)

// Principal returns who is calling, as the adapter identified them
// (protocol.Request.Principal: for go-sdk, the authenticated user of the bearer
// token): the principal bound into the requestState (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security). It is "" for an anonymous
// caller, and outside a flow's branches, Choices functions and exchange
// handlers.
func Principal(ctx context.Context) string {
	s, _ := ctx.Value(principalKey).(string)
	return s
}

// FlowID returns the id of the flow a branch (or an exchange handler) runs
// in: random, 22 characters of base64url, and never "" inside one. A call
// that asks fixes it in its first request and carries it in the sealed state,
// so every round of the call sees the same id; a call that completes without
// asking gets a fresh one. Key a branch's side effects on it (an idempotency
// key, a charge id) so that a final retry sent twice does the work once. A
// client that sends the same first call again starts another flow, with
// another id. It is "" outside a branch or an exchange handler (in a flow's
// Choices functions too).
func FlowID(ctx context.Context) string {
	s, _ := ctx.Value(flowIDKey).(string)
	return s
}

// Round returns how many input-required results preceded the branch that is
// running (0 when the call completed without asking).
func Round(ctx context.Context) int {
	n, _ := ctx.Value(roundKey).(int)
	return n
}

// checkPlain validates the arguments against the tool's input schema
// ([InputSchema]: what tools/list shows the model), so that a plain argument
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
// kept it from resolving), by *Flow: a flow's fields do not change after its
// first Call.
var plainSchemas sync.Map

func resolveInputSchema(f *Flow) any {
	b, err := json.Marshal(InputSchema(f))
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
// missing capability when so configured, -32603 when [Options.Store] failed
// or a concurrent duplicate did not finish within [Options.ClaimWait]) or
// errors returned by the branch (recorded, and returned again on replay).
func (f *Flow) Call(ctx context.Context, opts *Options, req *protocol.Request) (*Response, error) {
	r, err := newRound(ctx, opts, f.Name, req)
	if err != nil {
		return nil, err
	}
	ctx = context.WithValue(ctx, principalKey, req.Principal)
	if f.MaxRounds > 0 {
		r.max = f.MaxRounds
	}
	if err := r.open(ctx); err != nil {
		// The state is judged first: it binds arguments that passed the
		// checks below when it was issued.
		return nil, err
	}
	if len(f.Fields) == 0 && r.st != nil && (r.st.Outcome == nil || r.st.Outcome.Action != Accept) {
		// Nothing is asked before the branch of a flow without elicitable
		// fields, so its states all carry Accept (see Flow.Dispatch): this
		// one came from another flow of the same name, and Decline or
		// Cancel, which its handler does not have, must not run.
		return nil, r.reject(ctx, errors.New("requestState resumes a form or a branch other than Accept, but this tool has no elicitable field"))
	}
	args := f.New()
	if err := f.decode(args, req); err != nil {
		resp := complete(ToolError("invalid arguments: %v", err))
		r.end(ctx, resp, nil)
		return resp, nil
	}
	return r.once(ctx, func(ctx context.Context) (*Response, error) {
		c := &call{f: f, r: r, args: args}
		if len(f.Choices) > 0 {
			if resp, err := c.loadChoices(ctx); resp != nil || err != nil {
				return resp, err
			}
		}
		if r.st == nil {
			return c.first(ctx)
		}
		if r.st.Outcome != nil {
			return c.resume(ctx, r.st)
		}
		if len(r.st.Asked) != 1 || len(r.st.Asked[0].Fields) == 0 || r.st.Asked[0].Name != "" {
			return nil, r.reject(ctx, errors.New("requestState was not issued by a flow"))
		}
		return c.retry(ctx, r.st)
	})
}

// decode reads the request's arguments into args and checks them: the
// generated Decode (and the input schema as a whole when it asks for it),
// or else encoding/json by exact JSON name and the input schema; then the
// rules of the elicitable fields present (missing ones are asked for).
func (f *Flow) decode(args Args, req *protocol.Request) error {
	if f.Decode != nil {
		decoded("decodeArguments")
		if err := f.Decode(args, req.Arguments); err != nil {
			return err
		}
	} else {
		decoded("encoding/json")
		req.Arguments = exact.Arguments(req.Arguments, reflect.TypeOf(args), f.DateFields)
		if len(req.Arguments) > 0 && string(req.Arguments) != "null" {
			if err := json.Unmarshal(req.Arguments, args); err != nil {
				return errors.New(exact.ErrorText(err, reflect.TypeOf(args), "arguments"))
			}
		}
	}
	if err := presentErrors(args.Validate()); err != nil {
		return err
	}
	if f.Decode == nil || f.CheckInputSchema {
		return f.checkPlain(req.Arguments)
	}
	return nil
}

// call is one request of a Flow: the round it runs in and its decoded
// arguments.
type call struct {
	f     *Flow
	r     *round
	args  Args
	rules *rules // run-time choices of this call; nil without
}

// loadChoices asks the handler for the options of every choices field and
// settles what they decide before anything is asked: an argument given up
// front must be one of them (like an enum argument), a required single
// select with one option takes it, and a required field with none ends the
// call in a tool error naming it. It returns nil, nil to go on.
func (c *call) loadChoices(ctx context.Context) (*Response, error) {
	c.rules = &rules{choices: map[string][]Choice{}}
	for _, name := range c.f.Fields {
		fn, ok := c.f.Choices[name]
		if !ok {
			continue
		}
		choices, err := guard(c.r.o.Logger, c.f.Name+"'s "+name+" choices", func() ([]Choice, error) { return fn(ctx, c.args) })
		if err != nil {
			return nil, err
		}
		c.rules.choices[name] = choices
	}
	missing := c.args.MissingFields()
	var present []string
	for name := range c.rules.choices {
		if !slices.Contains(missing, name) {
			present = append(present, name)
		}
	}
	if len(present) > 0 {
		given := make(map[string]any, len(present))
		if c.f.Value != nil {
			for _, name := range present {
				given[name] = c.f.Value(c.args, name)
			}
		} else {
			decoded("choices")
			_ = json.Unmarshal(c.r.req.Arguments, &given)
		}
		if ve := c.rules.check(given, present, nil); ve != nil {
			return complete(ToolError("invalid arguments: %v", ve)), nil
		}
	}
	if res := c.rules.settle(c.f.Name, c.args); res != nil {
		return complete(res), nil
	}
	return nil, nil
}

// schema returns the requestedSchema of fields with the run-time choices
// written in (a field whose choices are empty is left out).
func (c *call) schema(fields []string) *jsonschema.Schema {
	return c.rules.schema(c.args, fields...)
}

// first handles a call without requestState.
func (c *call) first(ctx context.Context) (*Response, error) {
	toAsk := c.fieldsToAsk()
	if _, answered := c.r.req.InputResponses[c.f.Key]; answered && len(toAsk) > 0 && c.f.AcceptUnsealed {
		// Opted in: treat the answer under the round-1 key as the reply to
		// the round-1 question (answers under other keys are ignored, and
		// without one the question is asked as on any first call).
		st := &state{Round: 1, FlowID: c.r.flowID(), Answers: c.rules.withFixed(nil), Asked: []asked{{
			Key: c.f.Key, Fields: toAsk, Question: c.question(c.f.Key, toAsk, nil)}}}
		return c.retry(ctx, st)
	}
	schema := c.schema(toAsk)
	fixed := c.rules.withFixed(nil) // the only option of a required select
	if len(schema.Required) == 0 && len(c.f.AskAlways) == 0 {
		// Nothing required is missing: optional fields take their defaults.
		if err := c.args.ApplyContent(fixed); err != nil {
			return complete(ToolError("invalid arguments: %v", err)), nil
		}
		return c.dispatch(ctx, nil, fixed, Outcome{Action: Accept})
	}
	if !c.r.req.Capabilities().FormElicitation {
		return c.missingCapability(schema, "")
	}
	return c.ask(ctx, &state{Answers: fixed}, askable(toAsk, schema), "", schema)
}

// askable is the fields of toAsk that schema (built for them) still asks:
// without the ones run-time choices settled.
func askable(toAsk []string, schema *jsonschema.Schema) []string {
	return slices.DeleteFunc(slices.Clone(toAsk), func(n string) bool {
		_, ok := schema.Properties.Get(n)
		return !ok
	})
}

// fieldsToAsk is MissingFields plus the ask=always fields, in field order.
func (c *call) fieldsToAsk() []string {
	missing := c.args.MissingFields()
	var out []string
	for _, name := range c.f.Fields {
		if slices.Contains(missing, name) || slices.Contains(c.f.AskAlways, name) {
			out = append(out, name)
		}
	}
	return out
}

// retry handles a call whose state opened and matched.
func (c *call) retry(ctx context.Context, st *state) (*Response, error) {
	last := st.Asked[0]
	answer, present := c.r.req.InputResponses[last.Key]
	var schema *jsonschema.Schema // the question asked again now; built once with run-time choices
	if !c.rules.empty() {
		schema = c.schema(last.Fields)
	}
	if !present || !equalDigest(last.Question, c.question(last.Key, last.Fields, schema)) {
		// No answer to the question asked, or an answer to another question
		// (the run-time options changed since): ask again, what is still to
		// ask. When the options that changed left nothing to ask, a refusal
		// of the question is kept, never turned into an accept.
		if er, ok := answer.(*protocol.ElicitResult); ok && er != nil && (er.Action == Decline || er.Action == Cancel) &&
			schema != nil && len(askable(last.Fields, schema)) == 0 {
			return c.refused(ctx, st, er.Action, last.Fields)
		}
		return c.ask(ctx, st, last.Fields, "", schema)
	}
	er, ok := answer.(*protocol.ElicitResult)
	if !ok || er == nil {
		return nil, &protocol.Error{Code: protocol.CodeInvalidParams,
			Message: fmt.Sprintf("inputResponses[%q] is not an elicitation result", last.Key)}
	}
	switch er.Action {
	case Accept:
		merged := make(map[string]any, len(st.Answers)+len(last.Fields))
		for k, v := range st.Answers {
			merged[k] = v
		}
		for _, name := range last.Fields {
			delete(merged, name)
			if v, ok := er.Content[name]; ok {
				merged[name] = v
			}
		}
		ve, err := applyAnswer(c.args, c.rules, merged, last.Fields)
		if err != nil {
			return nil, err
		}
		if ve == nil {
			return c.dispatch(ctx, st, merged, Outcome{Action: Accept})
		}
		failing := ve.Fields()
		kept := make(map[string]any, len(merged))
		for k, v := range merged {
			if !slices.Contains(failing, k) {
				kept[k] = v
			}
		}
		st.Answers = kept
		return c.ask(ctx, st, failing, ve.Error(), nil)
	case Decline, Cancel:
		return c.refused(ctx, st, er.Action, last.Fields)
	default:
		return nil, &protocol.Error{Code: protocol.CodeInvalidParams,
			Message: fmt.Sprintf("inputResponses[%q] has unknown action %q", last.Key, er.Action)}
	}
}

// refused runs the Decline or Cancel branch (action) for the user's refusal
// of the form that asked fields, on the answers of earlier rounds.
func (c *call) refused(ctx context.Context, st *state, action Action, fields []string) (*Response, error) {
	_ = c.args.ApplyPartial(st.Answers)
	out := Outcome{Action: action}
	if action == Decline {
		out.Declined = fields
	}
	return c.dispatch(ctx, st, st.Answers, out)
}

// ask issues the next input-required result for fields, or a tool error when
// the round limit (or a legacy client's single bridged round) is reached.
// schema, when non-nil, is c.schema(fields), already built. Fields the
// run-time choices of this request settled are not asked (a required single
// select whose options shrank to one since it was asked takes it; an
// optional one left with none is left out), and when that leaves nothing to
// ask the call goes on to Accept without asking: an input-required result
// never carries an empty form.
func (c *call) ask(ctx context.Context, st *state, fields []string, reason string, schema *jsonschema.Schema) (*Response, error) {
	if schema == nil {
		schema = c.schema(fields)
	}
	if left := askable(fields, schema); len(left) < len(fields) || len(left) == 0 {
		st.Answers = c.rules.withFixed(st.Answers)
		if len(left) == 0 {
			return c.settled(ctx, st, fields)
		}
		fields = left
	}
	if resp := c.r.refuse(st, reason); resp != nil {
		return resp, nil
	}
	if !c.r.req.Capabilities().FormElicitation {
		// Capabilities are declared on every request (MCP 2026-07-28): a
		// retry that does not declare form elicitation is sent no form.
		return c.missingCapability(schema, reason)
	}
	key := c.f.Key
	if n := st.Round + 1; n > 1 {
		key = c.f.Key + "_" + strconv.Itoa(n)
	}
	sent := schema
	if c.r.legacy() {
		var err error
		if sent, err = downgradeSchema(schema, c.r.req.ProtocolVersion); err != nil {
			return complete(&Result{Text: c.f.Name + ": " + err.Error(), IsError: true}), nil
		}
	}
	msg := c.f.Message
	if msg == "" {
		msg = "Please provide: " + strings.Join(titles(schema), ", ")
	}
	if reason != "" {
		msg += "\n\nPlease check: " + reason
	}
	return c.r.issue(st,
		[]asked{{Key: key, Fields: fields, Question: c.question(key, fields, schema)}},
		map[string]protocol.InputRequest{key: &protocol.ElicitRequest{Mode: "form", Message: msg, RequestedSchema: sent}},
		reason)
}

// settled runs Accept for a call whose fields still to ask (fields) were all
// settled by the run-time choices of this request (see ask), on the answers
// so far with the options fixed. Should those still fail, nothing the user
// could be asked would mend them: the call ends in a tool error saying why.
func (c *call) settled(ctx context.Context, st *state, fields []string) (*Response, error) {
	ve, err := applyAnswer(c.args, c.rules, st.Answers, fields)
	if err != nil {
		return nil, err
	}
	if ve != nil {
		return complete(ToolError("%s: %v", c.f.Name, ve)), nil
	}
	return c.dispatch(ctx, st, st.Answers, Outcome{Action: Accept})
}

// resume handles a retry of a call whose arguments were settled in an
// earlier round and whose branch asked a question: it rebuilds the arguments
// the branch saw and runs the same branch again, from the top.
func (c *call) resume(ctx context.Context, st *state) (*Response, error) {
	out := *st.Outcome
	switch out.Action {
	case Accept:
		if err := c.args.ApplyContent(st.Answers); err != nil {
			return nil, c.r.reject(ctx, fmt.Errorf("requestState answers no longer apply: %w", err))
		}
	case Decline, Cancel:
		_ = c.args.ApplyPartial(st.Answers)
	default:
		return nil, c.r.reject(ctx, fmt.Errorf("requestState has unknown branch %q", out.Action))
	}
	return c.dispatch(ctx, st, st.Answers, out)
}

// dispatch runs the branch out with the arguments settled by answers (nil
// when they all came with the request), in a context where it can ask
// questions (Ask). st is the state the call resumes from (nil on a first
// call). A branch that asked ends the request in the question's
// input-required result, sealing out and answers so that the retry runs the
// same branch on the same arguments.
func (c *call) dispatch(ctx context.Context, st *state, answers map[string]any, out Outcome) (*Response, error) {
	a := newAsker(c.r)
	c.r.ran, c.r.action = true, out.Action
	id := c.r.flowID()
	if st != nil && len(st.FlowID) > 0 {
		id = st.FlowID
	}
	ctx = context.WithValue(ctx, ctxAskerKey{}, a)
	ctx = context.WithValue(ctx, flowIDKey, base64.RawURLEncoding.EncodeToString(id))
	if st != nil {
		ctx = context.WithValue(ctx, roundKey, st.Round)
	}
	res, err := guard(c.r.o.Logger, c.f.Name+"'s "+string(out.Action)+" branch", func() (*Result, error) { return c.f.Dispatch(ctx, c.args, out) })
	if err != nil && errors.Is(err, ErrInputRequired) {
		// The state of the next round carries the id the branch saw.
		next := &state{Answers: answers, Outcome: &out, FlowID: id}
		if st != nil {
			next.binding, next.Round = st.binding, st.Round
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

// missingCapability answers a request that must ask the user but did not
// declare form elicitation; reason, when set, is what was wrong with the last
// answer.
func (c *call) missingCapability(schema *jsonschema.Schema, reason string) (*Response, error) {
	var names []string
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		names = append(names, pair.Key)
	}
	if c.r.o.MissingCapability == ProtocolErrorOnMissingCapability {
		return nil, &protocol.Error{
			Code:    protocol.CodeMissingCapability,
			Message: c.f.Name + " needs form elicitation to ask for " + strings.Join(names, ", "),
			Data: map[string]any{"requiredCapabilities": map[string]any{
				"elicitation": map[string]any{"form": map[string]any{}}}},
		}
	}
	// Fields the model can supply as arguments, and ask=always fields, which
	// only the user can confirm in a form: no argument satisfies them.
	var required, optional, confirm []string
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		req := slices.Contains(schema.Required, pair.Key)
		line := "\n- " + describeField(pair.Key, pair.Value, req)
		switch {
		case slices.Contains(c.f.AskAlways, pair.Key):
			confirm = append(confirm, line)
		case req:
			required = append(required, line)
		default:
			optional = append(optional, line)
		}
	}
	var b strings.Builder
	b.WriteString(c.f.Name + " needs input from the user, but " + undeclared(c.r.req, "form elicitation") + ", so it cannot be asked.")
	if len(confirm) > 0 {
		b.WriteString("\nThese must be confirmed by the user in a form, so this call cannot complete with this client:")
		b.WriteString(strings.Join(confirm, ""))
	}
	if len(required) > 0 {
		b.WriteString("\nPass these as arguments and call again:")
		b.WriteString(strings.Join(required, ""))
	}
	if len(optional) > 0 {
		b.WriteString("\nOptional; pass them as arguments if known:")
		b.WriteString(strings.Join(optional, ""))
	}
	if reason != "" {
		b.WriteString("\nProblem with the last answer: " + reason)
	}
	return complete(&Result{Text: b.String(), IsError: true}), nil
}

// presentErrors drops "required" errors: at the start of a call, missing
// fields are asked for, not reported.
func presentErrors(err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	out := &ValidationError{}
	for _, fe := range ve.Errors {
		if fe.Keyword != "required" {
			out.Add(fe.Field, fe.Keyword, fe.Message)
		}
	}
	return out.Err()
}

func equalDigest(a, b []byte) bool { return string(a) == string(b) }

func titles(schema *jsonschema.Schema) []string {
	var out []string
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		t := pair.Value.Title
		if t == "" {
			t = pair.Key
		}
		out = append(out, t)
	}
	return out
}

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
	return rl.check(content, fields, ve), nil
}
