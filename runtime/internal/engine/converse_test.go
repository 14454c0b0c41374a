package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// sessionClient answers the requests a flow sends on a session
// (protocol.Request.Send) with answer, recording each request it was sent.
type sessionClient struct {
	sent   []*protocol.ElicitRequest
	answer func(n int, er *protocol.ElicitRequest) (protocol.InputResponse, error)
}

func (c *sessionClient) send(_ context.Context, ir protocol.InputRequest) (protocol.InputResponse, error) {
	er, ok := ir.(*protocol.ElicitRequest)
	if !ok {
		return nil, errors.New("not an elicitation")
	}
	c.sent = append(c.sent, er)
	return c.answer(len(c.sent), er)
}

func onSession(r *protocol.Request, version string, c *sessionClient) *protocol.Request {
	r.ProtocolVersion = version
	r.Send = c.send
	return r
}

func accepted(content map[string]any) *protocol.ElicitResult {
	return &protocol.ElicitResult{Action: engine.Accept, Content: content}
}

// On a 2025-era session one call carries the whole flow: the tool's form,
// then the branch's question, whose mistyped echo is asked again with the
// reason, then the right one: three questions, one branch run, one result.
func TestSessionGetsEveryRoundInOneCall(t *testing.T) {
	for _, version := range []string{protocol.Version20251125, protocol.Version20250618} {
		t.Run(version, func(t *testing.T) {
			e := newShip(t, fastSlow...)
			c := &sessionClient{answer: func(n int, er *protocol.ElicitRequest) (protocol.InputResponse, error) {
				switch n {
				case 1:
					return accepted(map[string]any{"speed": "fast"}), nil
				case 2:
					return accepted(map[string]any{"code": "P2"}), nil
				}
				return accepted(map[string]any{"code": "P1"}), nil
			}}
			resp := e.call(onSession(req(`{"parcel":"P1"}`, "", nil), version, c))
			require.NotNil(t, resp.Result, "one request, a complete result")
			assert.False(t, resp.Result.IsError, resp.Result.Text)
			require.Len(t, c.sent, 3)
			assert.Equal(t, "Ship P1 by fast for 10 (5 in stock)?", c.sent[1].Message)
			assert.Contains(t, c.sent[2].Message, `code: must be exactly "P1"`)
			runs := e.h.Runs()
			require.Len(t, runs, 1)
			assert.Equal(t, engine.Accept, runs[0].Action)
			assert.JSONEq(t, `{"args":{"parcel":"P1","speed":"fast"},"price":10,"approve":{"code":"P1"}}`, string(runs[0].Args))
		})
	}
}

// A bad answer on a session is asked again with the reason, within the
// round limit; the schema sent is the one the session's version knows.
func TestSessionBadAnswerIsAskedAgain(t *testing.T) {
	e := newEnv(t, nil)
	c := &sessionClient{answer: func(n int, er *protocol.ElicitRequest) (protocol.InputResponse, error) {
		if n == 1 {
			return accepted(map[string]any{"name": "Ada", "email": "bad", "nights": 2}), nil
		}
		return accepted(map[string]any{"email": "ada@example.com"}), nil
	}}
	res := e.done(onSession(req(paris, "", nil), protocol.Version20250618, c))
	assert.False(t, res.IsError, res.Text)
	require.Len(t, c.sent, 2)
	meal, ok := c.sent[0].RequestedSchema.Properties.Get("meal")
	require.True(t, ok)
	assert.Equal(t, []string{"Vegetarian", "Fish"}, meal.Extras["enumNames"], "2025-06-18 gets enumNames")
	assert.Contains(t, c.sent[1].Message, "email: must be an email address")
	assert.Equal(t, []string{"email"}, fieldNames(c.sent[1]))
	assert.Equal(t, 1, e.rec.Count())

	// An answer that stays bad ends at the limit, as for any client.
	e2 := newEnv(t, nil)
	c2 := &sessionClient{answer: func(int, *protocol.ElicitRequest) (protocol.InputResponse, error) {
		return accepted(map[string]any{"name": "Ada", "email": "bad", "nights": 2}), nil
	}}
	res = e2.done(onSession(req(paris, "", nil), protocol.Version20251125, c2))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "gave up after 3 rounds")
	assert.Len(t, c2.sent, 3)
	assert.Zero(t, e2.rec.Count())
}

