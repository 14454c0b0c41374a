package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// The tests in this file kill the Redis master while flows run on three
// bookflight instances sharing a Redis Cluster (3 masters, 3 replicas) or
// a master with 2 replicas watched by 3 sentinels (internal/redistest),
// each instance on the URL MCPGEN_REDIS_URL would hold. Every flow is
// driven until it ends, its final retry and its replays sent again after
// each "retry later" (-32603): no branch may run twice, and every flow
// must end completed (every replay then gets its result, or is refused)
// or refused with "start the call again" (-32602); and a flow refused so
// must have run its branch zero times, or exactly once when it completed
// before (a replay of a completed flow refused).

func TestClusterMasterKilledMidRun(t *testing.T) {
	t.Parallel()
	cl := redistest.StartCluster(t, 3)
	masterKilledMidRun(t, cl.URL(), func() {
		cl.Masters()[0].Stop()
		cl.WaitHealthy(3, 30*time.Second)
	})
}

func TestSentinelMasterKilledMidRun(t *testing.T) {
	t.Parallel()
	st := redistest.StartSentinel(t, 2, 3)
	masterKilledMidRun(t, st.URL(), func() {
		old := st.Master()
		old.Stop()
		st.WaitFailover(old, 30*time.Second)
	})
}

// outcome is how one flow ended.
type outcome int

const (
	pending outcome = iota
	completed
	refused
)

func masterKilledMidRun(t *testing.T, url string, kill func()) {
	const flows = 90
	ins := redisInstancesOn(t, func() redis.UniversalClient {
		c, _, err := redisstore.NewClient(t.Context(), url)
		require.NoError(t, err)
		return c
	}, 3, &redisstore.Options{Timeout: 2 * time.Second}, func(o *runtime.Options) {
		o.ClaimWait, o.ClaimLease = time.Second, 3*time.Second
	})
	for _, in := range ins {
		in.h.hook = func(context.Context) { time.Sleep(time.Duration(10+rand.IntN(90)) * time.Millisecond) }
	}
	cs := []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true), connect(t, ins[2].url, true)}

	// send sends one request until it gets an answer other than "retry
	// later": the result, or the -32602 that refuses the state.
	var retries atomic.Int32
	send := func(i int, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
		deadline := time.Now().Add(40 * time.Second)
		for k := 0; ; k++ {
			res, err := cs[(i+k)%3].CallTool(context.Background(), params)
			var je *jsonrpc.Error
			if err == nil || !errors.As(err, &je) || je.Code != -32603 || time.Now().After(deadline) {
				return res, err
			}
			retries.Add(1)
			time.Sleep(100 * time.Millisecond)
		}
	}
	var done atomic.Int32
	outcomes := make([]outcome, flows)
	replayRefused := make([]bool, flows)
	dates := make([]string, flows)
	var wg sync.WaitGroup
	for i := range flows {
		dates[i] = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)
		wg.Go(func() {
			defer done.Add(1)
			time.Sleep(time.Duration(i) * 40 * time.Millisecond) // flows begin before, during and after the kill
			r1, err := send(i, &mcp.CallToolParams{Name: "book_flight", Arguments: route})
			if !assert.NoError(t, err, "flow %d: first call", i) || !assert.True(t, r1.NeedsInput()) {
				return
			}
			final := &mcp.CallToolParams{Name: "book_flight", Arguments: route,
				InputResponses: answer("accept", map[string]any{"date": dates[i]}), RequestState: r1.RequestState}
			res, err := send(i+1, final)
			want := "Booked 1 passenger from CDG to JFK on " + dates[i] + "."
			switch {
			case err == nil:
				if !assert.Len(t, res.Content, 1) || !assert.Equal(t, want, res.Content[0].(*mcp.TextContent).Text, "flow %d", i) {
					return
				}
				outcomes[i] = completed
			case strings.Contains(err.Error(), "start the call again"):
				outcomes[i] = refused
				return
			default:
				assert.NoError(t, err, "flow %d: final retry", i)
				return
			}
			// Replays of the completed flow, on the other instances.
			for k := 1; k <= 2; k++ {
				res, err := send(i+1+k, final)
				if err == nil {
					assert.Equal(t, want, res.Content[0].(*mcp.TextContent).Text, "flow %d, replay %d: the recorded result", i, k)
				} else {
					assert.ErrorContains(t, err, "start the call again", "flow %d, replay %d", i, k)
					assert.ErrorContains(t, err, "a failover: a replica promoted", "on Redis the refusal names a failover")
					replayRefused[i] = true
				}
			}
		})
	}
	// Kill the master once a third of the flows ended, with others in
	// flight.
	require.Eventually(t, func() bool { return done.Load() >= flows/3 }, 40*time.Second, 10*time.Millisecond)
	killed := time.Now()
	kill()
	t.Logf("the master was killed and a replica took over in %s", time.Since(killed).Round(time.Millisecond))
	wg.Wait()

	var n [3]int
	for i, o := range outcomes {
		n[o]++
		runs := int32(0)
		for _, in := range ins {
			if v, ok := in.h.byDate.Load(dates[i]); ok {
				runs += v.(*atomic.Int32).Load()
			}
		}
		assert.LessOrEqual(t, runs, int32(1), "flow %d: its branch ran %d times", i, runs)
		switch {
		case o == completed:
			assert.EqualValues(t, 1, runs, "flow %d completed (a replay refused: %t): its branch ran once", i, replayRefused[i])
		case o == refused:
			assert.Zero(t, runs, "flow %d: its final retry was refused (start the call again) and had never completed: its branch must not have run", i)
		}
	}
	assert.Zero(t, n[pending], "every flow ended")
	assert.EqualValues(t, flows, n[completed]+n[refused])
	t.Logf("%d flows: %d completed, %d refused (start the call again), %d branches run, %d retries after -32603",
		flows, n[completed], n[refused], accepts(ins), retries.Load())
}
