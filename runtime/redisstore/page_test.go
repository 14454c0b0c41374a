package redisstore_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// pageID returns a fresh id of a page's shape: 22 base64url characters.
func pageID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// The contract of runtime.PageStore, held by both stores: the in-memory one
// and Redis.
func TestPageContract(t *testing.T) {
	t.Parallel()
	t.Run("memory", func(t *testing.T) { testPageContract(t, runtime.NewMemoryStore()) })
	t.Run("redis", func(t *testing.T) {
		s, _ := newStore(t, redistest.Start(t), nil)
		testPageContract(t, s)
	})
}

func testPageContract(t *testing.T, s runtime.PageStore) {
	ctx := context.Background()
	later := time.Now().Add(time.Minute)

	t.Run("missing", func(t *testing.T) {
		id := pageID()
		_, _, err := s.Page(ctx, id)
		assert.ErrorIs(t, err, runtime.ErrNoPage)
		assert.ErrorIs(t, s.CompletePage(ctx, id, []byte("a")), runtime.ErrNoPage)
		assert.NoError(t, s.DeletePage(ctx, id), "deleting nothing is no error")
		_, _, err = s.Page(ctx, id)
		assert.ErrorIs(t, err, runtime.ErrNoPage, "nothing created by the attempts")
	})

	t.Run("put, complete once", func(t *testing.T) {
		id := pageID()
		in := []byte("sealed record")
		require.NoError(t, s.PutPage(ctx, id, in, later))
		in[0] = 'X' // the store keeps its own copy
		assert.ErrorIs(t, s.PutPage(ctx, id, []byte("another record"), later), runtime.ErrPageExists)
		rec, ans, err := s.Page(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, "sealed record", string(rec), "the first record, not the refused one")
		assert.Nil(t, ans, "not completed")

		require.NoError(t, s.CompletePage(ctx, id, []byte("first answer")))
		assert.ErrorIs(t, s.CompletePage(ctx, id, []byte("second answer")), runtime.ErrPageCompleted)
		rec, ans, err = s.Page(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, "sealed record", string(rec))
		assert.Equal(t, "first answer", string(ans))
		rec[0], ans[0] = 'X', 'X' // the slices returned are the caller's
		rec, ans, _ = s.Page(ctx, id)
		assert.Equal(t, "sealed record", string(rec))
		assert.Equal(t, "first answer", string(ans))
	})

	t.Run("concurrent completions: one wins", func(t *testing.T) {
		id := pageID()
		require.NoError(t, s.PutPage(ctx, id, []byte("r"), later))
		const n = 16
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = s.CompletePage(ctx, id, fmt.Appendf(nil, "answer %d", i))
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			if err == nil {
				assert.Equal(t, -1, winner, "a second completion succeeded: %d after %d", i, winner)
				winner = i
				continue
			}
			assert.ErrorIs(t, err, runtime.ErrPageCompleted, "completion %d", i)
		}
		require.NotEqual(t, -1, winner, "no completion succeeded")
		_, ans, err := s.Page(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("answer %d", winner), string(ans), "the winner's answer is the one kept")
	})

	t.Run("concurrent puts: one wins", func(t *testing.T) {
		id := pageID()
		const n = 16
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = s.PutPage(ctx, id, fmt.Appendf(nil, "record %d", i), later)
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			if err == nil {
				assert.Equal(t, -1, winner, "a second put succeeded: %d after %d", i, winner)
				winner = i
				continue
			}
			assert.ErrorIs(t, err, runtime.ErrPageExists, "put %d", i)
		}
		require.NotEqual(t, -1, winner, "no put succeeded")
		rec, _, err := s.Page(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("record %d", winner), string(rec))
	})

	t.Run("expiry", func(t *testing.T) {
		id := pageID()
		require.NoError(t, s.PutPage(ctx, id, []byte("r"), time.Now().Add(200*time.Millisecond)))
		require.NoError(t, s.CompletePage(ctx, id, []byte("a")), "before its expiry")
		_, ans, err := s.Page(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, "a", string(ans))
		time.Sleep(300 * time.Millisecond)
		_, _, err = s.Page(ctx, id)
		assert.ErrorIs(t, err, runtime.ErrNoPage, "expired")
		assert.ErrorIs(t, s.CompletePage(ctx, id, []byte("b")), runtime.ErrNoPage, "expired")
		require.NoError(t, s.PutPage(ctx, id, []byte("new"), later), "an expired id is free again")
		rec, ans, err := s.Page(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, "new", string(rec))
		assert.Nil(t, ans, "nothing of the expired page is left")

		past := pageID()
		require.NoError(t, s.PutPage(ctx, past, []byte("r"), time.Now().Add(-time.Second)))
		_, _, err = s.Page(ctx, past)
		assert.ErrorIs(t, err, runtime.ErrNoPage, "put already expired")
	})

	t.Run("delete", func(t *testing.T) {
		id, other := pageID(), pageID()
		require.NoError(t, s.PutPage(ctx, id, []byte("r"), later))
		require.NoError(t, s.PutPage(ctx, other, []byte("o"), later))
		require.NoError(t, s.CompletePage(ctx, id, []byte("a")))
		require.NoError(t, s.DeletePage(ctx, id))
		_, _, err := s.Page(ctx, id)
		assert.ErrorIs(t, err, runtime.ErrNoPage, "record and answer gone")
		assert.ErrorIs(t, s.CompletePage(ctx, id, []byte("b")), runtime.ErrNoPage)
		require.NoError(t, s.DeletePage(ctx, id), "deleted twice")
		rec, _, err := s.Page(ctx, other)
		require.NoError(t, err, "another page is untouched")
		assert.Equal(t, "o", string(rec))
	})
}