// An answer the client refused itself (Refused) is asked again with the
// reason, as an answer that breaks a rule.
func TestSessionRefusedAnswerIsAskedAgain(t *testing.T) {
	e := newEnv(t, nil)
	c := &sessionClient{answer: func(n int, er *protocol.ElicitRequest) (protocol.InputResponse, error) {
		if n == 1 {
			return &protocol.ElicitResult{Action: engine.Accept, Refused: "nights breaks its maximum rule"}, nil
		}
		return accepted(goodAnswer), nil
	}}
	res := e.done(onSession(req(paris, "", nil), protocol.Version20251125, c))
	assert.False(t, res.IsError, res.Text)
	require.Len(t, c.sent, 2)
	assert.Contains(t, c.sent[1].Message, "nights breaks its maximum rule")
	assert.Equal(t, fieldNames(c.sent[0]), fieldNames(c.sent[1]), "the fields of the refused answer, again")
	assert.Equal(t, 1, e.rec.Count())
}

// A client that cannot answer (an error, the stream gone, the call
// cancelled) ends the call with nothing run and nothing recorded: the same
// call sent again starts afresh.
func TestSessionThatCannotAnswerRunsNothing(t *testing.T) {
	e := newShip(t, fastSlow...)
	gone := errors.New("the stream went away")
	c := &sessionClient{answer: func(n int, er *protocol.ElicitRequest) (protocol.InputResponse, error) {
		if n == 1 {
			return accepted(map[string]any{"speed": "fast"}), nil
		}
		return nil, gone
	}}
	_, err := e.flow.Call(context.Background(), e.opts, onSession(req(`{"parcel":"P1"}`, "", nil), protocol.Version20251125, c))
	require.ErrorIs(t, err, gone)
	assert.Contains(t, err.Error(), "nothing ran")
	assert.Zero(t, e.h.Count())

	ctx, cancel := context.WithCancelCause(context.Background())
	cancelled := errors.New("notifications/cancelled")
	c = &sessionClient{answer: func(int, *protocol.ElicitRequest) (protocol.InputResponse, error) {
		cancel(cancelled)
		return nil, context.Canceled
	}}
	_, err = e.flow.Call(ctx, e.opts, onSession(req(`{"parcel":"P1"}`, "", nil), protocol.Version20251125, c))
	require.ErrorIs(t, err, cancelled)
	assert.Zero(t, e.h.Count())
}

// Each round of a session's call is a request of the engine like any
// other: OnAsk hears every question, OnComplete the one end, and the flow
// id is the same throughout.
func TestSessionRoundsAreEvents(t *testing.T) {
	e := newShip(t, fastSlow...)
	var events []engine.Event
	e.opts.OnEnd = func(_ context.Context, ev engine.Event) { events = append(events, ev) }
	c := &sessionClient{answer: func(n int, er *protocol.ElicitRequest) (protocol.InputResponse, error) {
		if n == 1 {
			return accepted(map[string]any{"speed": "slow"}), nil
		}
		return accepted(map[string]any{"code": "P1"}), nil
	}}
	resp := e.call(onSession(req(`{"parcel":"P1"}`, "", nil), protocol.Version20251125, c))
	require.NotNil(t, resp.Result)
	require.Len(t, events, 3)
	assert.Equal(t, []string{"asked", "asked", "completed"}, []string{events[0].Outcome, events[1].Outcome, events[2].Outcome})
	assert.Equal(t, []int{0, 1, 2}, []int{events[0].Round, events[1].Round, events[2].Round})
	assert.Equal(t, events[0].FlowID, events[2].FlowID)
	assert.NotEmpty(t, events[0].FlowID)
}

