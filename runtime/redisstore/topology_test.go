package redisstore_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// The tests in this file run the store on real topologies
// (internal/redistest): a Redis Cluster of 3 masters and 3 replicas, and a
// master with 2 replicas watched by 3 sentinels, reached by the URLs
// MCPGEN_REDIS_URL takes. Each test starts its own topology, so those that
// set no environment variable run in parallel: most of their time is
// waiting (sentinels meeting, a failover), not work.

// fromURL returns a store on a client NewClient made for url (of topology
// want), closed when the test ends.
func fromURL(t *testing.T, url string, want redisstore.Topology) *redisstore.Store {
	t.Helper()
	c, topo, err := redisstore.NewClient(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.Equal(t, want, topo)
	opts := &redisstore.Options{Timeout: 5 * time.Second}
	if topo == redisstore.Sentinel {
		opts.Fence = redisstore.FenceOn
	}
	s, err := redisstore.New(t.Context(), c, opts)
	require.NoError(t, err)
	return s
}

func flowID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// atMostOnce is the suite every topology passes, on two stores (two
// instances): a flow claimed and recorded on one is the record on the
// other; of concurrent claims of one flow from both, exactly one wins; a
// claim's token alone records.
func atMostOnce(t *testing.T, a, b *redisstore.Store) {
	ctx := context.Background()
	later := time.Now().Add(time.Minute)
	for i := range 100 {
		f := flowID()
		ep := epoch(t, a, f)
		assert.Equal(t, ep, epoch(t, b, f), "one epoch per bucket for every instance")
		rec, err := a.Claim(ctx, f, "t1", ep, time.Minute)
		require.NoError(t, err)
		require.Nil(t, rec)
		_, err = b.Claim(ctx, f, "t2", ep, time.Minute)
		require.ErrorIs(t, err, runtime.ErrClaimed)
		require.ErrorIs(t, b.Record(ctx, f, "t2", []byte("not mine"), later), runtime.ErrClaimLost)
		want := fmt.Sprintf(`{"t":"flow %d"}`, i)
		require.NoError(t, a.Record(ctx, f, "t1", []byte(want), later))
		for _, s := range []*redisstore.Store{a, b} {
			rec, err := s.Claim(ctx, f, "t3", ep, time.Minute)
			require.NoError(t, err)
			require.Equal(t, want, string(rec), "the replay gets the record")
		}
	}
	// Concurrent retries of one flow, 16 at once over both stores:
	// exactly one claims, the others find its claim or its record.
	for range 20 {
		f := flowID()
		ep := epoch(t, a, f)
		var won, lost, replayed atomic.Int32
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() {
				s := []*redisstore.Store{a, b}[i%2]
				tok := fmt.Sprintf("t%d", i)
				rec, err := s.Claim(ctx, f, tok, ep, time.Minute)
				switch {
				case err == nil && rec == nil:
					won.Add(1)
					assert.NoError(t, s.Record(ctx, f, tok, []byte("done"), later))
				case err == nil:
					replayed.Add(1)
				default:
					assert.ErrorIs(t, err, runtime.ErrClaimed)
					lost.Add(1)
				}
			})
		}
		wg.Wait()
		require.EqualValues(t, 1, won.Load(), "exactly one retry runs")
		require.EqualValues(t, 15, lost.Load()+replayed.Load())
	}
}

