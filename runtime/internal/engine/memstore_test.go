package engine_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

func TestMemoryStore(t *testing.T) {
	ctx := context.Background()
	m := engine.NewMemoryStore()
	ep, err := m.Epoch(ctx, "")
	require.NoError(t, err)
	assert.Len(t, ep, 22)
	later := time.Now().Add(time.Minute)
	rec, err := m.Claim(ctx, "f", "a", ep, time.Minute)
	require.NoError(t, err)
	assert.Nil(t, rec)
	rec, err = m.Claim(ctx, "f", "a", ep, time.Minute)
	require.NoError(t, err, "a's own claim, claimed again (a repeated call)")
	assert.Nil(t, rec)
	_, err = m.Claim(ctx, "f", "b", ep, time.Minute)
	assert.ErrorIs(t, err, engine.ErrClaimed)
	assert.ErrorIs(t, m.Record(ctx, "f", "b", []byte("x"), later), engine.ErrClaimLost)
	assert.ErrorIs(t, m.Renew(ctx, "f", "b", time.Minute), engine.ErrClaimLost)
	require.NoError(t, m.Release(ctx, "f", "b"), "not b's: nothing happens")
	_, err = m.Claim(ctx, "f", "c", ep, time.Minute)
	assert.ErrorIs(t, err, engine.ErrClaimed, "a's claim survived b's release")
	require.NoError(t, m.Renew(ctx, "f", "a", time.Minute))
	require.NoError(t, m.Release(ctx, "f", "a"))
	_, err = m.Claim(ctx, "f", "c", ep, time.Minute)
	require.NoError(t, err, "released: free again")
	require.NoError(t, m.Record(ctx, "f", "c", []byte("done"), later))
	require.NoError(t, m.Record(ctx, "f", "c", []byte("done"), later), "the same record again: a repeated call")
	assert.ErrorIs(t, m.Record(ctx, "f", "c", []byte("other"), later), engine.ErrClaimLost)
	assert.ErrorIs(t, m.Renew(ctx, "f", "c", time.Minute), engine.ErrClaimLost, "a record is not a claim")
	rec, err = m.Claim(ctx, "f", "d", ep, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, "done", string(rec))
	require.NoError(t, m.Release(ctx, "f", ""), "a record is never released")
	rec, _ = m.Claim(ctx, "f", "d", ep, time.Minute)
	assert.Equal(t, "done", string(rec))

	// Another epoch: refused, whatever the flow holds.
	_, err = m.Claim(ctx, "f", "d", "other", time.Minute)
	assert.ErrorIs(t, err, engine.ErrEpoch)
	_, err = m.Claim(ctx, "new", "d", "", time.Minute)
	assert.ErrorIs(t, err, engine.ErrEpoch)

	// A claim's lease ends: another token claims; the first cannot renew
	// or record any more (fenced by its token).
	_, err = m.Claim(ctx, "g", "a", ep, 50*time.Millisecond)
	require.NoError(t, err)
	time.Sleep(80 * time.Millisecond)
	rec, err = m.Claim(ctx, "g", "b", ep, time.Minute)
	require.NoError(t, err, "a lapsed claim does not hold")
	assert.Nil(t, rec)
	assert.ErrorIs(t, m.Renew(ctx, "g", "a", time.Minute), engine.ErrClaimLost)
	assert.ErrorIs(t, m.Record(ctx, "g", "a", []byte("late"), later), engine.ErrClaimLost)
	require.NoError(t, m.Record(ctx, "g", "b", []byte("b's"), later))

	// A renewed claim outlives its first lease.
	_, err = m.Claim(ctx, "h", "a", ep, 300*time.Millisecond)
	require.NoError(t, err)
	for range 4 {
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, m.Renew(ctx, "h", "a", 300*time.Millisecond))
	}
	_, err = m.Claim(ctx, "h", "b", ep, time.Minute)
	assert.ErrorIs(t, err, engine.ErrClaimed)

	// An expired record is gone.
	_, err = m.Claim(ctx, "i", "a", ep, time.Minute)
	require.NoError(t, err)
	require.NoError(t, m.Record(ctx, "i", "a", []byte("old"), time.Now().Add(-time.Second)))
	rec, err = m.Claim(ctx, "i", "b", ep, time.Minute)
	require.NoError(t, err)
	assert.Nil(t, rec)
}

