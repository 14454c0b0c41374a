package redisstore

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
)

// An operation that runs out of time while Redis keeps answering the
// store's other operations (a busy instance: its pool and CPU) is sent
// again, up to busyLimit timeouts; one that runs out of time while Redis
// answers no one fails after one timeout.
func TestWithinRetriesOnlyWhileRedisAnswers(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	o := &redis.Options{Addr: srv.Addr()}
	ClientOptions(o)
	c := redis.NewClient(o)
	t.Cleanup(func() { _ = c.Close() })
	const timeout = 200 * time.Millisecond
	s, err := New(t.Context(), c, &Options{Timeout: timeout})
	require.NoError(t, err)

	// Others' operations keep being answered (a renewal of no claim:
	// ErrClaimLost, an answer all the same).
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			assert.ErrorIs(t, s.Renew(context.Background(), "none", "t", time.Second), runtime.ErrClaimLost)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var attempts atomic.Int32
	_, err = within(s, context.Background(), func(ctx context.Context) (string, error) {
		if attempts.Add(1) == 1 {
			<-ctx.Done() // queued past the deadline
			return "", ctx.Err()
		}
		return s.client.Ping(ctx).Result()
	})
	require.NoError(t, err, "sent again, and answered")
	assert.EqualValues(t, 2, attempts.Load())

	attempts.Store(0)
	start := time.Now()
	_, err = within(s, context.Background(), func(ctx context.Context) (int, error) {
		attempts.Add(1)
		<-ctx.Done()
		return 0, ctx.Err()
	})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.EqualValues(t, busyLimit, attempts.Load(), "at most busyLimit timeouts")
	assert.Less(t, time.Since(start), busyLimit*timeout+100*time.Millisecond)
	stop()
	<-done

	// Nobody is answered any more: one timeout.
	time.Sleep(timeout)
	attempts.Store(0)
	start = time.Now()
	_, err = within(s, context.Background(), func(ctx context.Context) (int, error) {
		attempts.Add(1)
		<-ctx.Done()
		return 0, ctx.Err()
	})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.EqualValues(t, 1, attempts.Load())
	assert.Less(t, time.Since(start), 2*timeout)

	// Other errors are not sent again.
	attempts.Store(0)
	boom := errors.New("boom")
	_, err = within(s, context.Background(), func(context.Context) (int, error) { attempts.Add(1); return 0, boom })
	require.ErrorIs(t, err, boom)
	assert.EqualValues(t, 1, attempts.Load())
}
