package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Every request of a flow or exchange writes one record to Options.Logger
// (asked, completed, declined, cancelled, replayed, rejected with the
// reason) and calls OnAsk or OnComplete; no answer value and no state
// appears in them.
func TestEachRoundIsLoggedWithoutAnswersOrState(t *testing.T) {
	var buf bytes.Buffer
	var asks, completes []engine.Event
	e := newEnv(t, nil)
	e.opts.Logger = slog.New(slog.NewJSONHandler(&buf, nil))
	e.opts.OnAsk = func(_ context.Context, ev engine.Event) { asks = append(asks, ev) }
	e.opts.OnComplete = func(_ context.Context, ev engine.Event) { completes = append(completes, ev) }
	secret := map[string]any{"name": "Zelda Quux", "email": "zq@secret.example", "nights": 7}

	r1 := e.ask(req(paris, "", nil))
	e.done(req(paris, r1.RequestState, accept("plan_trip", secret)))
	e.done(req(paris, r1.RequestState, accept("plan_trip", secret))) // a replay
	r2 := e.ask(req(paris, "", nil))
	e.done(req(paris, r2.RequestState, act("plan_trip", engine.Decline)))
	r3 := e.ask(req(paris, "", nil))
	e.done(req(paris, r3.RequestState, act("plan_trip", engine.Cancel)))
	e.rejected(req(`{"city":"Rome"}`, r1.RequestState, accept("plan_trip", secret)), "other arguments")

	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		records = append(records, m)
	}
	var outcomes []string
	for _, m := range records {
		assert.Equal(t, "mcpgen round", m["msg"])
		assert.Equal(t, "plan_trip", m["tool"])
		if m["outcome"] != "rejected" { // a state that does not open has no flow id to give
			assert.NotEmpty(t, m["flow_id"])
		}
		outcomes = append(outcomes, m["outcome"].(string))
	}
	assert.Equal(t, []string{"asked", "completed", "replayed", "asked", "declined", "asked", "cancelled", "rejected"}, outcomes)
	assert.Equal(t, []any{"plan_trip"}, records[0]["keys"])
	assert.EqualValues(t, 0, records[0]["round"])
	assert.EqualValues(t, 1, records[1]["round"])
	assert.Equal(t, "requestState was issued for other arguments", records[7]["reason"])
	assert.Equal(t, "WARN", records[7]["level"])

	log := buf.String()
	for _, leak := range []string{"Zelda", "zq@secret.example", `"nights":7`, r1.RequestState[:40], r2.RequestState[:40], r3.RequestState[:40]} {
		assert.NotContains(t, log, leak)
	}

	require.Len(t, asks, 3)
	assert.Equal(t, []string{"plan_trip"}, asks[0].Keys)
	assert.Equal(t, records[0]["flow_id"], asks[0].FlowID)
	require.Len(t, completes, 3, "a replay is not a completion")
	assert.Equal(t, []engine.Action{engine.Accept, engine.Decline, engine.Cancel},
		[]engine.Action{completes[0].Action, completes[1].Action, completes[2].Action})
	assert.Equal(t, 1, completes[0].Round)
	assert.Equal(t, asks[0].FlowID, completes[0].FlowID)

	// An exchange is logged by the same engine.
	buf.Reset()
	x, err := engine.NewExchange("ex", e.opts, &protocol.Request{Method: "tools/call", Sampling: true})
	require.NoError(t, err)
	_, err = x.Run(context.Background(), func(context.Context) (*engine.Response, error) {
		return x.InputRequired(map[string]protocol.InputRequest{"s": &protocol.SamplingRequest{
			Messages: []protocol.SamplingMessage{{Role: "user", Text: "hi"}}, MaxTokens: 5}}, nil)
	})
	require.NoError(t, err)
	assert.Contains(t, buf.String(), `"tool":"ex"`)
	assert.Contains(t, buf.String(), `"outcome":"asked"`)
}
