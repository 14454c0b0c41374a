package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// storeEnv is an env whose flows use their own MemoryStore.
func storeEnv(t *testing.T) (*env, *engine.MemoryStore) {
	e := newEnv(t, nil)
	m := engine.NewMemoryStore()
	e.opts.Store = m
	return e, m
}

func TestReplayedRetryRunsAcceptOnce(t *testing.T) {
	e, _ := storeEnv(t)
	r1 := e.ask(req(paris, "", nil))
	retry := req(paris, r1.RequestState, accept("plan_trip", goodAnswer))
	first := e.done(retry)
	require.Equal(t, 1, e.rec.Count())

	for range 20 {
		assert.Equal(t, first.Text, e.done(retry).Text)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			resp, err := e.flow.Call(context.Background(), e.opts, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
			if assert.NoError(t, err) && assert.NotNil(t, resp.Result) {
				assert.Equal(t, first.Text, resp.Result.Text)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 1, e.rec.Count(), "41 identical retries run Accept once")
}

func TestDeclineThenAcceptWithTheSameState(t *testing.T) {
	e, _ := storeEnv(t)
	r1 := e.ask(req(paris, "", nil))
	declined := e.done(req(paris, r1.RequestState, act("plan_trip", engine.Decline)))
	again := e.done(req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	assert.Equal(t, declined.Text, again.Text, "the replay gets the decline")
	runs := e.rec.Runs()
	require.Len(t, runs, 1)
	assert.Equal(t, engine.Decline, runs[0].Action, "Accept never ran")
}

func TestRoundOneStateOfACompletedFlowGetsTheFirstResult(t *testing.T) {
	e, m := storeEnv(t)
	r1 := e.ask(req(paris, "", nil))
	// A bad email: asked again, the claim is released for round 2.
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "email": "nope", "nights": 3})))
	assert.Equal(t, 0, e.rec.Count())
	assert.Equal(t, 0, m.Len(), "asking again releases the claim")
	first := e.done(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "ada@example.com"})))
	assert.Equal(t, 1, m.Len(), "the record")

	other := map[string]any{"name": "Bob", "email": "bob@example.com", "nights": 5}
	again := e.done(req(paris, r1.RequestState, accept("plan_trip", other)))
	assert.Equal(t, first.Text, again.Text)
	assert.Equal(t, 1, e.rec.Count())
	assert.Contains(t, first.Text, `"name":"Ada"`)
}

// failingStore fails every call: a store that is down.
type failingStore struct{}

var errDown = errors.New("store is down")

func (failingStore) Epoch(context.Context, string) (string, error) { return "", errDown }
func (failingStore) Claim(context.Context, string, string, string, time.Duration) ([]byte, error) {
	return nil, errDown
}
func (failingStore) Renew(context.Context, string, string, time.Duration) error { return errDown }
func (failingStore) PutPage(context.Context, string, []byte, time.Time) error   { return errDown }
func (failingStore) Page(context.Context, string) ([]byte, []byte, error)       { return nil, nil, errDown }
func (failingStore) CompletePage(context.Context, string, []byte) error         { return errDown }
func (failingStore) DeletePage(context.Context, string) error                   { return errDown }
func (failingStore) Record(context.Context, string, string, []byte, time.Time) error {
	return errDown
}
func (failingStore) Release(context.Context, string, string) error { return errDown }

func TestStoreFailureFailsClosed(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil)) // a first call needs no store
	e.opts.Store = failingStore{}
	resp, err := e.flow.Call(context.Background(), e.opts, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	assert.Nil(t, resp)
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32603, pe.Code)
	assert.Equal(t, 0, e.rec.Count(), "no branch ran")
	n, last := e.rejections()
	require.Equal(t, 1, n)
	assert.ErrorIs(t, last.Err, engine.ErrStore)
	assert.ErrorIs(t, last.Err, errDown)
}

