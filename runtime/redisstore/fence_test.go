package redisstore_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// FenceAuto on one address decides in each script, from the node's state at
// that moment. The store starts while the master is alone (unfenced); a
// replica is attached; its link then breaks (the master counts no replica
// connected), the master takes writes the replica never gets, dies, and the
// replica is promoted behind the same address (a virtual IP: the client's
// dialer follows it). A store that decided once, at New, stays unfenced:
// the promoted replica holds the epoch key but not the record, and the
// replay runs the branch again. Here every flow whose branch could have run
// on the old master is refused on the new one, and a flow sealed alone is
// refused once a replica is attached.
func TestAutoFenceFollowsReplicas(t *testing.T) {
	t.Parallel() // its own servers; most of its time is waiting for replication
	master := redistest.Start(t)
	var addr atomic.Value
	addr.Store(master.Addr())
	c := redis.NewClient(&redis.Options{
		Dialer: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr.Load().(string))
		},
		ContextTimeoutEnabled: true,
	})
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	s, err := redisstore.New(ctx, c, &redisstore.Options{Timeout: 2 * time.Second})
	require.NoError(t, err)
	assert.Equal(t, redisstore.FenceAuto, s.Fence())
	later := time.Now().Add(time.Minute)

	runs := map[string]int{} // flow id → claims that would have run its branch
	claim := func(f, ep string) error {
		rec, err := s.Claim(ctx, f, "t"+f, ep, time.Minute)
		if err == nil && rec == nil {
			runs[f]++
			require.NoError(t, s.Record(ctx, f, "t"+f, []byte("done"), later))
		}
		return err
	}

	// Alone: the epoch is the key's value (a restart from the AOF keeps it).
	solo, soloBroken := flowID(), flowID()
	epSolo, epSoloBroken := epoch(t, s, solo), epoch(t, s, soloBroken)
	assert.NotContains(t, epSolo, ".", "a master alone: unfenced")

	replica := redistest.StartReplica(t, master)
	// Begun alone, completed with a replica attached: refused.
	require.ErrorIs(t, claim(solo, epSolo), runtime.ErrEpoch)
	// Begun now: fenced (the refusal made every cached epoch be read again).
	fenced := flowID()
	epFenced := epoch(t, s, fenced)
	assert.Contains(t, epFenced, ".", "a master with a replica: fenced")

	// The link breaks: the master counts no replica connected, but it had
	// one (repl_backlog_active): still fenced.
	replica.Pause()
	require.NotEmpty(t, master.Do("CLIENT", "KILL", "TYPE", "replica"))
	require.Eventually(t, func() bool { return master.InfoField("replication", "connected_slaves") == "0" }, 5*time.Second, 10*time.Millisecond)
	require.ErrorIs(t, claim(soloBroken, epSoloBroken), runtime.ErrEpoch, "begun alone, claimed while the replica's link is down: refused")
	require.NoError(t, claim(fenced, epFenced), "begun fenced: runs on the master, the replica gets none of it")
	require.Equal(t, 1, runs[fenced])

	// The master dies; the replica is promoted behind the same address.
	master.Stop()
	replica.Resume()
	require.Equal(t, "OK", replica.Do("REPLICAOF", "NO", "ONE"))
	addr.Store(replica.Addr())
	for _, f := range []struct{ id, ep string }{{solo, epSolo}, {soloBroken, epSoloBroken}, {fenced, epFenced}} {
		var err error
		for range 50 { // the pool's connections to the dead master fail first
			if err = claim(f.id, f.ep); err == nil || errors.Is(err, runtime.ErrEpoch) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		require.ErrorIs(t, err, runtime.ErrEpoch, "the replay after the promotion is refused")
	}
	for f, n := range runs {
		assert.LessOrEqual(t, n, 1, "flow %s: its branch ran %d times", f, n)
	}
	assert.Zero(t, runs[solo]+runs[soloBroken], "flows sealed alone never ran once a replica existed")
	assert.True(t, strings.Contains(epoch(t, s, flowID()), "."), "the promoted replica is fenced (master_replid2, its backlog)")
}
