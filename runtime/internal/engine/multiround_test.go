package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// flowDef is a flow's definition, as engine.Redefine changes it.
type flowDef = engine.Def

// question returns the only input request of resp with its key and the
// names of the properties it asks for.
func question(t *testing.T, resp *engine.Response) (string, *protocol.ElicitRequest, []string) {
	t.Helper()
	require.Len(t, resp.InputRequests, 1)
	for k, ir := range resp.InputRequests {
		er, ok := ir.(*protocol.ElicitRequest)
		require.True(t, ok, "input request is %T", ir)
		var names []string
		for p := er.RequestedSchema.Properties.Oldest(); p != nil; p = p.Next() {
			names = append(names, p.Key)
		}
		return k, er, names
	}
	return "", nil, nil
}

func lastArgs(t *testing.T, rec *fixture.TripRecorder) fixture.Trip {
	t.Helper()
	runs := rec.Runs()
	require.NotEmpty(t, runs)
	var trip fixture.Trip
	require.NoError(t, json.Unmarshal(runs[len(runs)-1].Args, &trip))
	return trip
}

func TestInvalidAnswerAsksAgainForFailingFieldsOnly(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	key, q, asked := question(t, r1)
	assert.Equal(t, "plan_trip", key)
	assert.Equal(t, []string{"name", "email", "nights", "meal", "tags", "quiet"}, asked)
	assert.Equal(t, []string{"name", "email", "nights"}, q.RequestedSchema.Required)
	assert.Equal(t, "Tell us about your trip.", q.Message)

	// Round 1: a good name and nights, a bad email, an unknown key.
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", map[string]any{
		"name": "Ada", "email": "not-an-email", "nights": 3, "meal": "fish", "surprise": 1})))
	key, q, asked = question(t, r2)
	assert.Equal(t, "plan_trip_2", key)
	assert.Equal(t, []string{"email"}, asked, "only the failing field is asked again")
	assert.Contains(t, q.Message, "Tell us about your trip.")
	assert.Contains(t, q.Message, "email: must be")

	// Round 2: incomplete (email missing) and an attempt to change an earlier answer.
	r3 := e.ask(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"name": "Eve", "nights": 99})))
	key, q, asked = question(t, r3)
	assert.Equal(t, "plan_trip_3", key)
	assert.Equal(t, []string{"email"}, asked)
	assert.Contains(t, q.Message, "email: is required")

	// Round 3: the email. Earlier answers were kept, later changes to them ignored.
	res := e.done(req(paris, r3.RequestState, accept("plan_trip_3", map[string]any{"email": "ada@example.com", "name": "Eve"})))
	assert.False(t, res.IsError)
	got := lastArgs(t, e.rec)
	assert.Equal(t, "Ada", got.Name)
	assert.Equal(t, "ada@example.com", got.Email)
	require.NotNil(t, got.Nights)
	assert.Equal(t, 3, *got.Nights)
	assert.Equal(t, "fish", got.Meal)
	require.NotNil(t, got.Quiet, "an optional field left unanswered takes its default")
	assert.True(t, *got.Quiet)
	runs := e.rec.Runs()
	require.Len(t, runs, 1)
	assert.Equal(t, engine.Accept, runs[0].Action)
	assert.Equal(t, 3, runs[0].Round)
	assert.NotEmpty(t, runs[0].FlowID)
}

func TestFlowIDIsFixedAcrossRounds(t *testing.T) {
	e := newEnv(t, nil)
	var asked []string
	e.opts.OnAsk = func(_ context.Context, ev engine.Event) { asked = append(asked, ev.FlowID) }
	r1 := e.ask(req(paris, "", nil))
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "nights": 1})))
	e.done(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "a@b.c"})))
	// The same first state answered on an instance with another store: its
	// store cannot know the flow (another epoch), so it is refused.
	other := *e.opts
	other.Store = engine.NewMemoryStore()
	_, err := e.flow.Call(context.Background(), &other, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32602, pe.Code)
	assert.Contains(t, pe.Message, "start the call again")
	// The message is honest with a client that lost a response: the causes
	// (for an in-memory store, another process; a Redis failover is named
	// only where there is Redis), that this request ran nothing, and that
	// the call may have completed before.
	assert.Contains(t, pe.Message, "it is this process's memory, and this call began in another process")
	assert.NotContains(t, pe.Message, "Redis")
	assert.Contains(t, pe.Message, "This request ran nothing, but an earlier request of this call may have completed it")
	assert.Contains(t, pe.Message, "check whether the call's effect happened before you start the call again")
	// Another call: another flow id.
	r1b := e.ask(req(paris, "", nil))
	e.done(req(paris, r1b.RequestState, accept("plan_trip", goodAnswer)))
	runs := e.rec.Runs()
	require.Len(t, runs, 2)
	require.Len(t, asked, 3)
	assert.Equal(t, asked[0], asked[1], "rounds 1 and 2")
	assert.Equal(t, asked[0], runs[0].FlowID, "and the branch")
	assert.NotEqual(t, runs[0].FlowID, runs[1].FlowID)
}