func TestClusterAtMostOnce(t *testing.T) {
	t.Parallel() // its own processes on their own ports; most of its time is waiting for a failover
	cl := redistest.StartCluster(t, 3)
	a := fromURL(t, cl.URL(), redisstore.Cluster)
	b := fromURL(t, cl.URL(), redisstore.Cluster)
	assert.Equal(t, redisstore.FenceOn, a.Fence(), "a cluster is fenced")
	// The buckets spread over the masters: each holds 85 or 86 epoch keys.
	for _, m := range cl.Masters() {
		n := m.Do("DBSIZE")
		assert.Contains(t, []string{"85", "86"}, n, "epoch keys on master %s", m.Addr())
	}
	atMostOnce(t, a, b)

	// One node's address alone: the cluster, seeded with it.
	c, topo, err := redisstore.NewClient(t.Context(), cl.Nodes[0].URL())
	require.NoError(t, err)
	defer c.Close()
	assert.Equal(t, redisstore.Cluster, topo)
	s, err := redisstore.New(t.Context(), c, nil)
	require.NoError(t, err)
	f := flowID()
	assert.Equal(t, epoch(t, a, f), epoch(t, s, f))
}

func TestSentinelAtMostOnce(t *testing.T) {
	t.Parallel()
	st := redistest.StartSentinel(t, 2, 3)
	a := fromURL(t, st.URL(), redisstore.Sentinel)
	b := fromURL(t, st.URL(), redisstore.Sentinel)
	atMostOnce(t, a, b)
	// A store on the master's own address decides per operation, and
	// finds its replicas: fenced, the same epochs.
	c, topo, err := redisstore.NewClient(t.Context(), st.Master().URL())
	require.NoError(t, err)
	defer c.Close()
	assert.Equal(t, redisstore.Single, topo)
	s, err := redisstore.New(t.Context(), c, nil)
	require.NoError(t, err)
	assert.Equal(t, redisstore.FenceAuto, s.Fence())
	f := flowID()
	assert.Equal(t, epoch(t, a, f), epoch(t, s, f))

	// MCPGEN_REDIS_URL in the Sentinel form: fenced.
	e, ok, err := redisstore.FromEnvOf(t.Context(), map[string]string{redisstore.EnvURL: st.URL()})
	require.NoError(t, err)
	require.True(t, ok)
	defer e.Close()
	assert.Equal(t, redisstore.FenceOn, e.Fence())
	assert.Equal(t, epoch(t, a, f), epoch(t, e, f))
}

