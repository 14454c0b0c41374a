package redisstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
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
// part of the URL that is wrong, showing it through [Redact] (no password,
// in the user information or the query, is ever quoted): a scheme
// other than redis or rediss, no host, several hosts separated by commas
// (the error shows the addr form), an empty master_name, an addr that is
// not host:port, a database number on a cluster (also when the one
// server named is a cluster node: "a Redis Cluster has only database 0"),
// a parameter go-redis does not know, sentinels that answer but do not know
// master_name (the error lists the names they watch).
func NewClient(ctx context.Context, rawURL string) (redis.UniversalClient, Topology, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error quotes the whole URL, password included
		}
		var eerr url.EscapeError
		if errors.As(err, &eerr) {
			err = errors.New("a % not followed by two hexadecimal digits") // EscapeError quotes them: they may be in the password
		}
		return nil, 0, fmt.Errorf("the URL does not parse: %w", err)
	}
	shown := Redact(u)
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
		if err := knownMaster(ctx, o); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", shown, err)
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
	info, err := c.Info(ictx, "cluster").Result()
	if err != nil && strings.Contains(err.Error(), "SELECT is not allowed in cluster mode") {
		_ = c.Close()
		return nil, 0, fmt.Errorf("%s: this server is a Redis Cluster node, and a Redis Cluster has only database 0: drop /%s", shown, strings.Trim(u.Path, "/"))
	}
	if err == nil && strings.Contains(info, "cluster_enabled:1") {
		_ = c.Close()
		u.Path = ""
		cc, err := clusterClient(u, shown)
		return cc, Cluster, err
	}
	return c, Single, nil
}

// Redact returns u as text with every secret replaced by "xxxxx": the
// password of its user information (as [url.URL.Redacted] does) and the
// value of every query parameter whose name holds "pass", "secret",
// "token", "auth", "credential" or "key" (case-insensitive): password and
// sentinel_password, which go-redis reads or refuses by name, and any
// such name a URL may carry. The fragment is dropped. Every message that
// shows a Redis URL shows it through Redact.
func Redact(u *url.URL) string {
	r := *u
	r.Fragment, r.RawFragment = "", ""
	if r.RawQuery != "" {
		parts := strings.Split(r.RawQuery, "&")
		for i, p := range parts {
			k, _, hasValue := strings.Cut(p, "=")
			name, err := url.QueryUnescape(k)
			if err != nil {
				name = k
			}
			if hasValue && secretParam(name) {
				parts[i] = k + "=xxxxx"
			}
		}
		r.RawQuery = strings.Join(parts, "&")
	}
	return r.Redacted()
}

// secretParam reports whether a query parameter's name marks its value
// as a secret (see [Redact]).
func secretParam(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"pass", "secret", "token", "auth", "credential", "key"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// knownMaster asks each sentinel of o, within [DefaultTimeout] in all,
// for the address of the master o names (SENTINEL
// GET-MASTER-ADDR-BY-NAME): nil as soon as one knows it, or when none
// answers (New then reports Redis unreachable); an error naming the master
// and the sentinels when those that answered all do not know that name,
// with the names they monitor (SENTINEL MASTERS).
func knownMaster(ctx context.Context, o *redis.FailoverOptions) error {
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	var answered []string
	monitored := map[string]bool{}
	for _, addr := range o.SentinelAddrs {
		sc := redis.NewSentinelClient(&redis.Options{Addr: addr, Username: o.SentinelUsername, Password: o.SentinelPassword,
			TLSConfig: o.TLSConfig, DialTimeout: DefaultTimeout, ContextTimeoutEnabled: true, MaxRetries: -1})
		_, err := sc.GetMasterAddrByName(ctx, o.MasterName).Result()
		if err == nil {
			_ = sc.Close()
			return nil
		}
		if errors.Is(err, redis.Nil) {
			answered = append(answered, addr)
			if ms, err := sc.Masters(ctx).Result(); err == nil {
				for _, m := range ms {
					if fields, ok := m.([]any); ok {
						for i := 0; i+1 < len(fields); i += 2 {
							if fields[i] == "name" {
								monitored[fmt.Sprint(fields[i+1])] = true
							}
						}
					} else if fields, ok := m.(map[any]any); ok {
						monitored[fmt.Sprint(fields["name"])] = true
					}
				}
			}
		}
		_ = sc.Close()
	}
	if len(answered) == 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(monitored))
	watch := "no master at all"
	if len(names) > 0 {
		watch = "the master names " + strings.Join(names, ", ")
	}
	return fmt.Errorf("the sentinels at %s do not know a master named %q (master_name): they watch %s", strings.Join(answered, ", "), o.MasterName, watch)
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