// A call that completes without asking still runs its branch with a flow id,
// a fresh one per call: side effects keyed on it stay apart. OnComplete and
// the log hear the same id.
func TestFlowIDOfACallThatAskedNothing(t *testing.T) {
	e := newEnv(t, nil)
	var events []engine.Event
	e.opts.OnComplete = func(_ context.Context, ev engine.Event) { events = append(events, ev) }
	complete := `{"city":"Paris","name":"Ada","email":"ada@example.com","nights":3}`
	e.done(req(complete, "", nil))
	e.done(req(complete, "", nil))
	runs := e.rec.Runs()
	require.Len(t, runs, 2)
	require.Len(t, events, 2)
	for i, r := range runs {
		assert.Zero(t, r.Round)
		assert.Len(t, r.FlowID, 22, "run %d: a random id, like the ones a round fixes", i)
		assert.Equal(t, r.FlowID, events[i].FlowID)
	}
	assert.NotEqual(t, runs[0].FlowID, runs[1].FlowID, "two calls, two flows")
}

// A call that asked nothing for its arguments but whose branch then asks a
// question keeps, in every later round, the id its first request's branch
// saw: the sealed state carries it.
func TestFlowIDOfABranchThatAsksFirst(t *testing.T) {
	e := newShip(t, fastSlow...)
	args := `{"parcel":"P1","speed":"fast"}`
	r1 := e.call(req(args, "", nil))
	key, _, _ := question(t, r1)
	require.Equal(t, "approve", key)
	r2 := e.call(req(args, r1.RequestState, accept("approve", map[string]any{"code": "nope"})))
	key, _, _ = question(t, r2)
	require.Equal(t, "approve_2", key)
	r3 := e.call(req(args, r2.RequestState, accept("approve_2", map[string]any{"code": "P1"})))
	require.NotNil(t, r3.Result)

	seen := e.h.Seen()
	require.Len(t, seen, 3)
	assert.NotEmpty(t, seen[0])
	assert.Equal(t, []string{seen[0], seen[0], seen[0]}, seen, "one id across the rounds")
	runs := e.h.Runs()
	require.Len(t, runs, 1)
	assert.Equal(t, seen[0], runs[0].FlowID)
	assert.Equal(t, 2, runs[0].Round)

	// Another call of the same arguments is another flow.
	other := e.call(req(args, "", nil))
	require.Nil(t, other.Result)
	assert.NotEqual(t, seen[0], e.h.Seen()[3])
}

func TestRoundLimitEndsInToolError(t *testing.T) {
	bad := map[string]any{"name": "Ada", "email": "nope", "nights": 2}
	for _, tc := range []struct {
		name   string
		limit  int // Options.MaxRounds
		rounds int // the flow's MaxRounds (//mcpgen:rounds)
		want   int
	}{
		{"default", 0, 0, engine.DefaultMaxRounds},
		{"options", 5, 0, 5},
		{"flow overrides options", 5, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.opts.MaxRounds = tc.limit
			e.flow = engine.Redefine(e.flow, func(d *flowDef) { d.MaxRounds = tc.rounds })
			resp := e.ask(req(paris, "", nil))
			for round := 1; round < tc.want; round++ {
				key, _, _ := question(t, resp)
				resp = e.ask(req(paris, resp.RequestState, accept(key, bad)))
			}
			key, _, _ := question(t, resp)
			res := e.done(req(paris, resp.RequestState, accept(key, bad)))
			assert.True(t, res.IsError)
			assert.Contains(t, res.Text, fmt.Sprintf("gave up after %d rounds", tc.want))
			assert.Contains(t, res.Text, "email: must be", "the error says why")
			assert.Zero(t, e.rec.Count())
		})
	}
}

