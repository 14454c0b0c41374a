package engine

import (
	"context"
	"maps"
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Def is one tool's (or prompt's) flow: everything [Flow.Call] reads.
// Generated code states it through runtime/impl.FlowSpec, and impl.NewFlow
// builds the Flow with [NewFlow]. A Def does not change once a Flow is built
// from it.
type Def struct {
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
	// MaxRounds overrides [Options.MaxRounds] for this flow when
	// positive.
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
	// Form, when set, shapes the tool's own form at run time, as
	// [AskOptions] shape a question: the message, typed echoes (Equal)
	// and defaults. It is the handler's optional FormOptions method, called
	// on every request of the call like Choices; its Choices must be empty
	// (a tool's options come from Choices). An argument given up front must
	// equal its echo, as an answer must.
	Form func(ctx context.Context, args Args) (*AskOptions, error)
	// Unaskable, when set, answers a request that must ask the tool's own
	// form of a client that cannot be asked (it declared no form
	// elicitation, or the adapter cannot send it a request): the handler's
	// optional Unaskable method, given the JSON names of the fields the form
	// would ask and why the client cannot be asked. When nil the flow
	// answers with [DefaultUnaskable]'s tool error (or -32021).
	Unaskable func(ctx context.Context, args Args, missing []string, why string) (*Result, error)
	// New returns a new zero argument struct.
	New func() Args
	// Decode decodes a request's arguments (a JSON object; empty or null:
	// none) into args, a value from New, once and by exact JSON name, and
	// checks the rules the tool's input schema gives its plain arguments
	// (the generated _mcpgenDecode). It returns a *[ValidationError]
	// naming every failing argument, or another error for arguments that
	// are not a JSON object. When nil, the arguments are read with
	// encoding/json by exact name and checked against the input schema
	// ([Flow.InputSchema]).
	Decode func(args Args, raw []byte) error
	// Value returns the value args (from New) holds for the elicitable
	// string field name as form content would hold it (a string or
	// []string; nil for a nil pointer, or a field of another kind): how an
	// argument given up front is held to its run-time choices and echoes
	// without reading the arguments again. Generated for tools with string
	// fields; when nil, the arguments are decoded for it.
	Value func(args Args, name string) any
	// Schema returns the tool's input schema as mcpgen wrote it from the
	// struct at generation time (see [Flow.InputSchema]); nil:
	// reflected.
	Schema func() *jsonschema.Schema
	// CheckInputSchema, with Decode, also checks the arguments against the
	// input schema ([Flow.InputSchema]): generated code sets it when a
	// plain argument has a type or a rule its own checks do not cover.
	CheckInputSchema bool
	// Dispatch runs exactly one branch of the user's handler: the one of
	// action (Accept, Decline or Cancel); declined, with Decline, holds the
	// JSON names of the fields the user was asked for in the round they
	// declined. When Fields is empty it is only ever called with Accept:
	// the first call runs Accept at once, every state the flow issues then
	// comes from a question Accept asked ([Ask], whose answer Accept
	// itself receives), and a requestState that names another branch or
	// fields to answer (sealed by another flow of the same name, e.g. an
	// earlier version of the tool that had elicitable fields) is refused
	// with -32602 before anything runs. So the handler of such a tool needs
	// Accept only.
	Dispatch func(ctx context.Context, args Args, action protocol.Action, declined []string) (*Result, error)
}

// NewFlow returns the Flow of a copy of d: runtime/impl.NewFlow, under impl's
// version guard, is what calls it for generated code.
func NewFlow(d Def) *Flow { return &Flow{def: d} }

// DefOf returns a copy of the definition f was built from, sharing nothing f
// could see change (its slices and Choices map are copied too): for what in
// this module reads a flow's definition (runtime/elicittest, tests), which
// can build another flow from a changed copy but never change f.
func DefOf(f *Flow) Def {
	d := f.def
	d.Fields, d.AskAlways, d.DateFields = slices.Clone(d.Fields), slices.Clone(d.AskAlways), slices.Clone(d.DateFields)
	d.Choices = maps.Clone(d.Choices)
	return d
}
