package redisstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// keySlot agrees with a real server's CLUSTER KEYSLOT, and each bucket's
// tag falls in the bucket's own stretch of the slots, so that equal
// contiguous slot ranges get equal shares of buckets.
func TestBucketSlots(t *testing.T) {
	t.Parallel()
	srv := redistest.StartWith(t, redistest.Config{Args: []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"}})
	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	keys := []string{"", "a", "foo", "123456789", "mcpgen:flow:epoch", "Yx3_-AbCdEfGhIjKlMnOpQ"}
	for i := range 200 {
		keys = append(keys, fmt.Sprintf("k%d", i*7919))
	}
	for _, k := range keys {
		require.EqualValues(t, c.ClusterKeySlot(ctx, k).Val(), keySlot(k), "key %q", k)
	}
	for b, tag := range bucketTags() {
		slot := c.ClusterKeySlot(ctx, "mcpgen:flow:{"+tag+"}:epoch").Val()
		assert.EqualValues(t, b, int(slot)/(clusterSlots/Buckets), "bucket %d, tag %q, slot %d", b, tag, slot)
	}
}

// Random flow ids spread evenly over the buckets.
func TestBucketsSpread(t *testing.T) {
	t.Parallel()
	var n [Buckets]int
	const flows = Buckets * 200
	for i := range flows {
		n[bucketOf(fmt.Sprintf("%022d", i*2654435761))]++
	}
	for b, c := range n {
		assert.InDelta(t, 200, c, 60, "bucket %d", b)
	}
}