func TestAnswersToOtherQuestionsAreNeverApplied(t *testing.T) {
	e := newEnv(t, nil)
	e.opts.MaxRounds = 6
	r1 := e.ask(req(paris, "", nil))
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "email": "x", "nights": 2})))
	k2, _, asked2 := question(t, r2)
	require.Equal(t, "plan_trip_2", k2)
	require.Equal(t, []string{"email"}, asked2)

	// The right content under the key of an earlier round: not applied, asked again.
	r3 := e.ask(req(paris, r2.RequestState, accept("plan_trip", map[string]any{"email": "ada@example.com"})))
	k3, _, asked3 := question(t, r3)
	assert.Equal(t, "plan_trip_3", k3)
	assert.Equal(t, []string{"email"}, asked3)

	// A key that was never asked.
	r4 := e.ask(req(paris, r3.RequestState, accept("email", map[string]any{"email": "ada@example.com"})))
	k4, _, asked4 := question(t, r4)
	assert.Equal(t, "plan_trip_4", k4)
	assert.Equal(t, []string{"email"}, asked4)

	// No answer at all, and a decline under a stale key: asked again, no branch.
	r5 := e.ask(req(paris, r4.RequestState, nil))
	k5, _, _ := question(t, r5)
	r6 := e.ask(req(paris, r5.RequestState, act(k4, engine.Decline)))
	k6, _, _ := question(t, r6)
	assert.Equal(t, "plan_trip_6", k6)
	assert.Zero(t, e.rec.Count())

	// Answers without any state are never applied (this flow is sealed).
	e.ask(req(paris, "", accept("plan_trip", goodAnswer)))
	assert.Zero(t, e.rec.Count())
	_ = k5

	e.done(req(paris, r6.RequestState, accept(k6, map[string]any{"email": "ada@example.com"})))
	assert.Equal(t, "Ada", lastArgs(t, e.rec).Name)
}

// changedTrip is plan_trip after a redeploy that changed the question.
type changedTrip struct{ *fixture.Trip }

func (c *changedTrip) RequestedSchema(fields ...string) *jsonschema.Schema {
	s := c.Trip.RequestedSchema(fields...)
	s.Description = "changed"
	return s
}

func TestAnswerToAnotherQuestionDigestIsNotApplied(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	v2 := engine.Redefine(e.flow, func(d *flowDef) {
		decode := d.Decode
		d.New = func() engine.Args { return &changedTrip{Trip: new(fixture.Trip)} }
		d.Decode = func(a engine.Args, raw []byte) error { return decode(a.(*changedTrip).Trip, raw) }
		d.Form = nil
	})
	resp, err := v2.Call(context.Background(), e.opts, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	require.NoError(t, err)
	require.Nil(t, resp.Result, "an answer to a question this server would not ask is not applied")
	k, _, asked := question(t, resp)
	assert.Equal(t, "plan_trip_2", k)
	assert.Equal(t, []string{"name", "email", "nights", "meal", "tags", "quiet"}, asked)
	assert.Zero(t, e.rec.Count())
}

func TestUnsealedOptIn(t *testing.T) {
	e := newEnv(t, nil)
	e.flow = engine.Redefine(e.flow, func(d *flowDef) { d.AcceptUnsealed = true })
	res := e.done(req(paris, "", accept("plan_trip", goodAnswer)))
	assert.False(t, res.IsError)
	assert.Equal(t, "Ada", lastArgs(t, e.rec).Name)
}

func TestMalformedInputResponses(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	_, err := e.flow.Call(context.Background(), e.opts, req(paris, r1.RequestState, map[string]protocol.InputResponse{"plan_trip": nil}))
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32602, pe.Code)
	_, err = e.flow.Call(context.Background(), e.opts, req(paris, r1.RequestState, act("plan_trip", "maybe")))
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32602, pe.Code)
	assert.Zero(t, e.rec.Count())
}

