// Package flowdef declares what a runtime.Flow is made of: the definition
// generated code states through runtime/impl.FlowSpec, which impl.NewFlow
// turns into a Def and package runtime keeps, unexported, in the Flow.
//
// runtime.Flow is opaque so that generated code (impl.NewFlow, under impl's
// version guard) is the only way to make one and nothing changes one after
// it is made. impl imports runtime and cannot set a Flow's unexported field;
// runtime cannot import impl. So the definition is declared here, generic in
// the runtime types it names (Def[runtime.Args, runtime.Result,
// runtime.Choice, runtime.AskOptions] is the one instantiation), and runtime
// registers [Build] and [Of] when it is initialised. The package lives in
// the module's own internal directory rather than runtime/internal so that
// this module's tests outside runtime (golden: the generated decoding held
// to a JSON Schema validator) can read a generated flow's definition.
package flowdef

import (
	"context"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Def is one tool's (or prompt's) flow: everything runtime.Flow.Call reads.
// A is runtime.Args, R runtime.Result, C runtime.Choice, O
// runtime.AskOptions. A Def does not change once a Flow is built from it.
type Def[A, R, C, O any] struct {
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
	// MaxRounds overrides runtime.Options.MaxRounds for this flow when
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
	Choices map[string]func(ctx context.Context, args A) ([]C, error)
	// Form, when set, shapes the tool's own form at run time, as
	// runtime.AskOptions shape a question: the message, typed echoes (Equal)
	// and defaults. It is the handler's optional FormOptions method, called
	// on every request of the call like Choices; its Choices must be empty
	// (a tool's options come from Choices). An argument given up front must
	// equal its echo, as an answer must.
	Form func(ctx context.Context, args A) (*O, error)
	// Unaskable, when set, answers a request that must ask the tool's own
	// form of a client that cannot be asked (it declared no form
	// elicitation, or the adapter cannot send it a request): the handler's
	// optional Unaskable method, given the JSON names of the fields the form
	// would ask and why the client cannot be asked. When nil the flow
	// answers with runtime.DefaultUnaskable's tool error (or -32021).
	Unaskable func(ctx context.Context, args A, missing []string, why string) (*R, error)
	// New returns a new zero argument struct.
	New func() A
	// Decode decodes a request's arguments (a JSON object; empty or null:
	// none) into args, a value from New, once and by exact JSON name, and
	// checks the rules the tool's input schema gives its plain arguments
	// (the generated _mcpgenDecode). It returns a *runtime.ValidationError
	// naming every failing argument, or another error for arguments that
	// are not a JSON object. When nil, the arguments are read with
	// encoding/json by exact name and checked against the input schema
	// (runtime.Flow.InputSchema).
	Decode func(args A, raw []byte) error
	// Value returns the value args (from New) holds for the elicitable
	// string field name as form content would hold it (a string or
	// []string; nil for a nil pointer, or a field of another kind): how an
	// argument given up front is held to its run-time choices and echoes
	// without reading the arguments again. Generated for tools with string
	// fields; when nil, the arguments are decoded for it.
	Value func(args A, name string) any
	// Schema returns the tool's input schema as mcpgen wrote it from the
	// struct at generation time (see runtime.Flow.InputSchema); nil:
	// reflected.
	Schema func() *jsonschema.Schema
	// CheckInputSchema, with Decode, also checks the arguments against the
	// input schema (runtime.Flow.InputSchema): generated code sets it when a
	// plain argument has a type or a rule its own checks do not cover.
	CheckInputSchema bool
	// Dispatch runs exactly one branch of the user's handler: the one of
	// action (Accept, Decline or Cancel); declined, with Decline, holds the
	// JSON names of the fields the user was asked for in the round they
	// declined. When Fields is empty it is only ever called with Accept:
	// the first call runs Accept at once, every state the flow issues then
	// comes from a question Accept asked (runtime.Ask, whose answer Accept
	// itself receives), and a requestState that names another branch or
	// fields to answer (sealed by another flow of the same name, e.g. an
	// earlier version of the tool that had elicitable fields) is refused
	// with -32602 before anything runs. So the handler of such a tool needs
	// Accept only.
	Dispatch func(ctx context.Context, args A, action protocol.Action, declined []string) (*R, error)
}

// Build returns the *runtime.Flow of d, a *Def[runtime.Args,
// runtime.Result, runtime.Choice, runtime.AskOptions], which it copies.
// Package runtime sets it when it is initialised (before any package that
// imports runtime, impl included, is); impl.NewFlow calls it.
var Build func(d any) any

// Of returns a copy of the definition flow, a *runtime.Flow, was built from
// (its slices and Choices map copied too): a Def[runtime.Args,
// runtime.Result, runtime.Choice, runtime.AskOptions].
// Package runtime sets it when it is initialised; it is for what in this
// module reads a flow's definition (runtime/elicittest, tests), which can
// build another flow from a changed copy but never change the flow.
var Of func(flow any) any