// failover is what the kill tests share: flows completed before the
// master is killed, then the kill and the takeover (kill returns once a
// replica serves), then every completed flow's replay is refused with
// ErrEpoch (the promoted replica has another replication ID) and never
// claimed, a claim that was held is refused too, and new flows complete.
func failover(t *testing.T, a, b *redisstore.Store, kill func()) {
	ctx := context.Background()
	later := time.Now().Add(time.Minute)
	type flow struct{ id, epoch string }
	var done, held []flow
	for i := range 200 {
		f := flowID()
		ep := epoch(t, a, f)
		_, err := a.Claim(ctx, f, "t1", ep, time.Minute)
		require.NoError(t, err)
		if i%2 == 0 {
			require.NoError(t, a.Record(ctx, f, "t1", []byte("done"), later))
			done = append(done, flow{f, ep})
		} else {
			held = append(held, flow{f, ep}) // a branch running when the master dies
		}
	}
	kill()
	refused, kept := 0, 0
	for _, f := range append(done, held...) {
		var rec []byte
		var err error
		for range 100 { // the clients find the new master
			rec, err = b.Claim(ctx, f.id, "t2", f.epoch, time.Minute)
			if err == nil || errors.Is(err, runtime.ErrEpoch) || errors.Is(err, runtime.ErrClaimed) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if errors.Is(err, runtime.ErrEpoch) {
			refused++
			continue
		}
		// The flow's bucket is on a master that did not fail: its record
		// or its claim is there.
		kept++
		if rec == nil {
			require.ErrorIs(t, err, runtime.ErrClaimed, "a held claim on a master that kept it")
		} else {
			assert.Equal(t, "done", string(rec))
		}
	}
	assert.Positive(t, refused, "the failed master's flows are refused")
	t.Logf("%d of %d flows begun before the failover refused (the failed master's buckets), %d kept (the other masters')", refused, len(done)+len(held), kept)
	for range 20 {
		f := flowID()
		var ep string
		require.Eventually(t, func() bool {
			e, err := b.Epoch(ctx, f)
			if err != nil {
				return false
			}
			ep = e
			_, err = b.Claim(ctx, f, "t", ep, time.Minute)
			return err == nil
		}, 10*time.Second, 100*time.Millisecond, "a new flow claims after the failover")
		require.NoError(t, b.Record(ctx, f, "t", []byte("after"), later))
		// The other instance's client may try the dead master once
		// (-32603, retry later) before it reloads the cluster's slots.
		var rec []byte
		require.Eventually(t, func() bool {
			var err error
			rec, err = a.Claim(ctx, f, "u", ep, time.Minute)
			return err == nil
		}, 10*time.Second, 100*time.Millisecond)
		assert.Equal(t, "after", string(rec))
	}
}

func TestSentinelFailoverRefusesFlowsInProgress(t *testing.T) {
	t.Parallel() // its own processes on their own ports; most of its time is waiting for a failover
	st := redistest.StartSentinel(t, 2, 3)
	a := fromURL(t, st.URL(), redisstore.Sentinel)
	b := fromURL(t, st.URL(), redisstore.Sentinel)
	failover(t, a, b, func() {
		old := st.Master()
		old.Stop()
		st.WaitFailover(old, 30*time.Second)
	})
}

func TestClusterFailoverRefusesFlowsInProgress(t *testing.T) {
	t.Parallel() // its own processes on their own ports; most of its time is waiting for a failover
	cl := redistest.StartCluster(t, 3)
	a := fromURL(t, cl.URL(), redisstore.Cluster)
	b := fromURL(t, cl.URL(), redisstore.Cluster)
	failover(t, a, b, func() {
		cl.Masters()[0].Stop()
		cl.WaitHealthy(3, 30*time.Second)
	})
}

// The writes the promoted replica never received: both replicas are
// stopped (SIGSTOP) and cut off while a flow is claimed and recorded, the master is
// killed, the replicas continue and one is promoted without the flow's
// keys. Its epoch key came through (written long before), so a store
// without the fence finds the flow never claimed and would run its branch
// again; the fenced store refuses it (another replication ID).
func TestSentinelFenceCatchesLostWrites(t *testing.T) {
	t.Parallel() // its own processes on their own ports; most of its time is waiting for a failover
	st := redistest.StartSentinel(t, 2, 3)
	fenced := fromURL(t, st.URL(), redisstore.Sentinel)
	c, _, err := redisstore.NewClient(t.Context(), st.URL())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	unfenced, err := redisstore.New(t.Context(), c, &redisstore.Options{Fence: redisstore.FenceOff, Timeout: 5 * time.Second})
	require.NoError(t, err)
	ctx := context.Background()
	later := time.Now().Add(time.Minute)
	f1, f2 := flowID(), flowID()
	ep1, ep2 := epoch(t, fenced, f1), epoch(t, unfenced, f2)
	master := st.Master()
	master.WaitReplicated(10 * time.Second) // the epoch keys reached both replicas
	for _, r := range st.Data[1:] {
		r.Pause()
	}
	// The links closed before the writes (a paused replica would still
	// read what its socket buffered once it continues).
	require.NotEmpty(t, master.Do("CLIENT", "KILL", "TYPE", "replica"))
	for _, f := range []struct {
		s         *redisstore.Store
		id, epoch string
	}{{fenced, f1, ep1}, {unfenced, f2, ep2}} {
		_, err := f.s.Claim(ctx, f.id, "t1", f.epoch, time.Minute)
		require.NoError(t, err)
		require.NoError(t, f.s.Record(ctx, f.id, "t1", []byte("done"), later))
	}
	master.Stop()
	for _, r := range st.Data[1:] {
		r.Resume()
	}
	st.WaitFailover(master, 30*time.Second)

	claim := func(s *redisstore.Store, f, ep string) ([]byte, error) {
		var rec []byte
		var err error
		for range 100 {
			if rec, err = s.Claim(ctx, f, "t2", ep, time.Minute); err == nil || errors.Is(err, runtime.ErrEpoch) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		return rec, err
	}
	rec, err := claim(unfenced, f2, ep2)
	require.NoError(t, err)
	assert.Nil(t, rec, "unfenced: the record is lost and the flow claimable again (its branch would run twice)")
	_, err = claim(fenced, f1, ep1)
	require.ErrorIs(t, err, runtime.ErrEpoch, "fenced: refused")
}

// claimAcrossFailover takes a claim on the master holding a flow's key
// (holder names it), waits until its replicas have it, has kill replace
// that master by a replica, and checks that the claim, though it reached
// the promoted replica, is neither renewed nor recorded over there
// (runtime.ErrClaimLost): it names the old master's fenced epoch. A
// record is written only where the flow's claim was taken, under the
// epoch its retries carry; and those retries are refused there.
func claimAcrossFailover(t *testing.T, s *redisstore.Store, holder func(key string) *redistest.Server, kill func(old *redistest.Server)) {
	ctx := context.Background()
	f := flowID()
	ep := epoch(t, s, f)
	_, err := s.Claim(ctx, f, "t1", ep, time.Minute)
	require.NoError(t, err)
	old := holder(s.Key(f))
	old.WaitReplicated(10 * time.Second)
	kill(old)
	promoted := holder(s.Key(f))
	require.NotSame(t, old, promoted)
	require.True(t, strings.HasPrefix(promoted.Do("GET", s.Key(f)), "claim:t1"), "the claim reached the promoted replica")
	retry := func(op func() error) error {
		var err error
		for range 100 { // the client finds the new master
			if err = op(); err == nil || errors.Is(err, runtime.ErrClaimLost) || errors.Is(err, runtime.ErrEpoch) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		return err
	}
	require.ErrorIs(t, retry(func() error { return s.Renew(ctx, f, "t1", time.Minute) }), runtime.ErrClaimLost,
		"the old master's claim is not renewed on the promoted replica")
	require.ErrorIs(t, retry(func() error { return s.Record(ctx, f, "t1", []byte("done"), time.Now().Add(time.Minute)) }),
		runtime.ErrClaimLost, "nor recorded over there")
	assert.True(t, strings.HasPrefix(promoted.Do("GET", s.Key(f)), "claim:t1"), "no record on the promoted replica")
	require.ErrorIs(t, retry(func() error { _, err := s.Claim(ctx, f, "t2", ep, time.Minute); return err }), runtime.ErrEpoch,
		"the flow's retries are refused there")
}

func TestSentinelClaimNotRecordedOnThePromotedReplica(t *testing.T) {
	t.Parallel() // its own processes on their own ports; most of its time is waiting for a failover
	st := redistest.StartSentinel(t, 2, 3)
	s := fromURL(t, st.URL(), redisstore.Sentinel)
	claimAcrossFailover(t, s, func(string) *redistest.Server { return st.Master() }, func(old *redistest.Server) {
		old.Stop()
		st.WaitFailover(old, 30*time.Second)
	})
}

func TestClusterClaimNotRecordedOnThePromotedReplica(t *testing.T) {
	t.Parallel() // its own processes on their own ports; most of its time is waiting for a failover
	cl := redistest.StartCluster(t, 3)
	s := fromURL(t, cl.URL(), redisstore.Cluster)
	claimAcrossFailover(t, s, func(key string) *redistest.Server {
		for _, m := range cl.Masters() {
			if m.Do("EXISTS", key) == "1" { // another master answers MOVED
				return m
			}
		}
		t.Fatalf("no master holds %s", key)
		return nil
	}, func(old *redistest.Server) {
		old.Stop()
		cl.WaitHealthy(3, 30*time.Second)
	})
}