func TestConcurrentDuplicateWaitsForTheRecord(t *testing.T) {
	e, m := storeEnv(t)
	ctx := context.Background()

	// A concurrent request holds the flow and never finishes: -32603 after
	// ClaimWait, no branch.
	r1 := e.ask(req(paris, "", nil))
	o := *e.opts
	o.Store, o.ClaimWait = &stallingStore{MemoryStore: m}, 50*time.Millisecond
	start := time.Now()
	_, err := e.flow.Call(ctx, &o, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32603, pe.Code)
	assert.Contains(t, pe.Message, "retry later")
	assert.GreaterOrEqual(t, time.Since(start), 40*time.Millisecond, "it waited")
	assert.Less(t, time.Since(start), time.Second)
	_, last := e.rejections()
	assert.ErrorIs(t, last.Err, engine.ErrClaimed)

	// It finishes 100 ms later: the waiting duplicate returns its record.
	r1 = e.ask(req(paris, "", nil))
	o.Store, o.ClaimWait = &stallingStore{MemoryStore: m, finishAfter: 100 * time.Millisecond, text: "booked elsewhere"}, 2*time.Second
	got, err := e.flow.Call(ctx, &o, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	require.NoError(t, err)
	require.NotNil(t, got.Result)
	assert.Equal(t, "booked elsewhere", got.Result.Text, "the other request's record")
	assert.Equal(t, 0, e.rec.Count(), "no branch ran here")
}

// stallingStore claims every flow for a foreign token first, as a concurrent
// request would; with finishAfter, that request records text after it.
type stallingStore struct {
	*engine.MemoryStore
	finishAfter time.Duration
	text        string
	once        sync.Once
}

func (s *stallingStore) Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error) {
	s.once.Do(func() {
		_, _ = s.MemoryStore.Claim(ctx, flow, "foreign", epoch, time.Minute)
		if s.finishAfter > 0 {
			rec, _ := json.Marshal(map[string]string{"t": s.text})
			time.AfterFunc(s.finishAfter, func() {
				_ = s.MemoryStore.Record(context.Background(), flow, "foreign", rec, time.Now().Add(time.Minute))
			})
		}
	})
	return s.MemoryStore.Claim(ctx, flow, token, epoch, lease)
}

// An instance whose clock runs 29.9 s behind (inside the allowed 30 s) opens
// a completed flow's state until the end of its expiry's second by its
// clock: the memory store keeps the record at least that long, so the
// replay gets it and runs nothing.
func TestRecordOutlivesTheSkewedState(t *testing.T) {
	m := engine.NewMemoryStore()
	storetest.RecordOutlivesSkew(t, m, engine.DefaultClockSkew-100*time.Millisecond, func(flow string) time.Time {
		return engine.MemoryExpiry(m, flow)
	})
}

// One caller holds at most MaxFlowsPerPrincipal flows in the store: an
// anonymous client (counted by its address) that completed that many is
// refused its next final retry with -32603 naming the limit and when its
// first flow expires, and runs nothing; another address, a signed-in user,
// and the caller's own replays are still served; a retry that asks again
// holds nothing; once the flows expire the caller is served again.
func TestFlowQuotaRefusesOnlyTheCaller(t *testing.T) {
	e, m := storeEnv(t)
	e.opts.MaxFlowsPerPrincipal = 3
	from := func(addr, principal string, r *protocol.Request) *protocol.Request {
		r.ClientAddress, r.Principal = addr, principal
		return r
	}
	complete := func(addr, principal string) (string, *protocol.Request) {
		r1 := e.ask(from(addr, principal, req(paris, "", nil)))
		retry := from(addr, principal, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
		return e.done(retry).Text, retry
	}
	first, firstRetry := complete("192.0.2.1", "")
	// A retry that asks again holds nothing against the quota.
	r1 := e.ask(from("192.0.2.1", "", req(paris, "", nil)))
	e.ask(from("192.0.2.1", "", req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "email": "nope", "nights": 3}))))
	complete("192.0.2.1", "")
	complete("192.0.2.1", "")
	require.Equal(t, 3, e.rec.Count())

	r1 = e.ask(from("192.0.2.1", "", req(paris, "", nil)))
	_, err := e.flow.Call(context.Background(), e.opts, from("192.0.2.1", "", req(paris, r1.RequestState, accept("plan_trip", goodAnswer))))
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, protocol.CodeInternalError, pe.Code)
	assert.Contains(t, pe.Message, "the anonymous client at 192.0.2.1 already has 3 calls completed or running")
	assert.Contains(t, pe.Message, "Options.MaxFlowsPerPrincipal")
	assert.Contains(t, pe.Message, "retry after "+t0.Add(engine.DefaultTTL+engine.DefaultClockSkew+time.Second).UTC().Format("15:04:05 UTC"))
	assert.Equal(t, 3, e.rec.Count(), "nothing ran")
	_, last := e.rejections()
	assert.ErrorIs(t, last.Err, engine.ErrFlowQuota)
	entries := m.Len()

	// Its own replay is answered; others are served.
	assert.Equal(t, first, e.done(firstRetry).Text)
	complete("192.0.2.2", "")
	complete("", "alice")
	complete("", "")
	assert.Equal(t, 6, e.rec.Count())
	assert.Equal(t, entries+3, m.Len(), "the refused retry stored nothing")

	// Once its flows' states open nowhere, the caller is served again.
	e.setNow(t0.Add(engine.DefaultTTL + engine.DefaultClockSkew + time.Second))
	complete("192.0.2.1", "")
	assert.Equal(t, 7, e.rec.Count())
}
