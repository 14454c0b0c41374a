package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func client(t *testing.T, srv *redistest.Server) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func newStore(t *testing.T, srv *redistest.Server, opts *redisstore.Options) (*redisstore.Store, *redis.Client) {
	t.Helper()
	c := client(t, srv)
	s, err := redisstore.New(t.Context(), c, opts)
	require.NoError(t, err)
	return s, c
}

// neighbours returns n flow ids other than flow in flow's bucket (one
// epoch key).
func neighbours(s *redisstore.Store, flow string, n int) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		if g := fmt.Sprintf("%s-%d", flow, i); s.EpochKey(g) == s.EpochKey(flow) {
			out = append(out, g)
		}
	}
	return out
}

// epoch returns the epoch of flow's bucket.
func epoch(t *testing.T, s *redisstore.Store, flow string) string {
	t.Helper()
	e, err := s.Epoch(t.Context(), flow)
	require.NoError(t, err)
	return e
}

func TestClaimRenewRecordRelease(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, nil)
	ctx := context.Background()
	later := time.Now().Add(time.Minute)
	ep := epoch(t, s, "f")
	assert.Len(t, ep, 22)
	assert.Equal(t, ep, c.Get(ctx, s.EpochKey("f")).Val())
	assert.EqualValues(t, -1, c.PTTL(ctx, s.EpochKey("f")).Val(), "the epoch never expires")

	rec, err := s.Claim(ctx, "f", "a", ep, 30*time.Second)
	require.NoError(t, err)
	assert.Nil(t, rec)
	v, err := c.Get(ctx, s.Key("f")).Result()
	require.NoError(t, err)
	assert.Equal(t, "claim:a "+ep, v, "the claim names its epoch")
	pttl, err := c.PTTL(ctx, s.Key("f")).Result()
	require.NoError(t, err)
	assert.InDelta(t, (30 * time.Second).Milliseconds(), pttl.Milliseconds(), 2000, "PX the lease")
	_, err = s.Claim(ctx, "f", "a", ep, 30*time.Second)
	require.NoError(t, err, "the same token again: its own claim (a resent claim)")

	_, err = s.Claim(ctx, "f", "b", ep, time.Minute)
	assert.ErrorIs(t, err, runtime.ErrClaimed)
	assert.ErrorIs(t, s.Record(ctx, "f", "b", []byte("x"), later), runtime.ErrClaimLost)
	assert.ErrorIs(t, s.Renew(ctx, "f", "b", time.Minute), runtime.ErrClaimLost)
	require.NoError(t, s.Release(ctx, "f", "b"), "not b's: nothing happens")
	v, _ = c.Get(ctx, s.Key("f")).Result()
	assert.Equal(t, "claim:a "+ep, v, "a's claim survived b's release")
	require.NoError(t, s.Renew(ctx, "f", "a", time.Minute))
	pttl, _ = c.PTTL(ctx, s.Key("f")).Result()
	assert.InDelta(t, time.Minute.Milliseconds(), pttl.Milliseconds(), 2000, "renewed to the lease from now")

	require.NoError(t, s.Release(ctx, "f", "a"))
	assert.Zero(t, c.Exists(ctx, s.Key("f")).Val(), "released: gone")

	_, err = s.Claim(ctx, "f", "c", ep, time.Minute)
	require.NoError(t, err)
	longer := time.Now().Add(2 * time.Minute)
	require.NoError(t, s.Record(ctx, "f", "c", []byte(`{"t":"done"}`), longer))
	require.NoError(t, s.Record(ctx, "f", "c", []byte(`{"t":"done"}`), longer), "the same record again (a resent record)")
	v, _ = c.Get(ctx, s.Key("f")).Result()
	assert.Equal(t, `record:{"t":"done"}`, v)
	pttl, _ = c.PTTL(ctx, s.Key("f")).Result()
	assert.InDelta(t, (2 * time.Minute).Milliseconds(), pttl.Milliseconds(), 2000, "the record's own expiry")
	assert.ErrorIs(t, s.Renew(ctx, "f", "c", time.Second), runtime.ErrClaimLost, "a record is not renewed")

	rec, err = s.Claim(ctx, "f", "d", ep, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, `{"t":"done"}`, string(rec))
	require.NoError(t, s.Release(ctx, "f", "c"), "a record is never released")
	rec, _ = s.Claim(ctx, "f", "d", ep, time.Minute)
	assert.Equal(t, `{"t":"done"}`, string(rec))
	assert.ErrorIs(t, s.Record(ctx, "f", "c", []byte("again"), later), runtime.ErrClaimLost, "recorded once")

	// A claim's lease ends: the next token claims, the first is fenced.
	epg := epoch(t, s, "g")
	_, err = s.Claim(ctx, "g", "a", epg, 50*time.Millisecond)
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	rec, err = s.Claim(ctx, "g", "b", epg, time.Minute)
	require.NoError(t, err)
	assert.Nil(t, rec)
	assert.ErrorIs(t, s.Record(ctx, "g", "a", []byte("late"), later), runtime.ErrClaimLost)
}

