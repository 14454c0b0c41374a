package engine_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// payQuote asks the user to pay at a URL; done is the application's check.
type payQuote struct {
	done  *atomic.Bool
	looks *atomic.Int32
}

func (h payQuote) Accept(ctx context.Context, args *fixture.Quote) (*engine.Result, error) {
	action, err := engine.AskURL(ctx, "pay", "Pay order "+args.Parcel+".", "https://pay.example/o/"+args.Parcel,
		func(context.Context) (bool, error) { h.looks.Add(1); return h.done.Load(), nil })
	if err != nil {
		return nil, err
	}
	return engine.Textf("%s: paid", action), nil
}

func urlReq(state string, responses map[string]protocol.InputResponse) *protocol.Request {
	r := req(`{"parcel":"P1","count":3}`, state, responses)
	r.URLElicitation = true
	return r
}

// A client that accepts as soon as it opened the browser does not spend a
// round: the retry waits for the step, as a hosted page's does, and
// completes when the step finishes within Options.PageWait.
func TestAskURLWaitsForTheStep(t *testing.T) {
	h := payQuote{done: &atomic.Bool{}, looks: &atomic.Int32{}}
	flow := fixture.NewQuoteFlow(h)
	opts := tripOpts()
	opts.MaxRounds = 1
	r1, err := flow.Call(t.Context(), opts, urlReq("", nil))
	require.NoError(t, err)
	require.Contains(t, r1.InputRequests, "pay")

	time.AfterFunc(300*time.Millisecond, func() { h.done.Store(true) })
	start := time.Now()
	r2, err := flow.Call(t.Context(), opts, urlReq(r1.RequestState, act("pay", engine.Accept)))
	require.NoError(t, err)
	require.NotNil(t, r2.Result, "completed in the same request")
	assert.Equal(t, "accept: paid", r2.Result.Text)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Greater(t, h.looks.Load(), int32(2), "done was asked again while waiting")
}

// When the wait ends first, the same URL is asked again, and that does not
// count towards the round limit; a retry without an answer does not wait.
func TestAskURLAskedAgainAfterTheWait(t *testing.T) {
	h := payQuote{done: &atomic.Bool{}, looks: &atomic.Int32{}}
	flow := fixture.NewQuoteFlow(h)
	opts := tripOpts()
	opts.MaxRounds, opts.PageWait = 1, 200*time.Millisecond
	r1, err := flow.Call(t.Context(), opts, urlReq("", nil))
	require.NoError(t, err)

	start := time.Now()
	r2, err := flow.Call(t.Context(), opts, urlReq(r1.RequestState, act("pay", engine.Accept)))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond, "waited PageWait")
	require.Nil(t, r2.Result, "asked again, not given up after MaxRounds 1")
	require.Contains(t, r2.InputRequests, "pay_2")
	q, ok := r2.InputRequests["pay_2"].(*protocol.ElicitRequest)
	require.True(t, ok)
	assert.Equal(t, "https://pay.example/o/P1", q.URL)
	assert.Contains(t, q.Message, "the step at the URL has not finished yet")

	h.done.Store(true)
	r3, err := flow.Call(t.Context(), opts, urlReq(r2.RequestState, act("pay_2", engine.Accept)))
	require.NoError(t, err)
	require.NotNil(t, r3.Result)
	assert.Equal(t, "accept: paid", r3.Result.Text)
}

// An AskURL step carries an elicitationId (required by MCP 2025-11-25 for URL
// mode), the same when the step is asked again; on a 2025-era session the
// client hears notifications/elicitation/complete with it once the step is
// done, within the one call.
func TestAskURLElicitationID(t *testing.T) {
	h := payQuote{done: &atomic.Bool{}, looks: &atomic.Int32{}}
	flow := fixture.NewQuoteFlow(h)
	opts := tripOpts()
	opts.PageWait = 50 * time.Millisecond
	r1, err := flow.Call(t.Context(), opts, urlReq("", nil))
	require.NoError(t, err)
	q1 := r1.InputRequests["pay"].(*protocol.ElicitRequest)
	require.NotEmpty(t, q1.ElicitationID)
	r2, err := flow.Call(t.Context(), opts, urlReq(r1.RequestState, act("pay", engine.Accept)))
	require.NoError(t, err)
	q2 := r2.InputRequests["pay_2"].(*protocol.ElicitRequest)
	assert.Equal(t, q1.ElicitationID, q2.ElicitationID, "the same step, the same id")

	var sent []*protocol.ElicitRequest
	var notified []string
	r := urlReq("", nil)
	r.ProtocolVersion = protocol.Version20251125
	r.NotifyElicitationComplete = func(_ context.Context, id string) error { notified = append(notified, id); return nil }
	r.Send = func(_ context.Context, ir protocol.InputRequest) (protocol.InputResponse, error) {
		sent = append(sent, ir.(*protocol.ElicitRequest))
		time.AfterFunc(100*time.Millisecond, func() { h.done.Store(true) })
		return &protocol.ElicitResult{Action: engine.Accept}, nil
	}
	h.done.Store(false)
	opts.PageWait = 0
	resp, err := flow.Call(t.Context(), opts, r)
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.Equal(t, "accept: paid", resp.Result.Text)
	require.Len(t, sent, 1)
	require.NotEmpty(t, sent[0].ElicitationID)
	assert.Equal(t, []string{sent[0].ElicitationID}, notified)
}
