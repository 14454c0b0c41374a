package redisstore_test

import (
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// A malformed MCPGEN_REDIS_URL is refused naming the part that is wrong,
// never quoting the password.
func TestNewClientErrors(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://h:6379", `the scheme is "http"; want redis://`},
		{"redis://", "no host:port after redis://"},
		{"redis://:secret@h1:7000,h2:7001", `the host "h1:7000,h2:7001" lists several addresses; write the first as the host and each other one as an addr parameter`},
		{"redis://h1:7000?addr=h2", `the addr parameter "h2" is not host:port`},
		{"redis://s1:26379?master_name=", "master_name is empty"},
		{"redis://s1:26379?master_name=m&bogus=1", "a Sentinel URL (it has master_name): redis: unexpected option: bogus"},
		{"redis://h1:7000/3?addr=h2:7001", "a Redis Cluster has only database 0; drop the path /3"},
		{"redis://h1:7000?addr=h2:7001&bogus=1", "a Redis Cluster URL (it has addr): redis: unexpected option: bogus"},
		{"redis://h1:6379/x", "one server's URL: redis: invalid database number"},
		{"redis://u:secret@h1:6379/%zz", "the URL does not parse"},
	} {
		_, _, err := redisstore.NewClient(t.Context(), tc.url)
		require.Error(t, err, tc.url)
		assert.Contains(t, err.Error(), tc.want, tc.url)
		assert.NotContains(t, err.Error(), "secret", tc.url)
	}
}

// The three forms give the three clients, without connecting (the
// cluster and Sentinel clients dial lazily; the one server is unreachable).
func TestNewClientForms(t *testing.T) {
	c, topo, err := redisstore.NewClient(t.Context(), "redis://127.0.0.1:1/2")
	require.NoError(t, err)
	assert.Equal(t, redisstore.Single, topo)
	assert.Equal(t, 2, c.(*redis.Client).Options().DB)
	assert.True(t, c.(*redis.Client).Options().ContextTimeoutEnabled)
	require.NoError(t, c.Close())

	c, topo, err = redisstore.NewClient(t.Context(), "redis://127.0.0.1:1?addr=127.0.0.1:2&addr=127.0.0.1:3")
	require.NoError(t, err)
	assert.Equal(t, redisstore.Cluster, topo)
	assert.Equal(t, []string{"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"}, c.(*redis.ClusterClient).Options().Addrs)
	assert.True(t, c.(*redis.ClusterClient).Options().ContextTimeoutEnabled)
	require.NoError(t, c.Close())

	c, topo, err = redisstore.NewClient(t.Context(), "redis://127.0.0.1:1?master_name=mymaster&addr=127.0.0.1:2")
	require.NoError(t, err)
	assert.Equal(t, redisstore.Sentinel, topo)
	assert.True(t, c.(*redis.Client).Options().ContextTimeoutEnabled)
	require.NoError(t, c.Close())
	assert.Equal(t, "sentinel", topo.String())
}
