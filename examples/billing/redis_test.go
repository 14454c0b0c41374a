package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// Two billing instances on one real redis-server (internal/redistest), as
// MCPGEN_REDIS_URL gives them: the ledger is shared, a charge made through
// one is listed by the other, and the accepted retry replayed on both leaves
// one charge.
func TestRedisLedgerSharedByInstances(t *testing.T) {
	srv := redistest.Start(t)
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	var urls []string
	for range 2 {
		c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
		t.Cleanup(func() { _ = c.Close() })
		store, err := redisstore.New(t.Context(), c, nil)
		require.NoError(t, err)
		opts := runtime.Options{Keys: keys, Store: store}
		ledger := ledgerFor(opts)
		require.IsType(t, &redisLedger{}, ledger, "the Redis store brings the Redis ledger")
		urls = append(urls, startBilling(t, opts, ledger).url)
	}
	a, b := connect(t, urls[0], "alice-token"), connect(t, urls[1], "alice-token")
	first, err := pay(t, a, inv1, nil, "")
	require.NoError(t, err)
	yes := answer("pay_invoice", "accept", map[string]any{"account": "sav-002"})
	res, err := pay(t, b, inv1, yes, first.RequestState)
	require.NoError(t, err)
	want := text(t, res)
	assert.Regexp(t, chargedINV1, want)
	for i, cs := range []*mcp.ClientSession{a, b, a, b} {
		res, err := pay(t, cs, inv1, yes, first.RequestState)
		require.NoError(t, err)
		assert.Equal(t, want, text(t, res), "replay %d", i)
	}
	listA, listB := charges(t, a), charges(t, b)
	require.Len(t, listA, 1, "one charge for INV-1")
	assert.Equal(t, listA, listB, "both instances read the same ledger")
	assert.Contains(t, want, "(charge "+listA[0].ID+")")
	assert.Len(t, charges(t, connect(t, urls[0], "bob-token")), 0)
}
