package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// The tests in this file run bookflight instances that share a key ring and
// one real redis-server (internal/redistest; skipped only when the binary
// is missing), each instance with its own Redis client and store, its own
// go-sdk server and its own HTTP listener.

// redisInstances starts n instances on srv sharing one key ring; tune, when
// set, adjusts each instance's options.
func redisInstances(t *testing.T, srv *redistest.Server, n int, tune func(*runtime.Options)) []*instance {
	t.Helper()
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	var out []*instance
	for range n {
		// Hundreds of concurrent requests under -race on a small machine:
		// a pool and deadlines that fit the test's load, not production's.
		c := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true, PoolSize: 128})
		t.Cleanup(func() { _ = c.Close() })
		opts := runtime.Options{Keys: keys, Store: redisstore.New(c, &redisstore.Options{Timeout: 15 * time.Second}),
			ClaimWait: 15 * time.Second}
		if tune != nil {
			tune(&opts)
		}
		out = append(out, startInstanceWith(t, opts))
	}
	return out
}

func accepts(ins []*instance) (n int32) {
	for _, in := range ins {
		n += in.h.accept.Load()
	}
	return n
}

func runs(ins []*instance) (n int32) {
	for _, in := range ins {
		n += in.h.runs()
	}
	return n
}

func TestRedisReplayedAcceptRunsOnceAcrossInstances(t *testing.T) {
	srv := redistest.Start(t)
	ins := redisInstances(t, srv, 2, nil)
	cs := []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true)}
	first, err := call(t, cs[0], route, nil, "")
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	yes := answer("accept", map[string]any{"date": "2027-01-02"})

	res, err := call(t, cs[1], route, yes, first.RequestState)
	require.NoError(t, err)
	want := text(t, res)
	assert.Equal(t, "Booked 1 passenger from CDG to JFK on 2027-01-02.", want)

	for i := range 20 {
		res, err := call(t, cs[i%2], route, yes, first.RequestState)
		require.NoError(t, err)
		assert.Equal(t, want, text(t, res), "sequential replay %d", i)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			res, err := cs[i%2].CallTool(t.Context(), &mcp.CallToolParams{Name: "book_flight", Arguments: route,
				InputResponses: yes, RequestState: first.RequestState})
			if assert.NoError(t, err, "concurrent replay %d", i) && assert.Len(t, res.Content, 1) {
				assert.Equal(t, want, res.Content[0].(*mcp.TextContent).Text, "concurrent replay %d", i)
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, accepts(ins), "41 accepted retries across two instances run Accept once")
	assert.EqualValues(t, 1, runs(ins))
}

func TestRedisDeclineThenAcceptWithTheSameState(t *testing.T) {
	srv := redistest.Start(t)
	ins := redisInstances(t, srv, 2, nil)
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	first, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	res, err := call(t, a, route, answer("decline", nil), first.RequestState)
	require.NoError(t, err)
	declined := text(t, res)
	assert.Contains(t, declined, "declined")
	res, err = call(t, b, route, answer("accept", map[string]any{"date": "2027-01-02"}), first.RequestState)
	require.NoError(t, err)
	assert.Equal(t, declined, text(t, res), "the other instance answers with the decline")
	assert.Zero(t, accepts(ins), "Accept never runs")
	assert.EqualValues(t, 1, runs(ins))
}

func TestRedisRoundOneStateOfACompletedFlowGetsTheFirstResult(t *testing.T) {
	srv := redistest.Start(t)
	ins := redisInstances(t, srv, 2, nil)
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	// A bad date: asked again (on b); the claim is released for round 2.
	r2, err := call(t, b, route, answer("accept", map[string]any{"date": "soon"}), r1.RequestState)
	require.NoError(t, err)
	require.True(t, r2.NeedsInput())
	res, err := call(t, a, route, mcp.InputResponseMap{"book_flight_2": &mcp.ElicitResult{Action: "accept",
		Content: map[string]any{"date": "2027-03-04"}}}, r2.RequestState)
	require.NoError(t, err)
	firstText := text(t, res)
	assert.Contains(t, firstText, "2027-03-04")

	// Round 1's state again, with other answers, on the other instance.
	res, err = call(t, b, route, answer("accept", map[string]any{"date": "2027-05-06", "passengers": 3}), r1.RequestState)
	require.NoError(t, err)
	assert.Equal(t, firstText, text(t, res))
	assert.EqualValues(t, 1, accepts(ins))
}

