package redisstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/storetest"
)

// An instance whose clock runs 29.9 s behind (inside the allowed 30 s) opens
// a completed flow's state until the end of its expiry's second by its
// clock: Redis keeps the record (PXAT, read back with PEXPIRETIME) at least
// that long, so the replay gets it and runs nothing.
func TestRecordOutlivesTheSkewedState(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s, c := newStore(t, srv, nil)
	storetest.RecordOutlivesSkew(t, s, runtime.DefaultClockSkew-100*time.Millisecond, func(flow string) time.Time {
		ms, err := c.PExpireTime(t.Context(), s.Key(flow)).Result()
		require.NoError(t, err)
		require.Positive(t, ms, "the record has an expiry")
		return time.UnixMilli(int64(ms / time.Millisecond))
	})
}
