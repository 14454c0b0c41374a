package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Topology is the kind of Redis deployment a URL names (see [NewClient]).
type Topology int

const (
	// Single is one Redis server (possibly a master with replicas that
	// nothing fails over automatically, or a managed Redis behind one
	// address).
	Single Topology = iota + 1
	// Cluster is a Redis Cluster: several masters, each with its share of
	// the 16384 hash slots and, usually, replicas.
	Cluster
	// Sentinel is a master and its replicas watched by Redis Sentinel,
	// which promotes a replica when the master fails.
	Sentinel
)

// String returns "single", "cluster" or "sentinel".
func (t Topology) String() string {
	switch t {
	case Single:
		return "single"
	case Cluster:
		return "cluster"
	case Sentinel:
		return "sentinel"
	}
	return fmt.Sprintf("Topology(%d)", int(t))
}

// NewClient returns a go-redis client for rawURL and the topology it names,
// in one of go-redis's three URL forms (the scheme is redis://, or
// rediss:// for TLS; user and password, when given, go before the host):
//
//   - one server: redis://host:6379/0 (redis.ParseURL). When that server
//     is a Redis Cluster node (INFO cluster: cluster_enabled:1), the
//     client is a cluster client seeded with it;
//   - a Redis Cluster: the seed nodes, the first as the host and each
//     other one as an addr parameter, e.g.
//     redis://h1:7000?addr=h2:7001&addr=h3:7002 (redis.ParseClusterURL;
//     no database number: a cluster has only database 0);
//   - Redis Sentinel: the sentinels, the first as the host and each other
//     one as an addr parameter, and the master's name as master_name,
//     e.g. redis://s1:26379?master_name=mymaster&addr=s2:26379&addr=s3:26379
//     (redis.ParseFailoverURL; a user and password before the host are the
//     sentinels', the master's are the username and password parameters).
//
// go-redis's other query parameters (dial_timeout, pool_size, …) are
// accepted as it documents them. The client gets what the store needs
// ([ClientOptions]: the store's deadlines on the socket). Errors name the
// part of the URL that is wrong (the password is never quoted): a scheme
// other than redis or rediss, no host, several hosts separated by commas
// (the error shows the addr form), an empty master_name, an addr that is
// not host:port, a database number on a cluster, a parameter go-redis does
// not know.
func NewClient(ctx context.Context, rawURL string) (redis.UniversalClient, Topology, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error quotes the whole URL, password included
		}
		return nil, 0, fmt.Errorf("the URL does not parse: %w", err)
	}
	shown := u.Redacted()
	switch {
	case u.Scheme != "redis" && u.Scheme != "rediss":
		return nil, 0, fmt.Errorf("%s: the scheme is %q; want redis:// (or rediss:// for TLS)", shown, u.Scheme)
	case u.Host == "":
		return nil, 0, fmt.Errorf("%s: no host:port after %s://", shown, u.Scheme)
	case strings.Contains(u.Host, ","):
		return nil, 0, fmt.Errorf("%s: the host %q lists several addresses; write the first as the host and each other one as an addr parameter: redis://h1:7000?addr=h2:7001&addr=h3:7002 for a Redis Cluster, and master_name=<name> as well for Sentinel", shown, u.Host)
	}
	q := u.Query()
	for _, a := range q["addr"] {
		if h, p, ok := strings.Cut(a, ":"); !ok || h == "" || p == "" {
			return nil, 0, fmt.Errorf("%s: the addr parameter %q is not host:port", shown, a)
		}
	}
	switch {
	case q.Has("master_name"):
		if q.Get("master_name") == "" {
			return nil, 0, fmt.Errorf("%s: master_name is empty: name the master the sentinels watch (sentinel monitor <name> … in sentinel.conf)", shown)
		}
		o, err := redis.ParseFailoverURL(u.String())
		if err != nil {
			return nil, 0, fmt.Errorf("%s, a Sentinel URL (it has master_name): %w", shown, err)
		}
		o.ContextTimeoutEnabled = true
		if o.PoolTimeout == 0 {
			o.PoolTimeout = DefaultTimeout
		}
		return redis.NewFailoverClient(o), Sentinel, nil
	case q.Has("addr"):
		c, err := clusterClient(u, shown)
		return c, Cluster, err
	}
	o, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, 0, fmt.Errorf("%s, one server's URL: %w", shown, err)
	}
	ClientOptions(o)
	c := redis.NewClient(o)
	// A cluster named by one of its nodes: seed a cluster client with it.
	// An unreachable server stays a single one here; New reports it.
	ictx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	if info, err := c.Info(ictx, "cluster").Result(); err == nil && strings.Contains(info, "cluster_enabled:1") {
		_ = c.Close()
		u.Path = ""
		cc, err := clusterClient(u, shown)
		return cc, Cluster, err
	}
	return c, Single, nil
}

// clusterClient returns a cluster client for u (redis.ParseClusterURL).
func clusterClient(u *url.URL, shown string) (*redis.ClusterClient, error) {
	if p := strings.Trim(u.Path, "/"); p != "" && p != "0" {
		return nil, fmt.Errorf("%s: a Redis Cluster has only database 0; drop the path /%s", shown, p)
	}
	u.Path = ""
	o, err := redis.ParseClusterURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("%s, a Redis Cluster URL (it has addr): %w", shown, err)
	}
	o.ContextTimeoutEnabled = true
	if o.PoolTimeout == 0 {
		o.PoolTimeout = DefaultTimeout
	}
	return redis.NewClusterClient(o), nil
}
