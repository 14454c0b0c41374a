package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func newStore(t *testing.T, srv *redistest.Server, opts *redisstore.Options) (*redisstore.Store, *redis.Client) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return redisstore.New(c, opts), c
}

func TestClaimRecordRelease(t *testing.T) {
	srv := redistest.Start(t)
	s, c := newStore(t, srv, nil)
	ctx := context.Background()
	later := time.Now().Add(time.Minute)

	rec, err := s.Claim(ctx, "f", "a", later)
	require.NoError(t, err)
	assert.Nil(t, rec)
	v, err := c.Get(ctx, "mcpgen:flow:f").Result()
	require.NoError(t, err)
	assert.Equal(t, "claim:a", v)
	pttl, err := c.PTTL(ctx, "mcpgen:flow:f").Result()
	require.NoError(t, err)
	assert.InDelta(t, time.Minute.Milliseconds(), pttl.Milliseconds(), 2000, "PXAT the expiry")

	_, err = s.Claim(ctx, "f", "b", later)
	assert.ErrorIs(t, err, runtime.ErrClaimed)
	assert.ErrorIs(t, s.Record(ctx, "f", "b", []byte("x"), later), runtime.ErrClaimLost)
	require.NoError(t, s.Release(ctx, "f", "b"), "not b's: nothing happens")
	v, _ = c.Get(ctx, "mcpgen:flow:f").Result()
	assert.Equal(t, "claim:a", v, "a's claim survived b's release")

	require.NoError(t, s.Release(ctx, "f", "a"))
	assert.Zero(t, c.Exists(ctx, "mcpgen:flow:f").Val(), "released: gone")

	_, err = s.Claim(ctx, "f", "c", later)
	require.NoError(t, err)
	longer := time.Now().Add(2 * time.Minute)
	require.NoError(t, s.Record(ctx, "f", "c", []byte(`{"t":"done"}`), longer))
	v, _ = c.Get(ctx, "mcpgen:flow:f").Result()
	assert.Equal(t, `record:{"t":"done"}`, v)
	pttl, _ = c.PTTL(ctx, "mcpgen:flow:f").Result()
	assert.InDelta(t, (2 * time.Minute).Milliseconds(), pttl.Milliseconds(), 2000, "the record's own expiry")

	rec, err = s.Claim(ctx, "f", "d", later)
	require.NoError(t, err)
	assert.Equal(t, `{"t":"done"}`, string(rec))
	require.NoError(t, s.Release(ctx, "f", "c"), "a record is never released")
	rec, _ = s.Claim(ctx, "f", "d", later)
	assert.Equal(t, `{"t":"done"}`, string(rec))
	assert.ErrorIs(t, s.Record(ctx, "f", "c", []byte("again"), later), runtime.ErrClaimLost, "recorded once")

	// An expired claim does not hold.
	_, err = s.Claim(ctx, "g", "a", time.Now().Add(50*time.Millisecond))
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	rec, err = s.Claim(ctx, "g", "b", later)
	require.NoError(t, err)
	assert.Nil(t, rec)
}

func TestPrefix(t *testing.T) {
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{Prefix: "other:"})
	ctx := context.Background()
	_, err := s.Claim(ctx, "f", "a", time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, int64(1), c.Exists(ctx, "other:f").Val())
	assert.Equal(t, "other:f", s.Key("f"))
	// Another prefix is another namespace.
	s2 := redisstore.New(c, nil)
	rec, err := s2.Claim(ctx, "f", "b", time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.Nil(t, rec)
}

func TestStalledRedisTimesOut(t *testing.T) {
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{Timeout: 200 * time.Millisecond})
	require.NoError(t, c.Ping(context.Background()).Err())
	srv.Pause()
	start := time.Now()
	_, err := s.Claim(context.Background(), "f", "a", time.Now().Add(time.Minute))
	require.Error(t, err)
	assert.NotErrorIs(t, err, runtime.ErrClaimed)
	assert.Less(t, time.Since(start), 2*time.Second, "the per-operation timeout, not a hang")
	srv.Resume()
}

func TestFromEnv(t *testing.T) {
	t.Setenv(redisstore.EnvURL, "")
	s, ok, err := redisstore.FromEnv()
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, s)

	t.Setenv(redisstore.EnvURL, "http://nope")
	_, _, err = redisstore.FromEnv()
	require.ErrorContains(t, err, redisstore.EnvURL)

	srv := redistest.Start(t)
	t.Setenv(redisstore.EnvURL, srv.URL())
	s, ok, err = redisstore.FromEnv()
	require.NoError(t, err)
	require.True(t, ok)
	defer s.Close()
	_, err = s.Claim(context.Background(), "f", "a", time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, int64(1), s.Client().Exists(context.Background(), "mcpgen:flow:f").Val())
}

func TestOptionsFromEnvWarnsOnce(t *testing.T) {
	key := "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	for _, tc := range []struct {
		keys, url string
		want      []string
		store     bool
	}{
		{"", "", []string{redisstore.WarnEphemeralKeys}, false},
		{key, "", []string{redisstore.WarnSharedKeysWithoutRedis}, false},
		{key, "redis://127.0.0.1:1/0", nil, true},
	} {
		t.Setenv("MCPGEN_STATE_KEYS", tc.keys)
		t.Setenv(redisstore.EnvURL, tc.url)
		var got []string
		opts, closeFn, err := redisstore.OptionsFromEnv(func(m string) { got = append(got, m) })
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
		assert.NotNil(t, opts.Keys)
		assert.Equal(t, tc.store, opts.Store != nil)
		require.NoError(t, closeFn())
	}
}
