package runtime_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
)

// The accepted retry of one flow sent 20 times in a row and 20 times at once
// runs Accept once; every response carries the same result.
func TestReplayedStateRunsOneBranch(t *testing.T) {
	e := newEnv(t, nil)
	e.opts.Store = runtime.NewMemoryStore()
	state := e.ask(req(paris, "", nil)).RequestState
	retry := func() *runtime.Result {
		return e.done(req(paris, state, accept("plan_trip", goodAnswer)))
	}
	first := retry()
	for range 20 {
		assert.Equal(t, first, retry())
	}
	var wg sync.WaitGroup
	results := make([]*runtime.Result, 20)
	for i := range results {
		wg.Go(func() { results[i] = retry() })
	}
	wg.Wait()
	for _, r := range results {
		assert.Equal(t, first.Text, r.Text)
	}
	assert.Equal(t, 1, e.rec.Count(), "Accept runs once")
}

// Decline, then accept with the same state: the decline result comes back
// and Accept never runs. A round-1 state used again after the flow completed
// in round 2, with new answers, gets the first result too.
func TestEveryStateOfACompletedFlowGetsTheRecord(t *testing.T) {
	e := newEnv(t, nil)
	e.opts.Store = runtime.NewMemoryStore()
	s1 := e.ask(req(paris, "", nil)).RequestState
	declined := e.done(req(paris, s1, act("plan_trip", runtime.Decline)))
	again := e.done(req(paris, s1, accept("plan_trip", goodAnswer)))
	assert.Equal(t, declined.Text, again.Text)
	require.Equal(t, 1, e.rec.Count())
	assert.Equal(t, runtime.Decline, e.rec.Runs()[0].Action)

	e2 := newEnv(t, nil)
	e2.opts.Store = runtime.NewMemoryStore()
	r1 := e2.ask(req(paris, "", nil))
	bad := map[string]any{"name": "Ada", "email": "nope", "nights": 3}
	r2 := e2.ask(req(paris, r1.RequestState, accept("plan_trip", bad)))
	done := e2.done(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "ada@example.com"})))
	other := map[string]any{"name": "Eve", "email": "eve@example.com", "nights": 9}
	replay := e2.done(req(paris, r1.RequestState, accept("plan_trip", other)))
	assert.Equal(t, done.Text, replay.Text)
	assert.Equal(t, 1, e2.rec.Count())
}

// failingStore fails every call while down is set, to show the flow fails
// closed; otherwise it is the in-memory store.
type failingStore struct {
	runtime.Store
	down atomic.Bool
}

var errDown = errors.New("connection refused")

func (f *failingStore) Claim(ctx context.Context, id string, exp time.Time) (string, []byte, error) {
	if f.down.Load() {
		return "", nil, errDown
	}
	return f.Store.Claim(ctx, id, exp)
}

// A store that fails makes the call fail closed: -32603, no branch, and the
// hook hears it; once the store is back, flows complete.
func TestStoreFailureFailsClosed(t *testing.T) {
	e := newEnv(t, nil)
	fs := &failingStore{Store: runtime.NewMemoryStore()}
	e.opts.Store = fs
	state := e.ask(req(paris, "", nil)).RequestState
	fs.down.Store(true)
	resp, err := e.flow.Call(context.Background(), e.opts, req(paris, state, accept("plan_trip", goodAnswer)))
	assert.Nil(t, resp)
	var pe *runtime.ProtocolError
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, runtime.CodeInternalError, pe.Code)
	assert.Contains(t, pe.Message, "no branch ran")
	assert.Zero(t, e.rec.Count())
	_, last := e.rejections()
	assert.ErrorIs(t, last.Err, runtime.ErrStore)

	fs.down.Store(false)
	e.done(req(paris, state, accept("plan_trip", goodAnswer)))
	assert.Equal(t, 1, e.rec.Count())
}

// slowStore holds Record back until release is closed, so that a second
// request of the same flow finds the claim taken.
type slowStore struct {
	runtime.Store
	release chan struct{}
}

func (s *slowStore) Record(ctx context.Context, id, token string, rec []byte, exp time.Time) error {
	<-s.release
	return s.Store.Record(ctx, id, token, rec, exp)
}

// A duplicate that arrives while the first request runs waits and gets the
// recorded result, or after ClaimWait a retry-later error; never a branch.
func TestConcurrentDuplicateWaitsForTheRecord(t *testing.T) {
	e := newEnv(t, nil)
	ss := &slowStore{Store: runtime.NewMemoryStore(), release: make(chan struct{})}
	e.opts.Store = ss
	e.opts.ClaimWait = 50 * time.Millisecond
	state := e.ask(req(paris, "", nil)).RequestState
	firstDone := make(chan *runtime.Result)
	go func() {
		resp, err := e.flow.Call(context.Background(), e.opts, req(paris, state, accept("plan_trip", goodAnswer)))
		assert.NoError(t, err)
		firstDone <- resp.Result
	}()
	require.Eventually(t, func() bool { return e.rec.Count() == 1 }, 5*time.Second, time.Millisecond)
	_, err := e.flow.Call(context.Background(), e.opts, req(paris, state, accept("plan_trip", goodAnswer)))
	var pe *runtime.ProtocolError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, pe.Message, "retry later")

	e.opts.ClaimWait = 5 * time.Second
	second := make(chan *runtime.Result)
	go func() {
		resp, err := e.flow.Call(context.Background(), e.opts, req(paris, state, accept("plan_trip", goodAnswer)))
		assert.NoError(t, err)
		second <- resp.Result
	}()
	time.Sleep(20 * time.Millisecond)
	close(ss.release)
	r1, r2 := <-firstDone, <-second
	assert.Equal(t, r1.Text, r2.Text)
	assert.Equal(t, 1, e.rec.Count())
}
