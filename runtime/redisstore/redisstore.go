// Package redisstore is a [runtime.Store] and a [runtime.PageStore] on
// Redis, for several server instances that share a key ring behind a load
// balancer: any of them may receive a replay of any flow's retry, so all of
// them must see the same claims and records, or a replayed requestState
// runs its branch again (MCP 2026-07-28, basic/patterns/mrtr, requestState
// security: the state is echoed by the client and may be sent more than
// once). One Redis server, a Redis Cluster and a master watched by Redis
// Sentinel all serve (see [NewClient] for their URLs, [FromEnv] for
// MCPGEN_REDIS_URL).
//
// # Keys
//
// Flows are spread over [Buckets] (256) buckets by their id (FNV-1a); each
// bucket has a hash tag of its own, chosen so that bucket b's keys hash to
// the b-th 64-slot stretch of a Redis Cluster's 16384 slots, so the
// buckets, and the flows with them, spread evenly over a cluster's
// masters, while every key one operation reads stays in one slot. Under
// Options.Prefix (default "mcpgen:flow:"), with <tag> a bucket's tag
// ("17.301"):
//
//   - <prefix>{<tag>}:epoch holds the bucket's epoch: 22 random base64url
//     characters, created once (only when the key is missing) and never
//     expiring. A Redis that loses its data (a restart without persistence,
//     FLUSHALL, FLUSHDB) loses this key with it, and the next operation
//     that needs it creates a new value: every flow of the bucket begun
//     before then carries the old epoch in its requestState, and its
//     retries are refused (the store cannot tell whether it completed)
//     instead of running its branch again.
//   - <prefix>{<tag>}:<flow id> (the flow's bucket's tag; a flow id is 22
//     base64url characters) holds either "claim:<token> <epoch>" (a
//     request is running the flow's retry, claimed under that epoch, as
//     the bucket had it on the serving node with its fence; it expires
//     after the claim's lease, PX, unless renewed) or "record:<the final response as JSON>" (expiring,
//     PXAT, when the flow's requestState stops opening: its expiry, fixed
//     in round 1, plus the clock skew allowed between instances).
//   - <prefix>page:{<page id>} is a URL-mode page ([runtime.PageStore.PutPage]):
//     a hash with the field record (the page's sealed record) and, once the
//     user completed the page, answer (the sealed answer), expiring when
//     the page does (PEXPIREAT). The id is a hash tag, so each page is one
//     slot on a Redis Cluster (see [Store.PageKey]).
//
// A prefix that holds a hash tag itself ("{mcpgen}:flow:", which this
// package once required on a cluster) puts every key in that tag's one
// slot (the first tag counts: Redis Cluster specification, "Hash tags"):
// correct, but one master then serves every flow.
//
// # Operations
//
// Every operation is one Lua script (EVALSHA; EVAL when the server does not
// have it yet) or one command, atomic on the Redis server, declaring every
// key it touches (KEYS, all in one slot, so it runs on a cluster), and safe
// to send again after a timeout (the same token finds its own claim, the
// same sealed page record or answer its own write):
//
//   - Claim checks the flow's bucket's epoch (recreating a missing one) and
//     then, in the same script, returns the flow's record, or takes (or
//     renews) the caller's claim for the lease, or reports another
//     request's claim ([runtime.ErrClaimed]);
//   - Renew extends the caller's own claim by the lease (PEXPIRE);
//   - Record replaces the caller's own claim with the record; both check
//     that the claim's epoch is the bucket's on the serving node now (with
//     its replication ID when fenced), so a claim that reached a replica
//     promoted since is neither renewed nor recorded over there;
//   - Release deletes the caller's own claim and nothing else;
//   - Epoch reads the flow's bucket's epoch (creating it when missing); each
//     bucket's value is cached in the process for [Options.EpochCache]
//     (default 5 s), and [New] reads them all;
//   - PutPage creates a page's hash when its key is free, and
//     CompletePage sets its answer once (one script each); Page is one
//     HMGET, DeletePage one DEL.
//
// So a request that completes a flow makes 2 Redis round trips (the claim
// before its branch, the record after it: a response a client receives is
// already recorded), a request that asks again makes 2 (claim, release), a
// replay of a completed flow 1, and a first call at most 1 (its bucket's
// epoch, once per EpochCache per process and bucket), plus one renewal
// every third of the lease while a branch runs longer than that. Each
// operation has its own deadline ([Options.Timeout], default 2 s): a Redis
// that is down or stalled makes the retry fail closed (JSON-RPC -32603, no
// branch runs) instead of hanging, while an instance too busy to get its
// answer in time (thousands of requests at once) sends the operation again
// as long as Redis answers its other ones.
//
// # Failover
//
// Redis replicates asynchronously: when Sentinel promotes a replica, or a
// cluster's replica takes over its failed master, the new master may lack
// the last writes the old one acknowledged: a claim (its branch ran or is
// running) or a record (its replays would claim the flow again). The
// epoch key itself was written long before and survived, so it cannot
// tell. The store therefore fences flows by node ([Options.Fence]: always
// on a cluster and on Sentinel; on one address, decided by each operation,
// see below): a bucket's epoch is then "<the epoch key's value>.<the first 16 hex digits of the serving
// node's replication ID>" (INFO replication, master_replid), read by the
// same scripts that read the key. Redis gives a master a new random
// replication ID whenever it may hold another history than before: a
// replica promoted by Sentinel, by a cluster failover or by REPLICAOF NO
// ONE takes a new one (the old one becomes master_replid2), and so does a
// master restarted. A branch runs, and a record is served, only after a
// claim, and a claim succeeds only where the bucket's epoch, node ID
// included, is the one sealed in round 1. So after a failover every flow
// begun before it carries an ID no master has any more: its retries are
// refused ("start the call again"), whatever the promoted replica
// received (a record or renewal that a branch running across the failover
// sends there changes nothing a claim would accept), and a flow begun after
// it claims only on the new master. The old master, cut off but still taking writes
// (a network partition), keeps its ID: it alone can honour the flows begun
// on it, the new master refuses them, and the writes it takes are dropped
// when it rejoins as a replica, with no flow the new master honours among
// them. So no branch runs twice, without WAIT (which Redis documents as
// not making replication strongly consistent, and which would add a
// replication round trip to each claim and record) and without a cost per
// round beyond the INFO call inside the claim and epoch scripts. The
// price: a failover, a master restart (even one that kept its data by AOF)
// or a slot migrated to another master refuses the flows in progress on
// that master's buckets, which start again.
//
// On one address ([FenceAuto], the default there) the epoch and claim
// scripts decide each time from INFO replication: the epoch is the key's
// value alone while the node is a master alone (connected_slaves:0,
// repl_backlog_active:0, master_replid2 all zeros), and fenced otherwise.
// A lone server so keeps its flows across a restart from its append-only
// file (a restart gives it no backlog and no second ID). The backlog is
// what counts, not connected_slaves alone: a replica whose link broke is
// not connected, yet may be promoted without the writes the master takes
// meanwhile; the master keeps its backlog for repl-backlog-ttl (1 h by
// default) after its last replica left, a replica keeps its own, and a
// promoted one has a second ID. A claim compares the sealed epoch with the
// one the node gives now, so a flow begun while the server was alone is
// refused once it has a replica (never claimed unfenced while a replica
// could take over), and one begun fenced is refused once the node is alone
// again. The epoch cache ([Options.EpochCache]) may serve a first call the
// form read before fencing changed, for at most the cache's life: that
// flow's retries are then refused ("start the call again"), never run
// twice, because the claim decides on the node's state at that moment; and
// the first refused claim makes the instance read every bucket's epoch
// again. Restoring an older copy of the data behind the address (a backup,
// or a replica's files started as a master of their own) is a loss no
// epoch sees: flush such a copy (FLUSHALL) before serving from it.
//
// # The server
//
// Redis 6.2 or newer, with maxmemory-policy noeviction (Redis docs, "Key
// eviction": any other policy may drop a record while the epoch key stays,
// and a replay would then run its branch again), which [New] checks on
// every master; and, for records that outlive a restart, appendonly yes
// (Redis docs, "Redis persistence": AOF), which [New] reports through
// [Store.Persistence]. examples/loadbalanced/redis.conf is such a
// configuration.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// DefaultPrefix is the default of [Options.Prefix].
const DefaultPrefix = "mcpgen:flow:"