// On Redis a page is one hash under PageKey, expiring at its expires;
// completing it keeps that expiry; a put or a completion sent again after a
// timeout (the same sealed bytes) finds its own write and succeeds.
func TestPageOnRedis(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, &redisstore.Options{Timeout: 300 * time.Millisecond})
	ctx := context.Background()
	id := pageID()
	key := s.PageKey(id)
	assert.Equal(t, "mcpgen:flow:page:{"+id+"}", key)

	expires := time.Now().Add(time.Minute)
	require.NoError(t, s.PutPage(ctx, id, []byte("rec"), expires))
	assert.Equal(t, map[string]string{"record": "rec"}, c.HGetAll(ctx, key).Val())
	assert.InDelta(t, expires.UnixMilli(), c.PExpireTime(ctx, key).Val().Milliseconds(), 1, "PEXPIREAT expires")
	require.NoError(t, s.PutPage(ctx, id, []byte("rec"), expires), "the same put again: its own page")

	require.NoError(t, s.CompletePage(ctx, id, []byte("ans")))
	assert.Equal(t, map[string]string{"record": "rec", "answer": "ans"}, c.HGetAll(ctx, key).Val())
	assert.InDelta(t, expires.UnixMilli(), c.PExpireTime(ctx, key).Val().Milliseconds(), 1, "the expiry is kept")
	require.NoError(t, s.CompletePage(ctx, id, []byte("ans")), "the same completion again: its own answer")
	assert.ErrorIs(t, s.CompletePage(ctx, id, []byte("other")), runtime.ErrPageCompleted)

	// A failing Redis is an error of its own, naming the key with the id
	// cut short (store errors reach logs).
	srv.Stop()
	_, _, err := s.Page(ctx, id)
	require.Error(t, err)
	assert.NotErrorIs(t, err, runtime.ErrNoPage)
	assert.Contains(t, err.Error(), "redis page mcpgen:flow:page:{"+id[:6]+"…}")
	for _, err := range []error{
		s.PutPage(ctx, id, []byte("r"), expires),
		s.CompletePage(ctx, id, []byte("a")),
		s.DeletePage(ctx, id),
		err,
	} {
		require.Error(t, err)
		assert.NotContains(t, err.Error(), id, "the whole id is in an error")
		assert.False(t, strings.Contains(err.Error(), "not implemented"))
	}
}
