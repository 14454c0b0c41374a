package impl

import (
	"context"
	"fmt"
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/shape"
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

// FlowSpec is what a generated New<T>Flow states about the tool whose
// arguments are T, for [NewFlow]: generated code reaches the runtime's flow
// only through it, under this package's version guard ([EnforceVersion]),
// and it is the only way to make a runtime.Flow, which has no exported
// fields. Each field is documented on the field of the same name of the
// flow's definition, [Definition]; the functions take *T itself.
type FlowSpec[T any] struct {
	Name, Description, Message, Key string
	Fields, AskAlways, DateFields   []string
	AcceptUnsealed                  bool
	MaxRounds                       int
	// Choices gives, by JSON name, the handler's <Field>Choices method.
	Choices map[string]func(ctx context.Context, args *T) ([]engine.Choice, error)
	// Form is the handler's optional FormOptions method (see [FormOptions]).
	Form func(ctx context.Context, args *T) (*engine.AskOptions, error)
	// Unaskable is the handler's optional Unaskable method (see [Unaskable]).
	Unaskable        func(ctx context.Context, args *T, missing []string, why string) (*engine.Result, error)
	Decode           func(args *T, raw []byte) error
	CheckInputSchema bool
	Value            func(args *T, name string) any
	Schema           func() *jsonschema.Schema
	// Dispatch runs the branch action of the handler (declined: the fields
	// the user declined, with runtime.Decline).
	Dispatch func(ctx context.Context, args *T, action engine.Action, declined []string) (*engine.Result, error)
	// File is the name of the generated file that declares the flow
	// (t_elicit.go), for the message of a stale Shape.
	File string
	// Shape is the digest of T's fields (names, embedding, order, Go types,
	// struct tags) when mcpgen generated File, as package
	// github.com/mcpgen/mcpgen/internal/shape spells it. [NewFlow] panics
	// when T's digest is no longer this one: T changed without go generate,
	// and File would serve the old struct's form and rules. Nil (a struct
	// with a field whose type reflect cannot be held to, which the generator
	// leaves unchecked) checks nothing.
	Shape []string
}

// NewFlow returns the runtime's flow for s. P is *T, which implements
// runtime.Args (the generated methods); it is inferred. The flow's functions
// hand the runtime.Args they get to s's as *T, and panic when given
// arguments of another type (the runtime only gives them its New's).
//
// It first holds T to s.Shape (internal/shape.Check, once per type, file
// and digest): when T has changed since File was generated, it panics with a
// message that names File, T and what changed, and says to run go
// generate, so that a server (or a test, or runtime/elicittest) built from
// stale generated code stops at start instead of serving the old rules.
func NewFlow[T any, P interface {
	*T
	engine.Args
}](s FlowSpec[T]) *engine.Flow {
	if err := shape.Check(reflect.TypeFor[T](), s.File, s.Shape); err != nil {
		panic(err.Error())
	}
	args := func(a engine.Args) *T {
		p, ok := a.(P)
		if !ok {
			panic(fmt.Sprintf("mcpgen: flow %s got arguments of type %T", s.Name, a))
		}
		return (*T)(p)
	}
	d := engine.Def{
		Name: s.Name, Description: s.Description, Message: s.Message, Key: s.Key,
		Fields: s.Fields, AskAlways: s.AskAlways, DateFields: s.DateFields,
		AcceptUnsealed: s.AcceptUnsealed, MaxRounds: s.MaxRounds,
		CheckInputSchema: s.CheckInputSchema, Schema: s.Schema,
		New: func() engine.Args { return P(new(T)) },
		Dispatch: func(ctx context.Context, a engine.Args, action engine.Action, declined []string) (*engine.Result, error) {
			// Backstops for every generated flow, so that generated code
			// holds no unreachable branch: the runtime dispatches only the
			// three actions, and only Accept without Fields
			// (Definition.Dispatch).
			switch {
			case len(s.Fields) == 0 && action != engine.Accept:
				return nil, fmt.Errorf("mcpgen: %s has no form to decline or cancel; unexpected action %q", s.Name, action)
			case action != engine.Accept && action != engine.Decline && action != engine.Cancel:
				return nil, fmt.Errorf("mcpgen: %s: unknown action %q", s.Name, action)
			}
			return s.Dispatch(ctx, args(a), action, declined)
		},
	}
	if len(s.Choices) > 0 {
		d.Choices = make(map[string]func(context.Context, engine.Args) ([]engine.Choice, error), len(s.Choices))
		for name, fn := range s.Choices {
			d.Choices[name] = func(ctx context.Context, a engine.Args) ([]engine.Choice, error) { return fn(ctx, args(a)) }
		}
	}
	if s.Form != nil {
		d.Form = func(ctx context.Context, a engine.Args) (*engine.AskOptions, error) { return s.Form(ctx, args(a)) }
	}
	if s.Unaskable != nil {
		d.Unaskable = func(ctx context.Context, a engine.Args, missing []string, why string) (*engine.Result, error) {
			return s.Unaskable(ctx, args(a), missing, why)
		}
	}
	if s.Decode != nil {
		d.Decode = func(a engine.Args, raw []byte) error { return s.Decode(args(a), raw) }
	}
	if s.Value != nil {
		d.Value = func(a engine.Args, name string) any { return s.Value(args(a), name) }
	}
	return engine.NewFlow(d)
}

// FormOptions returns h's FormOptions method when the handler h has one,
// else nil: a tool's handler may shape the tool's own form at run time, as
// runtime.AskOptions shape a question (the message, typed echoes, defaults),
// with
//
//	FormOptions(ctx context.Context, args *T) (*runtime.AskOptions, error)
//
// called on every request of the call, before anything is asked.
func FormOptions[T any](h any) func(ctx context.Context, args *T) (*engine.AskOptions, error) {
	if fo, ok := h.(interface {
		FormOptions(ctx context.Context, args *T) (*engine.AskOptions, error)
	}); ok {
		return fo.FormOptions
	}
	return nil
}

// Unaskable returns h's Unaskable method when the handler h has one, else
// nil: a tool's handler may answer, in place of the runtime's tool error
// (runtime.DefaultUnaskable), a call whose form its client cannot be asked
// (it declared no form elicitation, MCP 2026-07-28, client/elicitation), with
//
//	Unaskable(ctx context.Context, args *T, missing []string, why string) (*runtime.Result, error)
//
// given the JSON names of the fields the form would ask and why the client
// cannot be asked. Handlers written before it have none and keep the
// runtime's answer.
func Unaskable[T any](h any) func(ctx context.Context, args *T, missing []string, why string) (*engine.Result, error) {
	if u, ok := h.(interface {
		Unaskable(ctx context.Context, args *T, missing []string, why string) (*engine.Result, error)
	}); ok {
		return u.Unaskable
	}
	return nil
}

// Definition is a flow's definition, what [NewFlow] builds a runtime.Flow
// from (each field is documented on it): the Go name of the engine's own
// type, so that this module's tests outside runtime/ (golden: generated code
// held to what it states, and to a JSON Schema validator) can read it.
type Definition = engine.Def

// DefinitionOf returns a copy of the definition flow was built from (its
// slices and Choices map copied too): for tests, which may build another
// flow from a changed copy with [FlowOf] but never change flow.
func DefinitionOf(flow *engine.Flow) Definition { return engine.DefOf(flow) }

// FlowOf returns a flow built from a copy of d, as [NewFlow] builds one from
// what generated code states, without T's shape check: for tests (a
// definition from [DefinitionOf] with a field changed).
func FlowOf(d Definition) *engine.Flow { return engine.NewFlow(d) }
