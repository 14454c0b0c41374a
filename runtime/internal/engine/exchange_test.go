package engine

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

func exchangeOpts(t *testing.T) *Options {
	t.Helper()
	return &Options{Keys: EphemeralKeyRing()}
}

func allCaps(req *protocol.Request) *protocol.Request {
	req.FormElicitation, req.Sampling, req.Roots = true, true, true
	return req
}

// run runs h as x's handler ([Exchange.Run]), failing the test on an error.
func run(t *testing.T, x *Exchange, h func(ctx context.Context) (*Response, error)) *Response {
	t.Helper()
	resp, err := x.Run(context.Background(), h)
	require.NoError(t, err)
	return resp
}

// askRound1 runs the first call of an exchange named "tool" that asks for a
// sampling answer and the roots, carrying "carried".
func askRound1(t *testing.T, o *Options, args string) *Response {
	t.Helper()
	x, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", Arguments: json.RawMessage(args)}))
	require.NoError(t, err)
	resp := run(t, x, func(ctx context.Context) (*Response, error) {
		assert.Equal(t, 0, Round(ctx))
		_, ok := x.Sampling("q")
		assert.False(t, ok, "a first call has no answers")
		return x.InputRequired(map[string]protocol.InputRequest{
			"q":     &protocol.SamplingRequest{Messages: []protocol.SamplingMessage{{Role: "user", Text: "Capital of France?"}}, MaxTokens: 10},
			"roots": &protocol.RootsRequest{},
		}, map[string]string{"step": "one"})
	})
	require.Nil(t, resp.Result)
	require.NotEmpty(t, resp.RequestState)
	require.Len(t, resp.InputRequests, 2)
	return resp
}