// DefaultTimeout is the default of [Options.Timeout].
const DefaultTimeout = 2 * time.Second

// DefaultEpochCache is the default of [Options.EpochCache].
const DefaultEpochCache = 5 * time.Second

// EnvURL names the environment variable [FromEnv] reads: a Redis URL in
// one of the forms [NewClient] takes: one server
// (redis://127.0.0.1:6379/0, rediss://user:password@host:6380/2), a Redis
// Cluster (redis://h1:7000?addr=h2:7001&addr=h3:7002) or Redis Sentinel
// (redis://s1:26379?master_name=mymaster&addr=s2:26379&addr=s3:26379).
const EnvURL = "MCPGEN_REDIS_URL"

// EnvSkipConfigCheck names the environment variable that sets
// [Options.SkipConfigCheck] for [FromEnv] when it is "1" or "true".
const EnvSkipConfigCheck = "MCPGEN_REDIS_SKIP_CONFIG_CHECK"

// EnvFence names the environment variable that sets [Options.Fence] for
// [FromEnv]: "auto" (the default when unset or empty: [FenceAuto], and
// [FenceOn] for a Sentinel URL), "on" ([FenceOn]) or "off" ([FenceOff]);
// any other value stops FromEnv with an error naming the variable.
const EnvFence = "MCPGEN_REDIS_FENCE"