func TestRedisFlowPastItsLifetimeIsRefused(t *testing.T) {
	srv := redistest.Start(t)
	var offset atomic.Int64 // nanoseconds added to the wall clock
	ins := redisInstances(t, srv, 2, func(o *runtime.Options) {
		o.TTL = time.Minute
		o.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	})
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	offset.Store(int64(50 * time.Second))
	r2, err := call(t, b, route, answer("accept", map[string]any{"date": "soon"}), r1.RequestState)
	require.NoError(t, err)
	require.True(t, r2.NeedsInput(), "asked again 50 s into a 1 min lifetime")
	offset.Store(int64(62 * time.Second))
	_, err = call(t, a, route, mcp.InputResponseMap{"book_flight_2": &mcp.ElicitResult{Action: "accept",
		Content: map[string]any{"date": "2027-03-04"}}}, r2.RequestState)
	requireCode(t, err, -32602)
	assert.Zero(t, runs(ins), "the lifetime was fixed in round 1: no branch runs")
}

func TestRedisDownFailsClosedAndRecovers(t *testing.T) {
	srv := redistest.Start(t)
	ins := redisInstances(t, srv, 2, nil)
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	yes := answer("accept", map[string]any{"date": "2027-01-02"})
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)

	srv.Stop()
	for _, cs := range []*mcp.ClientSession{a, b} {
		_, err = call(t, cs, route, yes, r1.RequestState)
		requireCode(t, err, -32603)
	}
	assert.Zero(t, runs(ins), "no branch runs while the store is down")
	// A first call needs no store: it still asks.
	r1b, err := call(t, b, route, nil, "")
	require.NoError(t, err)
	require.True(t, r1b.NeedsInput())

	srv.Restart()
	res, err := call(t, b, route, yes, r1.RequestState)
	require.NoError(t, err, "after the restart the retry completes")
	assert.Contains(t, text(t, res), "Booked")
	for i := range 5 {
		r, err := call(t, a, route, nil, "")
		require.NoError(t, err)
		res, err := call(t, b, route, answer("accept", map[string]any{"date": fmt.Sprintf("2027-02-0%d", i+1)}), r.RequestState)
		require.NoError(t, err)
		assert.Contains(t, text(t, res), fmt.Sprintf("2027-02-0%d", i+1))
		res, err = call(t, a, route, yes, r.RequestState)
		require.NoError(t, err)
		assert.Contains(t, text(t, res), fmt.Sprintf("2027-02-0%d", i+1), "the replay gets the record")
	}
	assert.EqualValues(t, 6, accepts(ins))
}

func TestRedis200ConcurrentFlowsOverThreeInstances(t *testing.T) {
	const flows = 200
	srv := redistest.Start(t)
	ins := redisInstances(t, srv, 3, nil)
	cs := []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true), connect(t, ins[2].url, true)}
	var errs atomic.Int32
	var wg sync.WaitGroup
	for i := range flows {
		wg.Go(func() {
			ctx := t.Context()
			date := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)
			r1, err := cs[i%3].CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: route})
			if err != nil || !r1.NeedsInput() {
				errs.Add(1)
				return
			}
			// The final retry, twice at once, on the two other instances.
			var texts [2]string
			var inner sync.WaitGroup
			for j := range 2 {
				inner.Go(func() {
					res, err := cs[(i+1+j)%3].CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: route,
						InputResponses: answer("accept", map[string]any{"date": date}), RequestState: r1.RequestState})
					if err != nil || len(res.Content) != 1 {
						errs.Add(1)
						t.Logf("flow %d, copy %d: %v", i, j, err)
						return
					}
					texts[j] = res.Content[0].(*mcp.TextContent).Text
				})
			}
			inner.Wait()
			if texts[0] != texts[1] || texts[0] != "Booked 1 passenger from CDG to JFK on "+date+"." {
				errs.Add(1)
			}
		})
	}
	wg.Wait()
	assert.Zero(t, errs.Load(), "errors")
	assert.EqualValues(t, flows, accepts(ins), "branches run")
	assert.EqualValues(t, flows, runs(ins))
}

// Without a shared store each instance remembers only its own flows: the
// replay that MCPGEN_STATE_KEYS without MCPGEN_REDIS_URL warns about.
func TestWithoutSharedStoreAReplayOnAnotherInstanceRunsAgain(t *testing.T) {
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	ins := []*instance{
		startInstanceWith(t, runtime.Options{Keys: keys, Store: runtime.NewMemoryStore()}),
		startInstanceWith(t, runtime.Options{Keys: keys, Store: runtime.NewMemoryStore()}),
	}
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	yes := answer("accept", map[string]any{"date": "2027-01-02"})
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	for _, cs := range []*mcp.ClientSession{a, a, b, b} {
		_, err := call(t, cs, route, yes, r1.RequestState)
		require.NoError(t, err)
	}
	assert.EqualValues(t, 1, ins[0].h.accept.Load(), "once per instance")
	assert.EqualValues(t, 1, ins[1].h.accept.Load(), "but once more on the other one")
}