// The epoch is created once and kept; when Redis loses it (FLUSHALL), the
// next claim recreates it with a new value and refuses the flow, and every
// later claim of a flow begun before is refused too.
func TestEpochLostWithTheData(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, nil)
	other, _ := newStore(t, srv, nil)
	ctx := context.Background()
	ep := epoch(t, s, "f")
	assert.Equal(t, ep, epoch(t, other, "f"), "one epoch for every instance")

	_, err := s.Claim(ctx, "f", "a", ep, time.Minute)
	require.NoError(t, err)
	require.NoError(t, s.Record(ctx, "f", "a", []byte("done"), time.Now().Add(time.Minute)))
	require.NoError(t, c.FlushAll(ctx).Err())

	_, err = other.Claim(ctx, "f", "b", ep, time.Minute)
	require.ErrorIs(t, err, runtime.ErrEpoch)
	now := c.Get(ctx, s.EpochKey("f")).Val()
	assert.Len(t, now, 22, "recreated")
	assert.NotEqual(t, ep, now)
	assert.Zero(t, c.Exists(ctx, s.Key("f")).Val(), "nothing claimed")
	nb := neighbours(s, "f", 2)
	_, err = s.Claim(ctx, nb[0], "b", ep, time.Minute)
	require.ErrorIs(t, err, runtime.ErrEpoch, "a flow of the bucket begun before, never claimed")
	assert.Equal(t, now, epoch(t, other, "f"), "the refused claim refreshed the cached epoch")
	assert.Equal(t, now, epoch(t, s, "f"))
	_, err = s.Claim(ctx, nb[1], "b", now, time.Minute)
	require.NoError(t, err, "a flow begun after")
}

func TestEpochCache(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{EpochCache: 200 * time.Millisecond})
	ctx := context.Background()
	ep := epoch(t, s, "f")
	require.NoError(t, c.Set(ctx, s.EpochKey("f"), "replaced", 0).Err())
	assert.Equal(t, ep, epoch(t, s, "f"), "cached")
	time.Sleep(250 * time.Millisecond)
	assert.Equal(t, "replaced", epoch(t, s, "f"), "read again once stale")
}

// An instance that saw Redis fail reads the epoch again on its next first
// call: after a restart without persistence it seals the new one, not the
// cached old one.
func TestFailureMakesTheEpochBeReadAgain(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, _ := newStore(t, srv, &redisstore.Options{Timeout: 300 * time.Millisecond})
	ctx := context.Background()
	ep := epoch(t, s, "f")
	srv.Stop()
	_, err := s.Claim(ctx, "f", "a", ep, time.Minute)
	require.Error(t, err)
	assert.Equal(t, ep, epoch(t, s, "f"), "Redis down: the last epoch known")
	srv.Restart()
	now := epoch(t, s, "f")
	assert.NotEqual(t, ep, now, "Redis back without its data: a new epoch, read at once")
	_, err = s.Claim(ctx, "f", "a", now, time.Minute)
	require.NoError(t, err)
}