// Options configure a [Store]. The zero value is valid.
type Options struct {
	// Prefix is prepended to every key of the store (default
	// [DefaultPrefix], "mcpgen:flow:"): <prefix>{<tag>}:epoch and
	// <prefix>{<tag>}:<flow id> (see the package doc). Instances that must
	// see each other's flows use the same prefix on the same Redis
	// database. A hash tag in it puts every key in one cluster slot.
	Prefix string
	// Timeout bounds each Redis operation (default [DefaultTimeout], 2 s),
	// counting the wait for a pooled connection. An operation that takes
	// longer while Redis answers none of the store's other operations
	// fails, and the engine refuses the retry with JSON-RPC -32603, running
	// no branch; one that takes longer while Redis answers others (the
	// instance is busy, Redis is not) is sent again, up to 3 timeouts in
	// all. New's configuration check has the same bound.
	Timeout time.Duration
	// EpochCache is how long the store reuses the epoch it last read or
	// confirmed before asking Redis again (default [DefaultEpochCache],
	// 5 s; negative: ask every time); an operation that fails makes the
	// next first call ask again. A first call that asks seals it into its
	// requestState; an epoch that went stale meanwhile (Redis lost its data
	// unseen by this instance) only makes that flow's retries be refused
	// ("start the call again"), never run twice.
	EpochCache time.Duration
	// SkipConfigCheck makes [New] skip its CONFIG GET of maxmemory-policy,
	// appendonly and save: for a managed Redis that does not allow CONFIG.
	// Set it only when the server is known to run maxmemory-policy
	// noeviction (an evicting policy may drop records, and replays of their
	// flows would run again); [Store.Persistence] then reports nothing.
	SkipConfigCheck bool
	// Fence says whether each bucket's epoch names the Redis node that
	// serves it, so that the flows in progress when a replica takes over
	// are refused instead of run again (see the package doc, "Failover").
	// The zero value, [FenceAuto], is always on for a *redis.ClusterClient
	// and, on one address, decided by each operation from the node's state
	// at that moment; [FromEnv] sets [FenceOn] for a Sentinel URL, and
	// MCPGEN_REDIS_FENCE ([EnvFence]) sets it for any URL.
	Fence Fence
}

// Fence is [Options.Fence].
type Fence int

const (
	// FenceAuto: on for a cluster client; on one address, decided inside
	// each epoch and claim script: off while the node is a master alone
	// (no replica connected, none within repl-backlog-ttl, never
	// promoted since it started), on otherwise. A flow sealed alone is
	// refused once the node has a replica (its epoch changed form), so no
	// flow is claimed unfenced while a replica could take over.
	FenceAuto Fence = iota
	// FenceOn: each epoch names the node (a failover or a restart of a
	// master refuses that master's flows in progress).
	FenceOn
	// FenceOff: the epoch key alone (a lone server; a restart that kept
	// the data by AOF keeps its flows). A replica promoted may then run a
	// branch a second time.
	FenceOff
)

// Store is a [runtime.Store] and a [runtime.PageStore] on a Redis server, a Redis Cluster or a master
// watched by Sentinel. It is safe for concurrent use, within and across
// processes.
type Store struct {
	client   redis.UniversalClient
	prefix   string
	base     [Buckets]string // each bucket's keys start with it: <prefix>{<tag>}:
	fence    string          // the scripts' fence argument: "1" FenceOn, "0" FenceOff, "a" FenceAuto on one address (decided per operation)
	timeout  time.Duration
	cacheFor time.Duration
	owned    bool // Close closes client (FromEnv made it)
	inline   bool // the client honours context deadlines on the socket: no watchdog goroutine
	persist  Persistence

	answered atomic.Int64 // when Redis last answered one of the store's operations, Unix nanoseconds
	staleAt  atomic.Int64 // epochs read before this (Unix nanoseconds) are read again: Redis failed since

	epochs [Buckets]bucketEpoch
}

// bucketEpoch is the cached epoch of one bucket.
type bucketEpoch struct {
	mu       sync.Mutex
	epoch    string        // the epoch last read or confirmed
	at       time.Time     // when
	fetching chan struct{} // closed when the epoch read under way ends; nil when none is
}

