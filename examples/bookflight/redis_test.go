package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	// Hundreds of concurrent requests under -race on a small machine:
	// deadlines that fit the test's load, not production's.
	return redisInstancesWith(t, srv, n, &redisstore.Options{Timeout: 15 * time.Second}, func(o *runtime.Options) {
		o.ClaimWait = 15 * time.Second
		if tune != nil {
			tune(o)
		}
	})
}

// redisInstancesWith is redisInstances with the stores' options and no
// defaults of its own; each instance's Redis client is in clients, in order.
func redisInstancesWith(t *testing.T, srv *redistest.Server, n int, so *redisstore.Options, tune func(*runtime.Options)) []*instance {
	t.Helper()
	return redisInstancesOn(t, func() redis.UniversalClient {
		co := &redis.Options{Addr: srv.Addr(), PoolSize: 128}
		redisstore.ClientOptions(co)
		return redis.NewClient(co)
	}, n, so, tune)
}

// redisInstancesOn is redisInstancesWith on the clients newClient makes
// (one per instance).
func redisInstancesOn(t *testing.T, newClient func() redis.UniversalClient, n int, so *redisstore.Options, tune func(*runtime.Options)) []*instance {
	t.Helper()
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	var out []*instance
	for range n {
		c := newClient()
		t.Cleanup(func() { _ = c.Close() })
		store := newStore(t, c, so)
		opts := runtime.Options{Keys: keys, Store: store}
		if tune != nil {
			tune(&opts)
		}
		in := startInstanceWith(t, opts)
		in.redis = c
		out = append(out, in)
	}
	return out
}

