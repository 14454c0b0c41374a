package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// An old master cut off from its replica (issue 37, Sentinel and Cluster):
// the master runs the shipped examples/loadbalanced/redis-replicated.conf
// (min-replicas-to-write 1), and its one replica stops acknowledging (SIGSTOP:
// a network split that leaves the master on the small side while a replica
// is promoted elsewhere). An instance that still reaches the old master
// retries a flow begun before: the claim is refused with NOREPLICAS, which
// mcpgen turns into "retry later" (-32603) with nothing run, on every
// instance. Once the replica is back, the retry books exactly once.
func TestRedisIsolatedOldMasterRunsNothing(t *testing.T) {
	t.Parallel()
	master := redistest.StartWith(t, redistest.Config{ConfFile: "../loadbalanced/redis-replicated.conf"})
	replica := redistest.StartReplica(t, master)
	ins := redisInstances(t, master, 2, nil)
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	first, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	yes := answer("accept", map[string]any{"date": "2027-01-02"})

	replica.Pause()
	// Past min-replicas-max-lag (4 s) and the once-a-second refresh of the
	// count of replicas in sync.
	require.Eventually(t, func() bool { return replicaLag(master) >= 6 }, 20*time.Second, 50*time.Millisecond,
		"the replica stops acknowledging")
	for _, cs := range []*mcp.ClientSession{a, b} {
		_, err = call(t, cs, route, yes, first.RequestState)
		requireCode(t, err, -32603)
		assert.ErrorContains(t, err, "nothing was run")
	}
	assert.Zero(t, runs(ins), "the isolated old master takes no claim: no branch runs")

	replica.Resume()
	require.Eventually(t, func() bool { return master.InfoField("replication", "min_slaves_good_slaves") == "1" },
		20*time.Second, 50*time.Millisecond, "the replica is in sync again")
	res, err := call(t, b, route, yes, first.RequestState)
	require.NoError(t, err)
	assert.Equal(t, "Booked 1 passenger from CDG to JFK on 2027-01-02.", text(t, res))
	assert.EqualValues(t, 1, runs(ins))
}

// replicaLag returns the seconds since master's first replica last
// acknowledged (INFO replication, slave0's lag), or -1 when it has none.
func replicaLag(master *redistest.Server) int {
	for field := range strings.SplitSeq(master.InfoField("replication", "slave0"), ",") {
		if v, ok := strings.CutPrefix(field, "lag="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return n
			}
		}
	}
	return -1
}