func TestExchangeRoundTrip(t *testing.T) {
	o := exchangeOpts(t)
	r1 := askRound1(t, o, `{"a":1}`)

	x, err := NewExchange("tool", o, allCaps(&protocol.Request{
		Method: "tools/call", Arguments: json.RawMessage(`{ "a" : 1 }`), RequestState: r1.RequestState,
		InputResponses: map[string]protocol.InputResponse{
			"q":     &protocol.SamplingResult{Role: "assistant", Text: "Paris", Model: "m"},
			"roots": &protocol.RootsResult{Roots: []protocol.Root{{URI: "file:///r", Name: "R"}}},
			"extra": &protocol.ElicitResult{Action: Accept},
		},
	}))
	require.NoError(t, err)
	s, ok := x.Sampling("q")
	require.True(t, ok)
	assert.Equal(t, "Paris", s.Text)
	roots, ok := x.Roots("roots")
	require.True(t, ok)
	assert.Equal(t, []protocol.Root{{URI: "file:///r", Name: "R"}}, roots.Roots)
	_, ok = x.Elicitation("extra")
	assert.False(t, ok, "an answer under a key that was not asked is ignored")
	var carried map[string]string
	ok, err = x.Carried(&carried)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, map[string]string{"step": "one"}, carried)

	// Round 2 keeps the flow id and yields a new state.
	var id string
	r2 := run(t, x, func(ctx context.Context) (*Response, error) {
		assert.Equal(t, 1, Round(ctx))
		id = FlowID(ctx)
		assert.NotEmpty(t, id)
		return x.InputRequired(map[string]protocol.InputRequest{"more": &protocol.RootsRequest{}}, nil)
	})
	assert.NotEqual(t, r1.RequestState, r2.RequestState)
	x2, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{"a":1}`), RequestState: r2.RequestState}))
	require.NoError(t, err)
	run(t, x2, func(ctx context.Context) (*Response, error) {
		assert.Equal(t, 2, Round(ctx))
		assert.Equal(t, id, FlowID(ctx))
		return x2.InputRequired(map[string]protocol.InputRequest{"more": &protocol.RootsRequest{}}, nil)
	})
	_, ok = x2.Sampling("q")
	assert.False(t, ok, "round 2 did not ask q")
	ok, err = x2.Carried(&carried)
	require.NoError(t, err)
	assert.False(t, ok, "a nil carry carries nothing")
}

// An exchange has a flow id on its first call too: the one its handler sees,
// fresh per call, and the one the state of its first round carries.
func TestExchangeFlowIDOnAFirstCall(t *testing.T) {
	o := exchangeOpts(t)
	first := func(h func(x *Exchange) (*Response, error)) (id string, resp *Response) {
		x, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{"a":1}`)}))
		require.NoError(t, err)
		resp = run(t, x, func(ctx context.Context) (*Response, error) {
			id = FlowID(ctx)
			return h(x)
		})
		return id, resp
	}
	completes := func(*Exchange) (*Response, error) { return complete(Text("done")), nil }
	id, resp := first(completes)
	assert.Len(t, id, 22)
	require.NotNil(t, resp.Result)
	other, _ := first(completes)
	assert.NotEqual(t, id, other, "another call, another id")

	// A first call that asks seals the id its handler saw.
	id, resp = first(func(x *Exchange) (*Response, error) {
		return x.InputRequired(map[string]protocol.InputRequest{"roots": &protocol.RootsRequest{}}, nil)
	})
	require.NotEmpty(t, resp.RequestState)
	x2, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{"a":1}`),
		RequestState: resp.RequestState, InputResponses: map[string]protocol.InputResponse{"roots": &protocol.RootsResult{}}}))
	require.NoError(t, err)
	var seen string
	run(t, x2, func(ctx context.Context) (*Response, error) {
		seen = FlowID(ctx)
		return complete(Text("done")), nil
	})
	assert.Equal(t, id, seen)
}

func TestExchangeRejectsStates(t *testing.T) {
	o := exchangeOpts(t)
	var rejected []Rejection
	o.OnReject = func(_ context.Context, r Rejection) { rejected = append(rejected, r) }
	r1 := askRound1(t, o, `{"a":1}`)
	other := EphemeralKeyRing()
	later := time.Now().Add(DefaultTTL + time.Minute)
	cases := []struct {
		name   string
		opts   *Options
		mutate func(*protocol.Request)
	}{
		{"tampered suffix", o, func(r *protocol.Request) { r.RequestState += "-TAMPERED" }},
		{"flipped character", o, func(r *protocol.Request) {
			b := []byte(r.RequestState)
			b[len(b)/2] ^= 1
			r.RequestState = string(b)
		}},
		{"other key", &Options{Keys: other}, func(*protocol.Request) {}},
		{"other method", o, func(r *protocol.Request) { r.Method = "prompts/get" }},
		{"other arguments", o, func(r *protocol.Request) { r.Arguments = json.RawMessage(`{"a":2}`) }},
		{"other principal", o, func(r *protocol.Request) { r.Principal = "mallory" }},
		{"expired", &Options{Keys: o.Keys, Now: func() time.Time { return later }}, func(*protocol.Request) {}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := allCaps(&protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{"a":1}`), RequestState: r1.RequestState,
				InputResponses: map[string]protocol.InputResponse{"q": &protocol.SamplingResult{Text: "Paris"}}})
			tc.mutate(req)
			_, err := NewExchange("tool", tc.opts, req)
			var pe *protocol.Error
			require.True(t, errors.As(err, &pe), "got %v", err)
			assert.Equal(t, int64(protocol.CodeInvalidParams), pe.Code)
		})
	}
	_, err := NewExchange("other", o, allCaps(&protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{"a":1}`), RequestState: r1.RequestState}))
	require.Error(t, err, "a state issued for tool does not resume other")
	assert.NotEmpty(t, rejected, "rejections reach OnReject")
	assert.Equal(t, "tool", rejected[0].Flow)
}

func TestExchangeWrongAnswerShape(t *testing.T) {
	o := exchangeOpts(t)
	r1 := askRound1(t, o, `{}`)
	for name, ans := range map[string]protocol.InputResponse{
		"elicitation answer to a sampling request": &protocol.ElicitResult{Action: Accept},
		"undecodable answer":                       nil,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", RequestState: r1.RequestState,
				InputResponses: map[string]protocol.InputResponse{"q": ans}}))
			var pe *protocol.Error
			require.True(t, errors.As(err, &pe), "got %v", err)
			assert.Equal(t, int64(protocol.CodeInvalidParams), pe.Code)
			assert.Contains(t, pe.Message, `"q"`)
		})
	}
}

func TestExchangeAnswersWithoutStateIgnored(t *testing.T) {
	x, err := NewExchange("tool", exchangeOpts(t), allCaps(&protocol.Request{Method: "tools/call",
		InputResponses: map[string]protocol.InputResponse{"q": &protocol.SamplingResult{Text: "forged"}}}))
	require.NoError(t, err)
	_, ok := x.Sampling("q")
	assert.False(t, ok)
}

func TestExchangeAskChecksCapabilities(t *testing.T) {
	x, err := NewExchange("tool", exchangeOpts(t), &protocol.Request{Method: "tools/call", Sampling: true})
	require.NoError(t, err)
	run(t, x, func(ctx context.Context) (*Response, error) {
		assert.True(t, ClientOf(ctx).Supports(&protocol.SamplingRequest{}))
		assert.False(t, ClientOf(ctx).Supports(&protocol.ElicitRequest{}))
		return complete(Text("ok")), nil
	})
	_, err = x.InputRequired(map[string]protocol.InputRequest{
		"name":  &protocol.ElicitRequest{Message: "Name?", RequestedSchema: &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}},
		"roots": &protocol.RootsRequest{},
		"q":     &protocol.SamplingRequest{MaxTokens: 1},
	}, nil)
	var pe *protocol.Error
	require.True(t, errors.As(err, &pe), "got %v", err)
	assert.Equal(t, int64(protocol.CodeMissingCapability), pe.Code)
	b, _ := json.Marshal(pe.Data)
	assert.JSONEq(t, `{"requiredCapabilities":{"elicitation":{"form":{}},"roots":{}}}`, string(b))

	_, err = x.InputRequired(nil, nil)
	assert.Error(t, err)
	_, err = x.InputRequired(map[string]protocol.InputRequest{"": &protocol.SamplingRequest{}}, nil)
	assert.Error(t, err)
	_, err = x.InputRequired(map[string]protocol.InputRequest{"q": &protocol.SamplingRequest{MaxTokens: 1}}, func() {})
	assert.Error(t, err, "a carry that does not encode")
}

func TestExchangeRoundLimit(t *testing.T) {
	o := &Options{Keys: EphemeralKeyRing(), MaxRounds: 2}
	state := ""
	for round := 0; round < 2; round++ {
		x, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", RequestState: state}))
		require.NoError(t, err)
		resp, err := x.InputRequired(map[string]protocol.InputRequest{"r": &protocol.RootsRequest{}}, nil)
		require.NoError(t, err)
		require.Nil(t, resp.Result)
		state = resp.RequestState
	}
	x, err := NewExchange("tool", o, allCaps(&protocol.Request{Method: "tools/call", RequestState: state}))
	require.NoError(t, err)
	resp, err := x.InputRequired(map[string]protocol.InputRequest{"r": &protocol.RootsRequest{}}, nil)
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "2 rounds")
}

// An exchange handler knows its caller, as a flow's branches do:
// Principal(ctx) inside Run.
func TestExchangePrincipal(t *testing.T) {
	principal := func(req *protocol.Request) string {
		x, err := NewExchange("tool", exchangeOpts(t), req)
		require.NoError(t, err)
		var inRun string
		run(t, x, func(ctx context.Context) (*Response, error) {
			inRun = Principal(ctx)
			return complete(Text("ok")), nil
		})
		return inRun
	}
	assert.Equal(t, "user-7", principal(&protocol.Request{Method: "tools/call", Principal: "user-7"}))
	assert.Empty(t, principal(&protocol.Request{Method: "tools/call"}), "anonymous")
}
