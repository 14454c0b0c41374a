// Package elicittest drives the rounds of a generated mcpgen flow against
// your handler in-process, without a server or a client, so that the branches
// you customised (Accept, Decline, Cancel) can be tested with go test.
//
// A call starts with [Tester.Call]; while the flow asks (a [Step] with a
// [Question]), answer it with [Step.Accept], [Step.Decline] or [Step.Cancel];
// when it completes, [Step.Result] holds what the branch returned. Every
// round goes through runtime.Flow.Call exactly as an adapter would drive it,
// sealed requestState included:
//
//	tr := elicittest.New(NewBookFlightArgsFlow(myHandler{}))
//	step, err := tr.Call(ctx, map[string]any{"origin": "CDG", "destination": "JFK"})
//	// step.Question.Fields == ["date", "window", "passengers"]
//	step, err = step.Decline(ctx)
//	// step.Result.Text is what myHandler.Decline returned
package elicittest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Tester runs one flow. The zero Options get an ephemeral key ring and an
// in-memory store of the Tester's own (so that the flows of many Testers
// in one test binary never share one caller's quota of the process's
// default store, runtime.Options.MaxFlowsPerPrincipal); the request looks
// like a 2026-07-28 tools/call from a client that declares form
// elicitation unless the fields below say otherwise.
type Tester struct {
	// Flow is the generated flow under test (New<T>Flow(handler)); nil
	// when the Tester drives an exchange ([NewExchange]).
	Flow *runtime.Flow
	// Name and Handler are the tool name and handler of an exchange under
	// test (see [NewExchange]); used when Flow is nil.
	Name    string
	Handler func(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error)
	// Options are the runtime options; Keys defaults to an ephemeral ring,
	// Store to a new runtime.MemoryStore.
	Options runtime.Options
	// Principal is bound into the state as the authenticated caller.
	Principal string
	// ProtocolVersion defaults to protocol.VersionMRTR (2026-07-28); set
	// "2025-06-18" or "2025-11-25" to see what a legacy client is sent.
	ProtocolVersion string
	// NoElicitation makes the client declare no form elicitation capability.
	NoElicitation bool
}

// New returns a Tester for flow with default options.
func New(flow *runtime.Flow) *Tester {
	return &Tester{Flow: flow}
}

// NewExchange returns a Tester for a hand-written exchange handler of the
// tool called name (the handler an adapter registers with
// mcpsdk.AddExchangeTool): every round goes through runtime.NewExchange and
// Exchange.Run, so the handler's typed questions (runtime.Ask, AskURL) and
// kept values work as they do behind a server. The handler must ask one
// elicitation per round for [Step.Accept] and friends to answer it.
func NewExchange(name string, h func(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error)) *Tester {
	return &Tester{Name: name, Handler: h}
}

// Question is what the flow asked in one round: one elicitation/create
// input request (MCP 2026-07-28, client/elicitation).
type Question struct {
	// Key is the inputRequests key: the flow's key, then KEY_2, KEY_3, …;
	// a question a branch asks (runtime.Ask) goes under its name, and
	// NAME_n when it is asked again in round n. Step.Accept, Decline and
	// Cancel answer under Key.
	Key string
	// Round counts the input-required results of this call so far (1, 2, …).
	Round int
	// Message is the form's message, with the reason for asking again from round 2.
	Message string
	// Schema is the requestedSchema exactly as sent (nil in URL mode).
	Schema *jsonschema.Schema
	// URL, in URL mode (a //mcpgen:question url question, or
	// runtime.AskURL), is the page the user is asked to open; "" for a
	// form. [Step.CompletePage] completes a question's page.
	URL string
	// Fields are the JSON names of the properties asked, in schema order;
	// Required the ones the schema requires.
	Fields, Required []string
}

// Step is the state of a call after one request: either a final Result or a
// pending Question to answer.
type Step struct {
	// Result is the final result (a branch ran, or a tool error such as the
	// round limit); nil while Question is pending.
	Result *runtime.Result
	// Question is what the flow asks; nil when the call is complete.
	Question *Question
	// RequestState is the sealed state the client would echo; "" when complete.
	RequestState string

	t    *Tester
	args json.RawMessage
}

// Done reports whether the call completed (Result is set).
func (s *Step) Done() bool { return s.Result != nil }

// Call starts a tool call with args: a json.RawMessage or []byte is sent as is,
// anything else (a map, your argument struct) is encoded with encoding/json.
// Errors are the flow's: a *protocol.Error (-32602, -32021) or an error
// a branch returned.
func (t *Tester) Call(ctx context.Context, args any) (*Step, error) {
	var raw json.RawMessage
	switch a := args.(type) {
	case json.RawMessage:
		raw = a
	case []byte:
		raw = a
	case nil:
	default:
		b, err := json.Marshal(a)
		if err != nil {
			return nil, fmt.Errorf("elicittest: encoding arguments: %w", err)
		}
		raw = b
	}
	return t.send(ctx, raw, "", nil, 0)
}