// Two stores never share an epoch: a process restart (a new MemoryStore)
// makes every flow begun before it be refused.
func TestMemoryStoreEpochs(t *testing.T) {
	a, _ := engine.NewMemoryStore().Epoch(context.Background(), "")
	b, _ := engine.NewMemoryStore().Epoch(context.Background(), "")
	assert.NotEqual(t, a, b)
}

// A MemoryStore at its bound gives up the largest recorded results (each
// for a short record: replays get an error, run nothing) rather than refuse
// new flows, so that calls with large results cannot lock other callers
// out; it keeps answering replays of every flow it holds. The bound is in
// bytes: the Go heap grows by about MaxBytes, not by what 3000 results of
// 64 KiB would take.
func TestMemoryStoreBound(t *testing.T) {
	ctx := context.Background()
	m := engine.NewMemoryStore()
	m.MaxBytes = 4 << 20
	ep, _ := m.Epoch(ctx, "")
	big := []byte(`{"t":"` + strings.Repeat("x", 64<<10) + `"}`)
	later := time.Now().Add(time.Minute)

	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	const n = 3000
	for i := range n {
		flow := fmt.Sprintf("flow-%04d", i)
		_, err := m.Claim(ctx, flow, "t", ep, time.Minute)
		require.NoError(t, err, "flow %d: a store full of large results makes room for a new flow", i)
		require.NoError(t, m.Record(ctx, flow, "t", big, later))
		require.LessOrEqual(t, m.Bytes(), int64(4<<20))
	}
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	kept := 0
	for i := range n {
		rec, err := m.Claim(ctx, fmt.Sprintf("flow-%04d", i), "u", ep, time.Minute)
		require.NoError(t, err, "a replay of a held flow is answered at the bound")
		if string(rec) == string(big) {
			kept++
		} else {
			assert.Contains(t, string(rec), "did not keep its result", "a result given up: replays get an error, run nothing")
		}
	}
	assert.Greater(t, kept, 0)
	assert.LessOrEqual(t, kept, (4<<20)/len(big), "results of 64 KiB kept under 4 MiB")
	assert.Less(t, int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(6<<20), "the heap grows by about MaxBytes")

	// A store of claims and short records alone has nothing to give up:
	// a new flow is refused (fails closed), and the store is not scanned
	// for it.
	m = engine.NewMemoryStore()
	m.MaxBytes = 4000
	ep, _ = m.Epoch(ctx, "")
	i := 0
	for ; i < 100; i++ {
		flow := fmt.Sprintf("f%d", i)
		if _, err := m.Claim(ctx, flow, "t", ep, time.Minute); err != nil {
			require.ErrorIs(t, err, engine.ErrStore)
			assert.Contains(t, err.Error(), "limit of 4000 bytes")
			break
		}
		require.NoError(t, m.Record(ctx, flow, "t", []byte("done"), later))
	}
	require.Less(t, i, 100, "a store of small records fills up and refuses new flows")

	// Small entries: short-lived ones make room once expired.
	m = engine.NewMemoryStore()
	m.MaxBytes = 800 // two claims (160 + 1 + len(the "too large" record) each), not three
	ep, _ = m.Epoch(ctx, "")
	_, err := m.Claim(ctx, "a", "t", ep, 150*time.Millisecond)
	require.NoError(t, err)
	_, err = m.Claim(ctx, "b", "t", ep, time.Minute)
	require.NoError(t, err)
	require.NoError(t, m.Record(ctx, "b", "t", []byte("done"), later))
	_, err = m.Claim(ctx, "c", "t", ep, time.Minute)
	require.ErrorIs(t, err, engine.ErrStore)
	rec, err := m.Claim(ctx, "b", "u", ep, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, "done", string(rec))
	require.Eventually(t, func() bool {
		_, err := m.Claim(ctx, "c", "t", ep, time.Minute)
		return err == nil
	}, 2*time.Second, 20*time.Millisecond, "a's lease end makes room")
	assert.Equal(t, 2, m.Len())

	// A record too large for what is left keeps a short one instead: its
	// replays get an error and run nothing.
	require.NoError(t, m.Record(ctx, "c", "t", big, later))
	rec, err = m.Claim(ctx, "c", "u", ep, time.Minute)
	require.NoError(t, err)
	assert.Contains(t, string(rec), "did not keep its result")
	assert.LessOrEqual(t, m.Bytes(), int64(800))

	// Through a flow: the full store fails the retry closed.
	e := newEnv(t, nil)
	e.opts.Store = m
	r1 := e.ask(req(paris, "", nil))
	resp, err := e.flow.Call(ctx, e.opts, req(paris, r1.RequestState, accept("plan_trip", goodAnswer)))
	assert.Nil(t, resp)
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, -32603, pe.Code)
	assert.Equal(t, 0, e.rec.Count(), "no branch ran")
}