// An ask=always field needs the user, not an argument: a client without form
// elicitation is told the call cannot complete, and the field is not listed
// among the arguments the model could pass.
func TestMissingCapabilityWithAskAlways(t *testing.T) {
	e := newEnv(t, nil)
	e.flow = engine.Redefine(e.flow, func(d *flowDef) { d.AskAlways = []string{"email"} })
	r := req(paris, "", nil)
	r.Arguments = json.RawMessage(`{"city":"Paris","name":"Ada","email":"a@b.c"}`)
	r.FormElicitation = false
	res := e.done(r)
	assert.True(t, res.IsError)
	confirm, rest, ok := strings.Cut(res.Text, "Pass these as arguments")
	require.True(t, ok, res.Text)
	assert.Contains(t, confirm, "must be confirmed by the user in a form")
	assert.Contains(t, confirm, `email ("Email")`)
	assert.NotContains(t, rest, "email (")
	assert.Contains(t, rest, `nights ("Nights"): required integer`)
	optional := rest[strings.Index(rest, "Optional"):]
	assert.Contains(t, optional, `meal ("Meal")`)
	assert.Zero(t, e.rec.Count())
}

// An ask=always field (a typed confirmation) is not in the tool's input
// schema: the model would fill it in for the user.
func TestInputSchemaLeavesOutAskAlways(t *testing.T) {
	e := newEnv(t, nil)
	e.flow = engine.Redefine(e.flow, func(d *flowDef) {
		d.AskAlways = []string{"email"}
		d.Schema = nil // reflected, for the AskAlways set here (generated schemas: golden)
	})
	b, err := json.Marshal(e.flow.InputSchema())
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"email"`)
	assert.Contains(t, string(b), `"name"`)
	assert.Contains(t, string(b), `"city"`)
}

func TestMissingCapability(t *testing.T) {
	e := newEnv(t, nil)
	r := req(paris, "", nil)
	r.FormElicitation = false
	res := e.done(r)
	assert.True(t, res.IsError)
	for _, want := range []string{`name ("Your name"): required string, minLength 2, maxLength 20`,
		`email ("Email"): required string, format email`, `nights ("Nights"): required integer, minimum 1, maximum 14`,
		`meal ("Meal"): optional string, one of veg, fish`, `tags ("Tags"): optional array of strings, one of a, b, c`} {
		assert.Contains(t, res.Text, want)
	}

	e.opts.MissingCapability = engine.ProtocolErrorOnMissingCapability
	_, err := e.flow.Call(context.Background(), e.opts, r)
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32021, pe.Code)
	b, err := json.Marshal(pe.Data)
	require.NoError(t, err)
	assert.JSONEq(t, `{"requiredCapabilities":{"elicitation":{"form":{}}}}`, string(b))
	assert.Contains(t, pe.Message, "name, email, nights")

	// Nothing missing: no capability needed, under either policy.
	r.Arguments = json.RawMessage(`{"city":"Paris","name":"Ada","email":"a@b.c","nights":2}`)
	assert.False(t, e.done(r).IsError)
	assert.Equal(t, 1, e.rec.Count())
	assert.Zero(t, func() int { n, _ := e.rejections(); return n }())
}

func TestLegacyClients(t *testing.T) {
	e := newEnv(t, nil)
	r := req(paris, "", nil)
	r.ProtocolVersion = protocol.Version20250618
	resp := e.ask(r)
	_, q, asked := question(t, resp)
	assert.Equal(t, []string{"name", "email", "nights", "meal", "quiet"}, asked, "the optional multi select is left out")
	b, err := json.Marshal(q.RequestedSchema)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(b, &s))
	props := s["properties"].(map[string]any)
	meal := props["meal"].(map[string]any)
	assert.Equal(t, []any{"veg", "fish"}, meal["enum"])
	assert.Equal(t, []any{"Vegetarian", "Fish"}, meal["enumNames"])
	assert.NotContains(t, meal, "oneOf")
	assert.Equal(t, true, props["quiet"].(map[string]any)["default"], "defaults stay on booleans")

	// 2025-11-25 gets the full grammar.
	r.ProtocolVersion = protocol.Version20251125
	_, q, asked = question(t, e.ask(r))
	assert.Contains(t, asked, "tags")
	m, _ := q.RequestedSchema.Properties.Get("meal")
	assert.Len(t, m.OneOf, 2)
}

// TestDeclineAndCancelEndTheCall is a property test: over random sequences
// of answers (fixed seed), a decline or cancel of the question asked, in any
// round, runs exactly that branch once and asks nothing more; an accepted
// valid answer runs Accept once; nothing else runs a branch.
func TestDeclineAndCancelEndTheCall(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2026))
	type move int
	const (
		valid move = iota
		invalid
		missing
		staleKey
		decline
		cancel
		moves
	)
	stats := map[move]int{}
	for seq := 0; seq < 400; seq++ {
		e := newEnv(t, nil)
		e.opts.MaxRounds = 1 + rng.IntN(6)
		resp := e.ask(req(paris, "", nil))
		for round := 1; ; round++ {
			key, _, asked := question(t, resp)
			m := move(rng.IntN(int(moves)))
			stats[m]++
			var answers map[string]protocol.InputResponse
			switch m {
			case valid:
				answers = accept(key, map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 3})
			case invalid:
				answers = accept(key, map[string]any{"name": "A", "email": "x", "nights": 0})
			case missing:
			case staleKey:
				answers = act("plan_trip_"+fmt.Sprint(round+5), engine.Decline)
			case decline:
				answers = act(key, engine.Decline)
			case cancel:
				answers = act(key, engine.Cancel)
			}
			next, err := e.flow.Call(context.Background(), e.opts, req(paris, resp.RequestState, answers))
			require.NoError(t, err)
			runs := e.rec.Runs()
			switch m {
			case decline, cancel, valid:
				require.NotNil(t, next.Result, "seq %d round %d move %d: the call ends", seq, round, m)
				require.Empty(t, next.InputRequests)
				require.Len(t, runs, 1, "exactly one branch runs")
				want := map[move]engine.Action{decline: engine.Decline, cancel: engine.Cancel, valid: engine.Accept}[m]
				require.Equal(t, want, runs[0].Action)
				if m == decline {
					require.Equal(t, asked, runs[0].Declined)
				}
				require.Equal(t, round, runs[0].Round)
			default:
				require.Empty(t, runs, "no branch runs without a decision")
				if next.Result != nil {
					require.True(t, next.Result.IsError)
					require.Equal(t, e.opts.MaxRounds, round, "only the round limit ends a call without a decision")
					require.Contains(t, next.Result.Text, "gave up")
				}
			}
			if next.Result != nil {
				break
			}
			resp = next
		}
	}
	for m := move(0); m < moves; m++ {
		require.Positive(t, stats[m], "move %d was exercised", m)
	}
}

// Capabilities are declared on every request: a retry that needs another
// round but no longer declares form elicitation is sent no form.
func TestRetryWithoutCapabilityIsSentNoForm(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	r := req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "email": "bad", "nights": 2}))
	r.FormElicitation = false
	res := e.done(r)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, `email ("Email"): required string, format email`)
	assert.NotContains(t, res.Text, "nights", "only the failing field is named")
	assert.Contains(t, res.Text, "Problem with the last answer: email: must be")

	e.opts.MissingCapability = engine.ProtocolErrorOnMissingCapability
	_, err := e.flow.Call(context.Background(), e.opts, r)
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32021, pe.Code)
	assert.Contains(t, pe.Message, "ask for email")

	// The same answer from a client that declares the capability asks again.
	r.FormElicitation = true
	_, _, asked := question(t, e.ask(r))
	assert.Equal(t, []string{"email"}, asked)
	assert.Zero(t, e.rec.Count())
}

// Keys of an answer's content that differ from a property's JSON name only
// in case fill no field, as for the arguments (mcpsdk's
// TestCaseVariantKeysFillNoField): they are neither taken nor judged (an
// out-of-range "NIGHTS" adds no error; "night\u017f", whose long s folds
// to s, is another key too), the required fields they spell are asked
// again, alone, and an optional one ("Meal") stays empty.
func TestCaseVariantAnswerKeysFillNoField(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	key, _, _ := question(t, r1)
	r2 := e.ask(req(paris, r1.RequestState, accept(key, map[string]any{
		"name": "Ada", "Email": "eve@example.com", "email": "ada@example.com",
		"Nights": 3, "NIGHTS": 99, "night\u017f": 4, "Meal": "fish"})))
	key, q, asked := question(t, r2)
	assert.Equal(t, []string{"nights"}, asked, "only nights, which no case variant filled")
	assert.Contains(t, q.Message, "nights: is required")
	assert.NotContains(t, q.Message, "maximum")
	res := e.done(req(paris, r2.RequestState, accept(key, map[string]any{"nights": 2})))
	assert.False(t, res.IsError, res.Text)
	got := lastArgs(t, e.rec)
	assert.Equal(t, "ada@example.com", got.Email)
	require.NotNil(t, got.Nights)
	assert.Equal(t, 2, *got.Nights)
	assert.Empty(t, got.Meal)
}