// Accept answers the pending question with action accept and content (the
// form's values by JSON name; numbers may be any Go number type).
func (s *Step) Accept(ctx context.Context, content map[string]any) (*Step, error) {
	return s.answer(ctx, &protocol.ElicitResult{Action: protocol.Accept, Content: content})
}

// Decline answers the pending question with action decline.
func (s *Step) Decline(ctx context.Context) (*Step, error) {
	return s.answer(ctx, &protocol.ElicitResult{Action: protocol.Decline})
}

// Cancel answers the pending question with action cancel.
func (s *Step) Cancel(ctx context.Context) (*Step, error) {
	return s.answer(ctx, &protocol.ElicitResult{Action: protocol.Cancel})
}

// Respond retries with raw inputResponses and requestState, for tests of what
// a misbehaving client sends (answers under other keys, no answer, a tampered
// state).
func (s *Step) Respond(ctx context.Context, state string, responses map[string]protocol.InputResponse) (*Step, error) {
	round := 0
	if s.Question != nil {
		round = s.Question.Round
	}
	return s.t.send(ctx, s.args, state, responses, round)
}

// ErrDone is returned when a completed Step is answered.
var ErrDone = errors.New("elicittest: the call is complete; there is no question to answer")

func (s *Step) answer(ctx context.Context, r *protocol.ElicitResult) (*Step, error) {
	if s.Question == nil {
		return nil, ErrDone
	}
	return s.t.send(ctx, s.args, s.RequestState, map[string]protocol.InputResponse{s.Question.Key: r}, s.Question.Round)
}

// round reads the round from the key (KEY, then KEY_2, KEY_3, …), falling
// back to guess (the round after the one answered) when the key has another
// shape: a branch's question (NAME, NAME_n).
func (t *Tester) round(key string, guess int) int {
	if t.Flow == nil {
		return guess
	}
	first := engine.DefOf(t.Flow).Key
	if key == first {
		return 1
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(key, first+"_")); err == nil && n > 1 {
		return n
	}
	return guess
}

// call runs one request through the flow, or through a new exchange.
func (t *Tester) call(ctx context.Context, req *protocol.Request) (*runtime.Response, error) {
	if t.Flow != nil {
		return t.Flow.Call(ctx, &t.Options, req)
	}
	if t.Handler == nil {
		return nil, errors.New("elicittest: the Tester has neither a Flow nor an exchange Handler")
	}
	x, err := runtime.NewExchange(t.Name, &t.Options, req)
	if err != nil {
		return nil, err
	}
	return x.Run(ctx, func(ctx context.Context) (*runtime.Response, error) { return t.Handler(ctx, x) })
}

func (t *Tester) send(ctx context.Context, args json.RawMessage, state string, responses map[string]protocol.InputResponse, round int) (*Step, error) {
	if t.Options.Keys == nil {
		t.Options.Keys = runtime.EphemeralKeyRing()
	}
	if t.Options.Store == nil {
		t.Options.Store = runtime.NewMemoryStore()
	}
	if t.Options.PageURL == "" {
		t.Options.PageURL = DefaultPageURL
	}
	version := t.ProtocolVersion
	if version == "" {
		version = protocol.VersionMRTR
	}
	req := &protocol.Request{
		Method: "tools/call", Arguments: args, InputResponses: responses, RequestState: state,
		FormElicitation: !t.NoElicitation, URLElicitation: !t.NoElicitation, ProtocolVersion: version, Principal: t.Principal,
	}
	resp, err := t.call(ctx, req)
	if err != nil {
		return nil, err
	}
	step := &Step{t: t, args: args, Result: resp.Result, RequestState: resp.RequestState}
	if resp.Result != nil {
		return step, nil
	}
	if len(resp.InputRequests) != 1 {
		return nil, fmt.Errorf("elicittest: the flow sent %d input requests, want 1", len(resp.InputRequests))
	}
	keys := make([]string, 0, 1)
	for k := range resp.InputRequests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	er, ok := resp.InputRequests[keys[0]].(*protocol.ElicitRequest)
	if !ok {
		return nil, fmt.Errorf("elicittest: input request %q is %T, not an elicitation", keys[0], resp.InputRequests[keys[0]])
	}
	q := &Question{Key: keys[0], Round: t.round(keys[0], round+1), Message: er.Message, Schema: er.RequestedSchema, URL: er.URL}
	if er.RequestedSchema != nil {
		for p := er.RequestedSchema.Properties.Oldest(); p != nil; p = p.Next() {
			q.Fields = append(q.Fields, p.Key)
		}
		q.Required = append(q.Required, er.RequestedSchema.Required...)
	}
	step.Question = q
	return step, nil
}