// heapAfterGC is the live heap after a collection, in bytes.
func heapAfterGC() int64 {
	var ms goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// The memory a completed flow holds, measured, for the figures of
// docs/capacity.md and docs/state-and-scaling.md (run with -v): what the
// store counts against MaxBytes for one flow (160 bytes of estimated
// overhead, the 22-byte flow id and the record), the Go heap the store
// really holds for it, and the heap one flow completed through the engine
// holds in all (the store's entry and the quota's count,
// Options.MaxFlowsPerPrincipal). The estimate must cover the store's real
// heap, or MaxBytes would not bound it.
func TestMemoryStoreBytesPerFlow(t *testing.T) {
	ctx := context.Background()
	const n = 50_000
	for _, size := range []int{10, 60, 200} {
		m := engine.NewMemoryStore()
		ep, _ := m.Epoch(ctx, "")
		rec := []byte(`{"t":"` + strings.Repeat("x", size-8) + `"}`)
		later := time.Now().Add(time.Hour)
		flows := make([]string, n)
		for i := range flows {
			flows[i] = engine.NewFlowIDForTest()
		}
		before := heapAfterGC()
		for _, flow := range flows {
			_, err := m.Claim(ctx, flow, "tttttttttttttttttttttt", ep, time.Minute)
			require.NoError(t, err)
			require.NoError(t, m.Record(ctx, flow, "tttttttttttttttttttttt", rec, later))
		}
		heap := float64(heapAfterGC()-before) / n
		counted := float64(m.Bytes()) / n
		t.Logf("MemoryStore, a %3d-byte record: %.0f B counted a flow, %.0f B of Go heap a flow", size, counted, heap)
		assert.LessOrEqual(t, heap, counted, "the store holds more heap than it counts against MaxBytes")
		goruntime.KeepAlive(m)
	}

	// Through the engine: plan_trip's record, and the quota's count.
	e, m := storeEnv(t)
	e.opts.MaxFlowsPerPrincipal = -1 // counted, not bounded
	const flows = 5000
	states := make([]string, flows)
	for i := range states {
		states[i] = e.ask(req(paris, "", nil)).RequestState
	}
	before := heapAfterGC()
	for _, st := range states {
		e.done(req(paris, st, accept("plan_trip", goodAnswer)))
	}
	states = nil
	heap := float64(heapAfterGC()-before) / flows
	counted := float64(m.Bytes()) / flows
	t.Logf("plan_trip through the engine: %.0f B counted a flow, %.0f B of Go heap a flow (store and quota)", counted, heap)
	assert.Less(t, heap, counted+200, "a completed flow holds about what the store counts")
	goruntime.KeepAlive(m)
}