// An evicting policy (or any but noeviction) is refused at construction,
// with the fix in the message.
func TestEvictingPolicyIsRefused(t *testing.T) {
	t.Parallel()
	srv := redistest.StartWith(t, redistest.Config{Args: []string{"--maxmemory", "20mb", "--maxmemory-policy", "volatile-lru"}})
	_, err := redisstore.New(t.Context(), client(t, srv), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"volatile-lru"`)
	assert.Contains(t, err.Error(), "maxmemory-policy noeviction")

	s, err := redisstore.New(t.Context(), client(t, srv), &redisstore.Options{SkipConfigCheck: true})
	require.NoError(t, err, "the explicit opt-out")
	assert.False(t, s.Persistence().Checked)
	assert.Empty(t, s.Persistence().Warning())
}

// A Redis that refuses CONFIG (an ACL, as managed Redis does) stops New with
// a message naming the opt-out, rather than going on unchecked.
func TestConfigRefusedNamesTheOptOut(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	admin := client(t, srv)
	require.NoError(t, admin.Do(t.Context(), "ACL", "SETUSER", "app", "on", ">secret", "~*", "+@all", "-config").Err())
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), Username: "app", Password: "secret"})
	t.Cleanup(func() { _ = c.Close() })
	_, err := redisstore.New(t.Context(), c, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SkipConfigCheck")
	assert.Contains(t, err.Error(), redisstore.EnvSkipConfigCheck)
	_, err = redisstore.New(t.Context(), c, &redisstore.Options{SkipConfigCheck: true})
	require.NoError(t, err)

	srv.Stop()
	_, err = redisstore.New(t.Context(), admin, &redisstore.Options{Timeout: time.Second})
	require.ErrorContains(t, err, "cannot reach Redis")
}

func TestPersistenceIsReported(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, redistest.Start(t), nil)
	p := s.Persistence()
	assert.True(t, p.Checked)
	assert.False(t, p.AppendOnly)
	assert.Empty(t, p.Save)
	assert.Contains(t, p.Warning(), "no persistence")

	s, _ = newStore(t, redistest.StartWith(t, redistest.Config{Args: []string{"--save", "60 1"}}), nil)
	assert.Equal(t, "60 1", s.Persistence().Save)
	assert.Contains(t, s.Persistence().Warning(), "RDB snapshots only")

	s, _ = newStore(t, redistest.StartWith(t, redistest.Config{AppendOnly: true}), nil)
	assert.True(t, s.Persistence().AppendOnly)
	assert.Empty(t, s.Persistence().Warning())
}

// The repository's redis.conf is what the store asks for: New accepts it,
// with the append-only file on, and a restart keeps the epoch.
func TestTheRepositorysRedisConf(t *testing.T) {
	t.Parallel()
	srv := redistest.StartWith(t, redistest.Config{ConfFile: "../../examples/loadbalanced/redis.conf"})
	s, _ := newStore(t, srv, nil)
	assert.Equal(t, redisstore.Persistence{Checked: true, AppendOnly: true}, s.Persistence())
	ep := epoch(t, s, "f")
	_, err := s.Claim(t.Context(), "f", "a", ep, time.Minute)
	require.NoError(t, err)
	require.NoError(t, s.Record(t.Context(), "f", "a", []byte("done"), time.Now().Add(time.Minute)))
	srv.Stop()
	srv.Restart()
	// The same instance, and a new one: a lone server restarted from its
	// AOF is unfenced still (FenceAuto), and keeps its flows.
	rec, err := s.Claim(t.Context(), "f", "b", ep, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, "done", string(rec))
	s, _ = newStore(t, srv, nil)
	assert.Equal(t, ep, epoch(t, s, "f"))
}

// A one-node Redis Cluster holding every slot, through a cluster client:
// the store is fenced (FenceAuto), each flow's keys share one slot (the
// claim script reads both), with or without a hash tag in the prefix, and
// the page scripts declare their one key.
func TestOneNodeCluster(t *testing.T) {
	t.Parallel()
	srv := redistest.StartWith(t, redistest.Config{Args: []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"}})
	admin := client(t, srv)
	require.NoError(t, admin.Do(t.Context(), "CLUSTER", "ADDSLOTSRANGE", "0", "16383").Err())
	require.Eventually(t, func() bool {
		info, _ := admin.ClusterInfo(t.Context()).Result()
		return strings.Contains(info, "cluster_state:ok")
	}, 10*time.Second, 50*time.Millisecond)
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{srv.Addr()}})
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	for _, prefix := range []string{"", "{mcpgen}:flow:"} {
		s, err := redisstore.New(t.Context(), c, &redisstore.Options{Prefix: prefix})
		require.NoError(t, err)
		assert.Equal(t, redisstore.FenceOn, s.Fence(), "a cluster client: fenced")
		ep := epoch(t, s, "f")
		assert.Regexp(t, `^[A-Za-z0-9_-]{22}\.[0-9a-f]{16}$`, ep, "the epoch key's value and the node's replication ID")
		assert.Equal(t, admin.ClusterKeySlot(ctx, s.Key("f")).Val(), admin.ClusterKeySlot(ctx, s.EpochKey("f")).Val())
		_, err = s.Claim(ctx, "f", "a", ep, time.Minute)
		require.NoError(t, err)
		require.NoError(t, s.Record(ctx, "f", "a", []byte("done"), time.Now().Add(time.Minute)))
		rec, err := s.Claim(ctx, "f", "b", ep, time.Minute)
		require.NoError(t, err)
		assert.Equal(t, "done", string(rec))

		// A page's scripts declare its one key: they run on a cluster.
		require.NoError(t, s.PutPage(ctx, "p", []byte("r"), time.Now().Add(time.Minute)))
		require.NoError(t, s.CompletePage(ctx, "p", []byte("a")))
		assert.ErrorIs(t, s.CompletePage(ctx, "p", []byte("b")), runtime.ErrPageCompleted)
		rec, ans, err := s.Page(ctx, "p")
		require.NoError(t, err)
		assert.Equal(t, []string{"r", "a"}, []string{string(rec), string(ans)})
		require.NoError(t, s.DeletePage(ctx, "p"))
	}
}

func TestPrefix(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{Prefix: "other:"})
	ctx := context.Background()
	ep := epoch(t, s, "f")
	_, err := s.Claim(ctx, "f", "a", ep, time.Minute)
	require.NoError(t, err)
	assert.Regexp(t, `^other:\{\d+\.\d+\}:f$`, s.Key("f"), "the prefix, the bucket's tag, the flow")
	assert.Equal(t, strings.TrimSuffix(s.Key("f"), "f")+"epoch", s.EpochKey("f"))
	assert.Equal(t, int64(1), c.Exists(ctx, s.Key("f")).Val())
	// Another prefix is another namespace, with its own epoch.
	s2, err := redisstore.New(t.Context(), c, nil)
	require.NoError(t, err)
	ep2 := epoch(t, s2, "f")
	assert.NotEqual(t, ep, ep2)
	rec, err := s2.Claim(ctx, "f", "b", ep2, time.Minute)
	require.NoError(t, err)
	assert.Nil(t, rec)
}

func TestStalledRedisTimesOut(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{Timeout: 200 * time.Millisecond})
	require.NoError(t, c.Ping(context.Background()).Err())
	ep := epoch(t, s, "f")
	srv.Pause()
	start := time.Now()
	_, err := s.Claim(context.Background(), "f", "a", ep, time.Minute)
	require.Error(t, err)
	assert.NotErrorIs(t, err, runtime.ErrClaimed)
	assert.Less(t, time.Since(start), 2*time.Second, "the per-operation timeout, not a hang")
	srv.Resume()
}

// DEBUG SLEEP 3 while a claim is sent: the claim times out (the retry fails
// closed) but Redis takes it once awake, for nobody. It lapses after the
// lease, and the next claim proceeds.
func TestStalledClaimLapsesAfterTheLease(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{Timeout: 300 * time.Millisecond})
	ctx := context.Background()
	ep := epoch(t, s, "f")
	_, err := s.Claim(ctx, "warm", "t", epoch(t, s, "warm"), time.Minute) // the script is loaded: the stalled claim is one EVALSHA
	require.NoError(t, err)
	slept := make(chan error, 1)
	go func() { slept <- client(t, srv).Do(ctx, "DEBUG", "SLEEP", "3").Err() }()
	asleep(t, srv)
	_, err = s.Claim(ctx, "f", "lost", ep, 1500*time.Millisecond)
	require.Error(t, err, "the claim times out")
	require.NoError(t, <-slept)
	require.Eventually(t, func() bool { return c.Get(ctx, s.Key("f")).Val() == "claim:lost "+ep }, time.Second, 10*time.Millisecond,
		"Redis took the claim once awake")
	_, err = s.Claim(ctx, "f", "next", ep, time.Minute)
	assert.ErrorIs(t, err, runtime.ErrClaimed, "within the lease")
	time.Sleep(1600 * time.Millisecond)
	rec, err := s.Claim(ctx, "f", "next", ep, time.Minute)
	require.NoError(t, err, "after the lease")
	assert.Nil(t, rec)
}

// asleep returns once Redis runs a DEBUG SLEEP: a PING on a connection of
// its own gets no answer within 50 ms (Redis runs one command at a time).
func asleep(t *testing.T, srv *redistest.Server) {
	t.Helper()
	probe := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1, PoolSize: 1, ReadTimeout: 50 * time.Millisecond})
	defer probe.Close()
	require.Eventually(t, func() bool {
		var timeout net.Error // the read deadline
		return errors.As(probe.Ping(context.Background()).Err(), &timeout) && timeout.Timeout()
	}, 3*time.Second, time.Millisecond, "Redis never fell asleep")
}

func TestFromEnv(t *testing.T) {
	t.Setenv(redisstore.EnvURL, "")
	s, ok, err := redisstore.FromEnv(t.Context())
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, s)

	t.Setenv(redisstore.EnvURL, "http://nope")
	_, _, err = redisstore.FromEnv(t.Context())
	require.ErrorContains(t, err, redisstore.EnvURL)

	srv := redistest.Start(t)
	t.Setenv(redisstore.EnvURL, srv.URL())
	s, ok, err = redisstore.FromEnv(t.Context())
	require.NoError(t, err)
	require.True(t, ok)
	defer s.Close()
	_, err = s.Claim(context.Background(), "f", "a", epoch(t, s, "f"), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, int64(1), s.Client().Exists(context.Background(), s.Key("f")).Val())
	o := s.Client().(*redis.Client).Options()
	assert.True(t, o.ContextTimeoutEnabled)
	assert.Equal(t, redisstore.DefaultTimeout, o.PoolTimeout)

	// A server that evicts: FromEnv refuses, and the opt-out lets it by.
	evicting := redistest.StartWith(t, redistest.Config{Args: []string{"--maxmemory-policy", "allkeys-lru"}})
	t.Setenv(redisstore.EnvURL, evicting.URL())
	_, _, err = redisstore.FromEnv(t.Context())
	require.ErrorContains(t, err, "maxmemory-policy noeviction")
	t.Setenv(redisstore.EnvSkipConfigCheck, "1")
	s2, ok, err := redisstore.FromEnv(t.Context())
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, s2.Close())
}

func TestOptionsFromEnvWarns(t *testing.T) {
	key := runtime.GenerateKey()
	srv := redistest.Start(t)
	aof := redistest.StartWith(t, redistest.Config{AppendOnly: true})
	for _, tc := range []struct {
		keys, url string
		want      []string
		store     bool
	}{
		{"", "", []string{redisstore.WarnEphemeralKeys}, false},
		{key, "", []string{redisstore.WarnSharedKeysWithoutRedis}, false},
		{key, srv.URL(), []string{redisstore.Persistence{Checked: true}.Warning()}, true},
		{key, aof.URL(), nil, true},
	} {
		t.Setenv("MCPGEN_STATE_KEYS", tc.keys)
		t.Setenv(redisstore.EnvURL, tc.url)
		var got []string
		opts, closeFn, err := redisstore.OptionsFromEnv(t.Context(), func(m string) { got = append(got, m) })
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
		assert.NotNil(t, opts.Keys)
		assert.Equal(t, tc.store, opts.Store != nil)
		require.NoError(t, closeFn())
	}
	t.Setenv(redisstore.EnvURL, "redis://127.0.0.1:1/0")
	_, _, err := redisstore.OptionsFromEnv(t.Context(), nil)
	require.Error(t, err, "an unreachable Redis stops the server at start")
	assert.True(t, strings.Contains(err.Error(), "cannot reach Redis"), "%v", err)
}

// The tests wait on Redis servers (failover timers, stalls, retries), each
// test on servers of its own: they run up to redistest.Parallel at once.
// The ones that set the environment run first, one at a time.
func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }
