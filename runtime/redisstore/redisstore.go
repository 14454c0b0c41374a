// Package redisstore is a [runtime.Store] on Redis, for several server
// instances that share a key ring behind a load balancer: any of them may
// receive a replay of any flow's retry, so all of them must see the same
// claims and records, or a replayed requestState runs its branch again
// (MCP 2026-07-28, basic/patterns/mrtr, requestState security: the state is
// echoed by the client and may be sent more than once).
//
// Each flow is one Redis string under Options.Prefix + the flow id
// ("mcpgen:flow:" + 22 base64url characters), holding either
// "claim:<token>" (a request is running the flow's retry) or
// "record:<the final response as JSON>", and expiring (PXAT) when the flow's
// requestState stops opening: its expiry, fixed in round 1 (default 10
// minutes), plus the clock skew allowed between instances. Every operation
// is atomic on the Redis server:
//
//   - Claim is one SET key claim:<token> NX PXAT <expires>; only when that
//     finds the key taken, one GET says whether it holds a record (returned)
//     or another request's claim ([runtime.ErrClaimed]);
//   - Record is one Lua script (EVALSHA, EVAL the first time) that replaces
//     claim:<token> with the record only while the claim is still the
//     caller's, PXAT the flow's expiry;
//   - Release is one Lua compare-and-delete of claim:<token>.
//
// So a request that completes a flow makes 2 Redis round trips (SET NX, then
// EVALSHA), a request that asks again makes 2 (SET NX, then the release), a
// replay of a completed flow makes 2 (SET NX, GET), and a first call makes
// none. Each operation has its own deadline ([Options.Timeout], default 2 s):
// a Redis that is down or stalled makes the retry fail closed (JSON-RPC
// -32603, no branch runs) instead of hanging.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// DefaultPrefix is the default of [Options.Prefix].
const DefaultPrefix = "mcpgen:flow:"

// DefaultTimeout is the default of [Options.Timeout].
const DefaultTimeout = 2 * time.Second

// EnvURL names the environment variable [FromEnv] reads: a Redis URL as
// redis.ParseURL takes it, e.g. redis://127.0.0.1:6379/0 or
// rediss://user:password@host:6380/2.
const EnvURL = "MCPGEN_REDIS_URL"

// Options configure a [Store]. The zero value is valid.
type Options struct {
	// Prefix is prepended to every flow id to make its key (default
	// [DefaultPrefix], "mcpgen:flow:"). Instances that must see each other's
	// flows use the same prefix on the same Redis database.
	Prefix string
	// Timeout bounds each Redis operation (default [DefaultTimeout], 2 s).
	// An operation that takes longer fails, and the engine refuses the retry
	// with JSON-RPC -32603, running no branch.
	Timeout time.Duration
}

// Store is a [runtime.Store] on a Redis server (or cluster: a flow is one
// key). It is safe for concurrent use, within and across processes.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	timeout time.Duration
	owned   bool // Close closes client (FromEnv made it)
	inline  bool // the client honours context deadlines on the socket: no watchdog goroutine
}

var _ runtime.Store = (*Store)(nil)

// New returns a Store on client with opts (nil for the defaults). The
// client stays the caller's: [Store.Close] does not close it. The Redis
// server must be 6.2 or newer (SET … PXAT).
func New(client redis.UniversalClient, opts *Options) *Store {
	s := &Store{client: client, prefix: DefaultPrefix, timeout: DefaultTimeout}
	switch c := client.(type) {
	case *redis.Client:
		s.inline = c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		s.inline = c.Options().ContextTimeoutEnabled
	}
	if opts != nil {
		if opts.Prefix != "" {
			s.prefix = opts.Prefix
		}
		if opts.Timeout > 0 {
			s.timeout = opts.Timeout
		}
	}
	return s
}

// FromEnv returns a Store on the Redis at $MCPGEN_REDIS_URL (see [EnvURL]),
// with the default options, and true. When the variable is unset or empty
// it returns nil, false, nil. The error says why the URL does not parse. It
// does not connect: the first retry that needs Redis does (and fails closed
// if Redis is unreachable). [Store.Close] closes the client it made.
func FromEnv() (*Store, bool, error) {
	raw := strings.TrimSpace(os.Getenv(EnvURL))
	if raw == "" {
		return nil, false, nil
	}
	o, err := redis.ParseURL(raw)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", EnvURL, err)
	}
	o.ContextTimeoutEnabled = true
	s := New(redis.NewClient(o), nil)
	s.owned = true
	return s, true, nil
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

// Key returns the Redis key of a flow id: the prefix followed by the id.
func (s *Store) Key(flow string) string { return s.prefix + flow }

const (
	claimTag  = "claim:"
	recordTag = "record:"
)

// recordScript replaces the caller's claim by the record, with the flow's
// expiry (Unix milliseconds); 1 when it did, 0 when the claim is not the
// caller's.
var recordScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
  return 1
end
return 0`)

// releaseScript deletes the caller's claim and nothing else.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)

// Claim implements [runtime.Store.Claim]: SET key claim:<token> NX PXAT
// expires (Unix milliseconds); when the key exists, GET it. It returns the
// record, nil, or [runtime.ErrClaimed] (another request holds the claim, or
// the key vanished between the two commands), or the Redis error.
func (s *Store) Claim(ctx context.Context, flow, token string, expires time.Time) ([]byte, error) {
	key := s.Key(flow)
	var rec []byte // written by op; read only once op has returned
	err := s.within(ctx, func(ctx context.Context) error {
		err := s.client.Do(ctx, "SET", key, claimTag+token, "NX", "PXAT", expires.UnixMilli()).Err()
		if err == nil {
			return nil
		}
		if !errors.Is(err, redis.Nil) {
			return fmt.Errorf("redis SET NX %s: %w", key, err)
		}
		v, err := s.client.Get(ctx, key).Bytes()
		switch {
		case errors.Is(err, redis.Nil):
			return runtime.ErrClaimed // released or expired meanwhile: try again
		case err != nil:
			return fmt.Errorf("redis GET %s: %w", key, err)
		case len(v) > len(recordTag) && string(v[:len(recordTag)]) == recordTag:
			rec = v[len(recordTag):]
			return nil
		case strings.HasPrefix(string(v), claimTag):
			return runtime.ErrClaimed
		}
		return fmt.Errorf("redis key %s holds neither a claim nor a record", key)
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// Record implements [runtime.Store.Record] with one Lua script. It returns
// [runtime.ErrClaimLost] when the key no longer holds claim:<token>.
func (s *Store) Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error {
	return s.within(ctx, func(ctx context.Context) error {
		n, err := recordScript.Run(ctx, s.client, []string{s.Key(flow)},
			claimTag+token, append([]byte(recordTag), record...), expires.UnixMilli()).Int()
		if err != nil {
			return fmt.Errorf("redis record %s: %w", s.Key(flow), err)
		}
		if n == 0 {
			return runtime.ErrClaimLost
		}
		return nil
	})
}

// Release implements [runtime.Store.Release] with one Lua
// compare-and-delete: only claim:<token> is deleted.
func (s *Store) Release(ctx context.Context, flow, token string) error {
	return s.within(ctx, func(ctx context.Context) error {
		if err := releaseScript.Run(ctx, s.client, []string{s.Key(flow)}, claimTag+token).Err(); err != nil {
			return fmt.Errorf("redis release %s: %w", s.Key(flow), err)
		}
		return nil
	})
}

// within runs op under the store's timeout and returns its error. go-redis
// bounds socket reads by its ReadTimeout, not by the context, unless the
// client sets ContextTimeoutEnabled (FromEnv's does): with a *redis.Client or
// *redis.ClusterClient that sets it op runs inline; otherwise it runs in a
// goroutine and within returns an error wrapping context.DeadlineExceeded
// once the timeout passes even when op has not, so a stalled server is cut
// off here either way. An op cut off finishes in the background; a claim
// it takes late is never recorded and lapses at the flow's expiry (no branch
// runs meanwhile).
func (s *Store) within(ctx context.Context, op func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if s.inline {
		return op(ctx)
	}
	done := make(chan error, 1)
	go func() { done <- op(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("redis: no answer within %s: %w", s.timeout, ctx.Err())
	}
}