var (
	_ runtime.Store     = (*Store)(nil)
	_ runtime.PageStore = (*Store)(nil)
)

// New returns a Store on client with opts (nil for the defaults), after
// checking the server's configuration with CONFIG GET (unless
// [Options.SkipConfigCheck]): maxmemory-policy must be noeviction, and
// appendonly and save are read for [Store.Persistence]; then every
// bucket's epoch is read (with INFO replication inside the script unless
// [FenceOff]). The client stays the caller's: [Store.Close]
// does not close it. The Redis server must be 6.2 or newer.
//
// Errors: an evicting maxmemory-policy (the message gives the fix:
// maxmemory-policy noeviction); CONFIG refused by the server (renamed or
// denied by an ACL, as on managed Redis: the message names
// Options.SkipConfigCheck); INFO refused inside the store's scripts (the
// message names Options.Fence and MCPGEN_REDIS_FENCE); Redis unreachable
// within [Options.Timeout] (the message names the addresses tried).
func New(ctx context.Context, client redis.UniversalClient, opts *Options) (*Store, error) {
	s := &Store{client: client, prefix: DefaultPrefix, timeout: DefaultTimeout, cacheFor: DefaultEpochCache}
	var cluster bool
	fence := FenceAuto
	switch c := client.(type) {
	case *redis.Client:
		s.inline = c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		s.inline, cluster = c.Options().ContextTimeoutEnabled, true
	}
	var skip bool
	if opts != nil {
		if opts.Prefix != "" {
			s.prefix = opts.Prefix
		}
		if opts.Timeout > 0 {
			s.timeout = opts.Timeout
		}
		if opts.EpochCache != 0 {
			s.cacheFor = opts.EpochCache
		}
		skip = opts.SkipConfigCheck
		fence = opts.Fence
	}
	for b, tag := range bucketTags() {
		s.base[b] = s.prefix + "{" + tag + "}:"
	}
	if !skip {
		if err := s.checkConfig(ctx); err != nil {
			return nil, err
		}
	}
	switch {
	case fence == FenceOn || fence == FenceAuto && cluster:
		s.fence = "1"
	case fence == FenceOff:
		s.fence = "0"
	default:
		s.fence = "a"
	}
	// Read the epochs now, so that first calls find them cached (and a
	// Redis unreachable later does not leave the instance without them).
	if err := s.readEpochs(ctx); err != nil {
		var rerr redis.Error
		if msg := err.Error(); s.fence != "0" && errors.As(err, &rerr) &&
			(strings.Contains(msg, "NOPERM") || strings.Contains(msg, "can't run this command") || strings.Contains(strings.ToLower(msg), "info")) {
			return nil, fmt.Errorf("redisstore: the server refused a command of the store's epoch script (%w): the script reads INFO replication to fence each epoch by node; allow INFO to this user (ACL +info), or, only for a server no replica can ever take over from, set redisstore.Options.Fence to FenceOff (%s=off for FromEnv)", err, EnvFence)
		}
		return nil, fmt.Errorf("redisstore: cannot read the store's epochs%s: %w", s.where(), err)
	}
	return s, nil
}

// where names the addresses the client dials, for errors: " at <addr>" for
// one server, " on the cluster's seed nodes <a>, <b>" for a cluster, ""
// for a Sentinel client (its sentinels are not in its options; [FromEnv]
// names them).
func (s *Store) where() string {
	switch c := s.client.(type) {
	case *redis.ClusterClient:
		return " on the cluster's seed nodes " + strings.Join(c.Options().Addrs, ", ")
	case *redis.Client:
		if a := c.Options().Addr; a != "FailoverClient" {
			return " at " + a
		}
	}
	return ""
}

// Fence returns the fencing in effect: [FenceOn], [FenceOff], or
// [FenceAuto] on one address (each operation decides from the node's state).
func (s *Store) Fence() Fence {
	switch s.fence {
	case "1":
		return FenceOn
	case "0":
		return FenceOff
	}
	return FenceAuto
}

// readEpochs reads every bucket's epoch in one pipeline (one per master on
// a cluster), creating the missing ones.
func (s *Store) readEpochs(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var cmds [Buckets]*redis.Cmd
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for b := range cmds {
			cmds[b] = epochScript.Eval(ctx, p, []string{s.base[b] + "epoch"}, newEpoch(), s.fence)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis epoch %sepoch: %w", s.base[0], err)
	}
	for b, c := range cmds {
		e, err := c.Text()
		if err != nil {
			return fmt.Errorf("redis epoch %sepoch: %w", s.base[b], err)
		}
		s.setEpoch(b, e)
	}
	return nil
}