// newStore is redisstore.New, tried again for up to 30 s while its first
// check of the server (CONFIG GET maxmemory-policy) outlasts
// Options.Timeout: a cluster just started, on a machine the whole suite
// loads, can take longer for its first round trip (go-redis reads the
// slots first). How the store bears timeouts afterwards is what the tests
// check.
func newStore(t *testing.T, c redis.UniversalClient, so *redisstore.Options) *redisstore.Store {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		store, err := redisstore.New(t.Context(), c, so)
		if err == nil || !errors.Is(err, context.DeadlineExceeded) || time.Now().After(deadline) {
			require.NoError(t, err)
			return store
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// firstLeases tunes two instances whose tests stall or kill the first
// (a) mid-claim: a's claims last lease, so that the flow is free again
// soon after; every later instance's last a minute, since a claim that
// lapses between its branch and its record (the process stalled past the
// lease, as a loaded machine running the whole suite under -race can) lets
// the next retry run the branch again — the documented limit of a lease,
// not what these tests are about. A retry waits 100 ms for a held claim.
func firstLeases(lease time.Duration) func(*runtime.Options) {
	n := 0
	return func(o *runtime.Options) {
		o.ClaimLease, o.ClaimWait = lease, 100*time.Millisecond
		if n++; n > 1 {
			o.ClaimLease = time.Minute
		}
	}
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	// A first call that asks seals the store's epoch: every instance read
	// it at start (redisstore.New), so first calls still ask.
	r1b, err := call(t, b, route, nil, "")
	require.NoError(t, err)
	require.True(t, r1b.NeedsInput())

	// Restarted without persistence: the store forgot everything, so the
	// flows begun before are refused, not run; new flows complete.
	srv.Restart()
	for _, st := range []string{r1.RequestState, r1b.RequestState} {
		_, err := call(t, b, route, yes, st)
		requireCode(t, err, -32602)
	}
	assert.Zero(t, runs(ins))
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
	assert.EqualValues(t, 5, accepts(ins))
}

func TestRedis200ConcurrentFlowsOverThreeInstances(t *testing.T) {
	t.Parallel()
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

// Without a shared store each instance remembers only its own flows: a
// retry on another instance (MCPGEN_STATE_KEYS without MCPGEN_REDIS_URL) is
// refused, its store having another epoch, rather than run again.
func TestWithoutSharedStoreARetryOnAnotherInstanceIsRefused(t *testing.T) {
	t.Parallel()
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
	for _, cs := range []*mcp.ClientSession{a, a} {
		_, err := call(t, cs, route, yes, r1.RequestState)
		require.NoError(t, err)
	}
	for _, cs := range []*mcp.ClientSession{b, b} {
		_, err := call(t, cs, route, yes, r1.RequestState)
		requireCode(t, err, -32602)
		assert.ErrorContains(t, err, "start the call again")
	}
	assert.EqualValues(t, 1, ins[0].h.accept.Load(), "once on the instance that knows the flow")
	assert.Zero(t, ins[1].h.accept.Load(), "never on the other one")
}

// completeFlows completes n flows, first call on a and final retry on b,
// and returns each flow's state and result.
func completeFlows(t *testing.T, a, b *mcp.ClientSession, n int) (states, texts []string) {
	t.Helper()
	for i := range n {
		date := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)
		r1, err := call(t, a, route, nil, "")
		require.NoError(t, err)
		res, err := call(t, b, route, answer("accept", map[string]any{"date": date}), r1.RequestState)
		require.NoError(t, err)
		states, texts = append(states, r1.RequestState), append(texts, text(t, res))
	}
	return states, texts
}

// The attack: 100 completed flows, Redis restarted, every final retry
// replayed on the other instance. Without persistence the store lost the
// records and the epoch: every replay is refused ("start the call again")
// and no branch runs again. With the append-only file the restart keeps
// both: every replay gets its recorded result.
func TestRedisRestartThenReplayEveryFinalRetry(t *testing.T) {
	t.Parallel()
	const flows = 100
	for _, tc := range []struct {
		name string
		aof  bool
	}{{"no persistence", false}, {"appendonly", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := redistest.StartWith(t, redistest.Config{AppendOnly: tc.aof})
			ins := redisInstances(t, srv, 2, nil)
			a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
			states, texts := completeFlows(t, a, b, flows)
			require.EqualValues(t, flows, accepts(ins))

			srv.Stop()
			srv.Restart()
			refused, replayed := 0, 0
			for i, st := range states {
				res, err := call(t, a, route, answer("accept", map[string]any{"date": "2027-12-31"}), st)
				if tc.aof {
					require.NoError(t, err, "flow %d", i)
					assert.Equal(t, texts[i], text(t, res), "flow %d: the recorded result", i)
					replayed++
					continue
				}
				requireCode(t, err, -32602)
				assert.ErrorContains(t, err, "start the call again")
				refused++
			}
			assert.EqualValues(t, flows, accepts(ins), "no branch ran again")
			t.Logf("%s: %d replays refused, %d answered from the record, %d branches run for %d flows",
				tc.name, refused, replayed, accepts(ins), flows)
			// Flows begun after the restart run as usual (on an instance
			// whose cached epoch the refused replays refreshed; another one
			// may seal the old epoch for up to Options.EpochCache).
			_, more := completeFlows(t, a, b, 1)
			assert.Contains(t, more[0], "Booked")
		})
	}
}

// FLUSHALL while a branch runs: a duplicate of the retry sent meanwhile to
// the other instance is refused, not run; the branch's own result cannot be
// recorded (its claim is gone), and later replays are refused too.
func TestRedisFlushallWhileABranchRuns(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	ins := redisInstances(t, srv, 2, nil)
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	ins[0].h.hook = func(context.Context) {
		once.Do(func() { close(started) })
		<-release
	}
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	yes := answer("accept", map[string]any{"date": "2027-01-02"})
	var wg sync.WaitGroup
	wg.Go(func() {
		res, err := call(t, a, route, yes, r1.RequestState)
		if assert.NoError(t, err) {
			assert.Contains(t, text(t, res), "Booked", "the branch completes for its own request")
		}
	})
	<-started
	require.NoError(t, ins[1].redis.FlushAll(t.Context()).Err())
	_, err = call(t, b, route, yes, r1.RequestState)
	requireCode(t, err, -32602)
	close(release)
	wg.Wait()
	for _, cs := range []*mcp.ClientSession{a, b} {
		_, err = call(t, cs, route, yes, r1.RequestState)
		requireCode(t, err, -32602)
	}
	assert.EqualValues(t, 1, accepts(ins), "both instances did not book")
}

// DEBUG SLEEP 3 while a retry claims its flow: the retry fails closed
// (-32603) when its store call times out, but Redis takes the claim once
// awake, for a request that is gone. Retries within the claim's lease are
// told the flow is being completed; the first one after it runs the branch,
// once.
func TestRedisStallDuringAClaimThenARetryAfterTheLease(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	const lease = 2 * time.Second
	ins := redisInstancesWith(t, srv, 2, &redisstore.Options{Timeout: time.Second}, firstLeases(lease))
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	completeFlows(t, a, b, 1) // both instances have the scripts loaded
	completeFlows(t, b, a, 1)
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	yes := answer("accept", map[string]any{"date": "2027-01-02"})

	slept := make(chan error, 1)
	// 6 s: long enough that a's call below reaches the sleeping Redis on a
	// loaded machine too (3 s was not always), from a client of its own
	// that waits that long for the reply.
	sleeper := redis.NewClient(&redis.Options{Addr: srv.Addr(), ReadTimeout: 15 * time.Second})
	t.Cleanup(func() { _ = sleeper.Close() })
	go func() { slept <- sleeper.Do(context.Background(), "DEBUG", "SLEEP", "6").Err() }()
	waitAsleep(t, srv)
	_, err = call(t, a, route, yes, r1.RequestState)
	requireCode(t, err, -32603)
	require.NoError(t, <-slept)
	awake := time.Now()
	// The stalled claim reaches Redis when it wakes only if a's client had
	// not closed the connection by then (go-redis closes it on its
	// timeout, and Redis may drop the buffered command with the client):
	// when it did land, it holds the flow for its lease; when it did not,
	// b runs the branch now. Either way the branch runs once (below).
	if _, err = call(t, b, route, yes, r1.RequestState); err != nil {
		requireCode(t, err, -32603)
		assert.ErrorContains(t, err, "being completed by another request")
	}
	res, err := retryAfterLease(t, b, yes, r1.RequestState, awake.Add(lease))
	require.NoError(t, err, "after the lease the retry proceeds")
	assert.Contains(t, text(t, res), "2027-01-02")
	assert.EqualValues(t, 3, accepts(ins), "the two warm-up flows and this one, once")
}

// An instance dies mid-branch (here: its Redis client is closed, so it can
// no longer renew its claim, and the branch never returns in time): the next
// retry after the lease runs the branch on the other instance, and later
// replays get that instance's record.
func TestRedisInstanceKilledMidBranch(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	const lease = 2 * time.Second
	ins := redisInstancesWith(t, srv, 2, &redisstore.Options{Timeout: time.Second}, firstLeases(lease))
	a, b := connect(t, ins[0].url, true), connect(t, ins[1].url, true)
	started, dead := make(chan struct{}), make(chan struct{})
	ins[0].h.hook = func(context.Context) {
		close(started)
		<-dead
	}
	r1, err := call(t, a, route, nil, "")
	require.NoError(t, err)
	yes := answer("accept", map[string]any{"date": "2027-01-02"})
	go func() { _, _ = call(t, a, route, yes, r1.RequestState) }()
	<-started
	require.NoError(t, ins[0].redis.Close()) // the instance is gone: no renewals, no record
	t.Cleanup(func() { close(dead) })
	killed := time.Now()

	_, err = call(t, b, route, yes, r1.RequestState)
	requireCode(t, err, -32603)
	res, err := retryAfterLease(t, b, yes, r1.RequestState, killed.Add(lease))
	require.NoError(t, err, "after the lease the retry proceeds")
	want := text(t, res)
	res, err = call(t, b, route, yes, r1.RequestState)
	require.NoError(t, err)
	assert.Equal(t, want, text(t, res), "and is recorded")
	assert.EqualValues(t, 1, ins[1].h.accept.Load())
}

// retryAfterLease retries the accepted call with state on c, as a client
// told "retry later" does, from the moment expires (when the claim's lease
// has run out if Redis set it no later than the test saw) until it is not
// refused as "being completed by another request", for at most 10 s more,
// and returns that call's result. A refusal after expires is allowed: on a
// loaded machine the last renewal, sent before the holder stopped, may
// reach Redis late and set the lease from then. Any other error ends the
// retries.
func retryAfterLease(t *testing.T, c *mcp.ClientSession, answers mcp.InputResponseMap, state string, expires time.Time) (*mcp.CallToolResult, error) {
	t.Helper()
	time.Sleep(time.Until(expires))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		res, err := call(t, c, route, answers, state)
		if err == nil || !strings.Contains(err.Error(), "being completed by another request") || time.Now().After(deadline) {
			return res, err
		}
	}
}

// waitAsleep returns once srv no longer answers a PING within 50 ms: the
// DEBUG SLEEP sent just before has begun (a fixed pause before it was not
// always enough on a loaded machine).
func waitAsleep(t *testing.T, srv *redistest.Server) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), ReadTimeout: 50 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		if err := c.Ping(context.Background()).Err(); err != nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("redis-server never began its DEBUG SLEEP")
}
