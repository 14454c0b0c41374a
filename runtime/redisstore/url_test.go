package redisstore_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// secret is the password every URL below carries, in its user information
// or its query: no error may show it.
const secret = "S3cretPW"

// A malformed MCPGEN_REDIS_URL is refused naming the part that is wrong,
// never quoting a password: not the user information's, not a query
// parameter's (password, sentinel_password), not part of one.
func TestNewClientErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, want string }{
		{"http://u:" + secret + "@h:6379?password=" + secret, `the scheme is "http"; want redis://`},
		{"redis://?password=" + secret, "no host:port after redis://"},
		{"redis://:" + secret + "@h1:7000,h2:7001?sentinel_password=" + secret, `the host "h1:7000,h2:7001" lists several addresses; write the first as the host and each other one as an addr parameter`},
		{"redis://h1:7000?addr=h2&password=" + secret, `the addr parameter "h2" is not host:port`},
		{"redis://s1:26379?master_name=&password=" + secret, "master_name is empty"},
		{"redis://s1:26379?master_name=m&password=" + secret + "&bogus=1", "a Sentinel URL (it has master_name): redis: unexpected option: bogus"},
		{"redis://s1:26379?master_name=m&sentinel_password=" + secret, "a Sentinel URL (it has master_name): redis: unexpected option: sentinel_password"},
		{"redis://u:" + secret + "@h1:7000/3?addr=h2:7001&password=" + secret, "a Redis Cluster has only database 0; drop the path /3"},
		{"redis://h1:7000?addr=h2:7001&password=" + secret, "a Redis Cluster URL (it has addr): redis: unexpected option: password"},
		{"redis://h1:6379/x?password=" + secret, "one server's URL: redis: invalid database number"},
		{"redis://h1:6379?Password=" + secret + "&auth_token=" + secret, "one server's URL: redis: unexpected option"},
		{"redis://u:" + secret + "@h1:6379/%zz", "the URL does not parse"},
		{"redis://u:S3%zzcretPW@h1:6379", "a % not followed by two hexadecimal digits"},
	} {
		_, _, err := redisstore.NewClient(t.Context(), tc.url)
		require.Error(t, err, tc.url)
		assert.Contains(t, err.Error(), tc.want, tc.url)
		assert.NotContains(t, err.Error(), secret, tc.url)
		assert.NotContains(t, err.Error(), "cret", tc.url)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	u, err := url.Parse("rediss://user:" + secret + "@h1:7000/2?addr=h2:7001&password=" + secret + "&sentinel_password=" + secret + "&dial_timeout=3s&master_name=m#" + secret)
	require.NoError(t, err)
	assert.Equal(t, "rediss://user:xxxxx@h1:7000/2?addr=h2:7001&password=xxxxx&sentinel_password=xxxxx&dial_timeout=3s&master_name=m", redisstore.Redact(u))
}

// What a reachable server or sentinel tells is turned into advice, still
// without the password: a cluster node named with a database number, and
// sentinels that do not know master_name.
func TestNewClientLiveErrors(t *testing.T) {
	t.Parallel()
	node := redistest.StartWith(t, redistest.Config{Args: []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--requirepass", secret}})
	_, _, err := redisstore.NewClient(t.Context(), "redis://:"+secret+"@"+node.Addr()+"/3")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a Redis Cluster node, and a Redis Cluster has only database 0: drop /3")
	assert.NotContains(t, err.Error(), secret)

	st := redistest.StartSentinel(t, 0, 1)
	_, _, err = redisstore.NewClient(t.Context(), "redis://"+st.Sentinels[0].Addr()+"?master_name=nope&password="+secret)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `the sentinels at `+st.Sentinels[0].Addr()+` do not know a master named "nope" (master_name): they watch the master names mymaster`)
	assert.NotContains(t, err.Error(), secret)
	c, topo, err := redisstore.NewClient(t.Context(), st.URL())
	require.NoError(t, err, "the right name")
	assert.Equal(t, redisstore.Sentinel, topo)
	require.NoError(t, c.Close())
}

// An unreachable cluster or server is named by the addresses tried.
func TestUnreachableNamesTheAddresses(t *testing.T) {
	free := func() string {
		s := redistest.Start(t)
		s.Stop()
		return s.Addr()
	}
	a, b := free(), free()
	// Each case waits out go-redis's retries, so they run at once.
	for name, c := range map[string]struct{ url, want string }{
		"cluster":  {"redis://" + a + "?addr=" + b, "cannot reach Redis on the cluster's seed nodes " + a + ", " + b},
		"one":      {"redis://" + a + "/0", "cannot reach Redis at " + a},
		"sentinel": {"redis://" + a + "?master_name=m&addr=" + b + "&password=" + secret, `(the master "m" through the sentinels ` + a + ", " + b + ")"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, _, err := redisstore.FromEnvOf(t.Context(), map[string]string{redisstore.EnvURL: c.url})
			require.Error(t, err)
			assert.Contains(t, err.Error(), redisstore.EnvURL)
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "was refused", "unreachable, not refused")
			assert.NotContains(t, err.Error(), secret)
		})
	}
}

// A server that refuses INFO to the store's user (an ACL) stops New with a
// message naming the way out, unless the store is not fenced.
func TestInfoRefusedNamesTheOptOut(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	admin := client(t, srv)
	require.NoError(t, admin.Do(t.Context(), "ACL", "SETUSER", "app", "on", ">"+secret, "~*", "+@all", "-info").Err())
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), Username: "app", Password: secret})
	t.Cleanup(func() { _ = c.Close() })
	_, err := redisstore.New(t.Context(), c, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ACL +info")
	assert.Contains(t, err.Error(), redisstore.EnvFence+"=off")
	s, err := redisstore.New(t.Context(), c, &redisstore.Options{Fence: redisstore.FenceOff})
	require.NoError(t, err)
	assert.Equal(t, redisstore.FenceOff, s.Fence())
}

// The three forms give the three clients, without connecting (the
// cluster and Sentinel clients dial lazily; the one server is unreachable).
func TestNewClientForms(t *testing.T) {
	t.Parallel()
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

// MCPGEN_REDIS_FENCE sets Options.Fence; a bad value is refused, naming
// the variable and the values it takes.
func TestFenceFromEnv(t *testing.T) {
	srv := redistest.Start(t)
	t.Setenv(redisstore.EnvURL, srv.URL())
	for v, want := range map[string]redisstore.Fence{"": redisstore.FenceAuto, "auto": redisstore.FenceAuto, "on": redisstore.FenceOn, " OFF ": redisstore.FenceOff} {
		t.Setenv(redisstore.EnvFence, v)
		s, ok, err := redisstore.FromEnv(t.Context())
		require.NoError(t, err, strconv.Quote(v))
		require.True(t, ok)
		assert.Equal(t, want, s.Fence(), strconv.Quote(v))
		assert.Equal(t, want == redisstore.FenceOn, strings.Contains(epoch(t, s, "f"), "."), strconv.Quote(v))
		require.NoError(t, s.Close())
	}
	t.Setenv(redisstore.EnvFence, "yes")
	_, _, err := redisstore.FromEnv(t.Context())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `MCPGEN_REDIS_FENCE is "yes": want auto`)
	_, _, err = redisstore.OptionsFromEnv(t.Context(), nil)
	assert.ErrorContains(t, err, redisstore.EnvFence)
	t.Setenv(redisstore.EnvURL, "") // a typo stops the server even before Redis is configured
	_, _, err = redisstore.FromEnv(t.Context())
	assert.ErrorContains(t, err, `MCPGEN_REDIS_FENCE is "yes": want auto`)
}