// An exchange on a session gets every round in one call too.
func TestSessionExchange(t *testing.T) {
	opts := &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}
	var sent []string
	r := &protocol.Request{Method: "tools/call", ProtocolVersion: protocol.Version20251125, Roots: true, FormElicitation: true,
		Send: func(_ context.Context, ir protocol.InputRequest) (protocol.InputResponse, error) {
			sent = append(sent, ir.Method())
			if _, ok := ir.(*protocol.RootsRequest); ok {
				return &protocol.RootsResult{Roots: []protocol.Root{{URI: "file:///a"}}}, nil
			}
			return accepted(map[string]any{"ok": true}), nil
		}}
	resp, err := engine.Converse(context.Background(), r, func(ctx context.Context, r *protocol.Request) (*engine.Response, error) {
		x, err := engine.NewExchange("tool", opts, r)
		if err != nil {
			return nil, err
		}
		return x.Run(ctx, func(ctx context.Context) (*engine.Response, error) {
			// Each round sees the answers of the round before it only.
			switch engine.Round(ctx) {
			case 0:
				return x.InputRequired(map[string]protocol.InputRequest{"r": &protocol.RootsRequest{}}, nil)
			case 1:
				if roots, ok := x.Roots("r"); !ok || len(roots.Roots) != 1 {
					return nil, errors.New("no roots")
				}
				schema := json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)
				return x.InputRequired(map[string]protocol.InputRequest{"e": &protocol.ElicitRequest{Mode: "form", Message: "OK?", RequestedSchemaJSON: schema}}, nil)
			}
			if er, ok := x.Elicitation("e"); !ok || er.Content["ok"] != true {
				return nil, errors.New("no answer")
			}
			return &engine.Response{Result: &engine.Result{Text: "done"}}, nil
		})
	})
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.Equal(t, "done", resp.Result.Text)
	assert.Equal(t, []string{"roots/list", "elicitation/create"}, sent)
}

func fieldNames(er *protocol.ElicitRequest) []string {
	var names []string
	for p := er.RequestedSchema.Properties.Oldest(); p != nil; p = p.Next() {
		names = append(names, p.Key)
	}
	return names
}

// An answer the flow refuses as malformed ends a session's call in an
// error that names the answer (not inputResponses, which a session's client
// never sent) and says nothing ran; not a JSON-RPC error about parameters.
func TestSessionMalformedAnswer(t *testing.T) {
	e := newShip(t, fastSlow...)
	c := &sessionClient{answer: func(int, *protocol.ElicitRequest) (protocol.InputResponse, error) {
		return &protocol.ElicitResult{Action: "maybe"}, nil
	}}
	_, err := e.flow.Call(context.Background(), e.opts, onSession(req(`{"parcel":"P1"}`, "", nil), protocol.Version20251125, c))
	require.Error(t, err)
	var pe *protocol.Error
	assert.False(t, errors.As(err, &pe), "not a JSON-RPC error: %v", err)
	assert.Contains(t, err.Error(), `the answer to elicitation/create has unknown action "maybe"`)
	assert.Contains(t, err.Error(), "nothing ran")
	assert.Zero(t, e.h.Count())
}

// A question that changes on every round can never be answered; the round
// limit's error says that is why.
func TestChangingQuestionGivesUpSayingWhy(t *testing.T) {
	e := newShip(t, fastSlow...)
	e.opts.MaxRounds = 2
	stock := 5
	c := &sessionClient{answer: func(int, *protocol.ElicitRequest) (protocol.InputResponse, error) {
		stock++
		e.h.Set(func(h *fixture.ShipRecorder) { h.Stock = stock })
		return accepted(map[string]any{"code": "P1"}), nil
	}}
	resp := e.call(onSession(req(`{"parcel":"P1","speed":"fast"}`, "", nil), protocol.Version20251125, c))
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "gave up after 2 rounds")
	assert.Contains(t, resp.Result.Text, "the question changed between rounds")
	assert.Zero(t, e.h.Count())
}