// Persistence is what [New] read of the server's persistence settings
// (Redis docs, "Redis persistence"). With several servers (a cluster) it
// holds the weakest.
type Persistence struct {
	// Checked is false when [Options.SkipConfigCheck] skipped the check:
	// nothing is known.
	Checked bool
	// AppendOnly is appendonly yes: every write is logged (AOF), and a
	// restart keeps the epoch and every record, so replays get their
	// recorded results.
	AppendOnly bool
	// Save is the RDB snapshot setting ("3600 1 300 100 60 10000"); "" when
	// snapshots are off.
	Save string
}

// Warning says in one sentence what a restart of the server would cost at
// most once, or "" when appendonly is on or nothing was checked.
func (p Persistence) Warning() string {
	switch {
	case !p.Checked || p.AppendOnly:
		return ""
	case p.Save != "":
		return "Redis persists by RDB snapshots only (save " + p.Save + ", appendonly no): a restart loses the flows recorded since the last snapshot but keeps the store's epoch, so replays of those flows would run their branch again; set appendonly yes (examples/loadbalanced/redis.conf)"
	}
	return "Redis has no persistence (appendonly no, save \"\"): a restart loses every record; flows begun before it are refused (\"start the call again\") rather than run twice; set appendonly yes (examples/loadbalanced/redis.conf) to keep them"
}

// Persistence returns what [New] read of the server's persistence settings.
func (s *Store) Persistence() Persistence { return s.persist }

// checkConfig reads maxmemory-policy, appendonly and save on every server
// (every master of a cluster).
func (s *Store) checkConfig(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	p := Persistence{Checked: true, AppendOnly: true}
	first := true
	check := func(ctx context.Context, c redis.Cmdable) error {
		got := map[string]string{}
		for _, name := range []string{"maxmemory-policy", "appendonly", "save"} {
			m, err := c.ConfigGet(ctx, name).Result()
			if err != nil {
				var rerr redis.Error
				if errors.As(err, &rerr) {
					return fmt.Errorf("redisstore: CONFIG GET %s was refused (%w): a managed Redis may not allow CONFIG; make sure the server runs maxmemory-policy noeviction, then set redisstore.Options.SkipConfigCheck (%s=1 for FromEnv)", name, err, EnvSkipConfigCheck)
				}
				return fmt.Errorf("redisstore: cannot reach Redis%s to check its configuration (CONFIG GET %s): %w", s.where(), name, err)
			}
			got[name] = m[name]
		}
		if pol := got["maxmemory-policy"]; pol != "noeviction" {
			return fmt.Errorf("redisstore: Redis runs maxmemory-policy %q, which may evict a flow's record, and a replay of that flow would run its branch again: set maxmemory-policy noeviction (in redis.conf, or CONFIG SET maxmemory-policy noeviction; see examples/loadbalanced/redis.conf)", pol)
		}
		p.AppendOnly = p.AppendOnly && got["appendonly"] == "yes"
		if first || got["save"] == "" {
			p.Save = got["save"]
		}
		first = false
		return nil
	}
	var err error
	if c, ok := s.client.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		err = c.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
			mu.Lock()
			defer mu.Unlock()
			return check(ctx, c)
		})
	} else {
		err = check(ctx, s.client)
	}
	var rerr redis.Error
	if err != nil && !strings.HasPrefix(err.Error(), "redisstore:") && !errors.As(err, &rerr) {
		// The cluster client failed before any CONFIG GET: no node answered.
		return fmt.Errorf("redisstore: cannot reach Redis%s to check its configuration: %w", s.where(), err)
	}
	if err != nil {
		return err
	}
	s.persist = p
	return nil
}

// Close closes the Redis client when [FromEnv] made it; a client handed to
// [New] is left open.
func (s *Store) Close() error {
	if s.owned {
		return s.client.Close()
	}
	return nil
}

// Client returns the Redis client the store uses.
func (s *Store) Client() redis.UniversalClient { return s.client }

// Key returns the Redis key of a flow id: the prefix, its bucket's hash
// tag and the id, e.g. mcpgen:flow:{17.301}:Yx3….
func (s *Store) Key(flow string) string { return s.base[bucketOf(flow)] + flow }

// EpochKey returns the Redis key of the epoch of flow's bucket: the prefix,
// the bucket's hash tag and "epoch", e.g. mcpgen:flow:{17.301}:epoch.
func (s *Store) EpochKey(flow string) string { return s.base[bucketOf(flow)] + "epoch" }
