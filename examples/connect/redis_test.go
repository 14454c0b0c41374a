package main

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// Two connect instances on one real redis-server (internal/redistest), as
// MCPGEN_REDIS_URL gives them: alice calls the first, completes the page
// on the second, and the first imports; the key, kept sealed in that Redis,
// serves her next call on the second without asking.
func TestRedisPageAndKeySharedByInstances(t *testing.T) {
	srv := redistest.Start(t)
	keys, err := runtime.ParseKeyRing(runtime.GenerateKey())
	require.NoError(t, err)
	var instances []*connectServer
	var client *redis.Client
	for range 2 {
		client = redis.NewClient(&redis.Options{Addr: srv.Addr()})
		t.Cleanup(func() { _ = client.Close() })
		store, err := redisstore.New(t.Context(), client, nil)
		require.NoError(t, err)
		instances = append(instances, startConnectWith(t, runtime.Options{Keys: keys, Store: store}))
	}
	one, two := instances[0], instances[1]
	b := newBrowser("alice", "alice-password")
	u := &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		// The link names the first instance; the second serves it.
		if _, err := enterKey(b, strings.Replace(er.URL, one.opts.PageURL, two.opts.PageURL, 1), alicesKey); err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
	alice := connect(t, one, "alice-token", u)
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, alice))
	require.Len(t, u.asked, 1)

	again := connect(t, two, "alice-token", never())
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, again))

	sealed, err := client.Get(t.Context(), "mcpgen:connect:apikey:alice").Result()
	require.NoError(t, err)
	assert.NotContains(t, sealed, alicesKey, "kept sealed in Redis")
	all, err := client.Keys(t.Context(), "*").Result()
	require.NoError(t, err)
	for _, k := range all {
		if v, err := client.Get(t.Context(), k).Result(); err == nil {
			assert.NotContains(t, v, alicesKey, "Redis key %s", k)
		}
	}
	noKeyAnywhere(t, two, alice, alicesKey)
}
