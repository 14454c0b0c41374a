package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

const (
	claimTag  = "claim:"
	recordTag = "record:"
)

// newEpoch returns a fresh epoch: 16 random bytes, base64url (22
// characters). Every script that may have to recreate a missing epoch key is
// handed one.
func newEpoch() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// currentEpoch holds the Lua functions the epoch, claim, renew and record
// scripts share. epoch returns the epoch of the bucket whose epoch key is
// key, setting it to fresh when it is missing; fenced(e, fence) returns the
// epoch value e followed by "." and the first 16 hex digits of this node's
// replication ID (see the package doc, "Failover") when fence is "1", or
// when fence is "a" (FenceAuto on one address) unless the node is alone by
// INFO replication at this moment: role:master, connected_slaves:0,
// repl_backlog_active:0 (no replica within repl-backlog-ttl, 1 h by
// default: a master keeps its backlog that long after its last replica
// left, so a replica whose link broke still counts) and master_replid2 all
// zeros (never promoted since it started). Unless fence is "0", it fails
// with READONLY on a replica, which holds its master's ID (a client that
// reaches a replica while a failover is under way: Redis runs a script
// that only reads there). held(v, claim, key, fence) reports whether v,
// the value of a flow's key, is the claim claim (claimValue) taken under
// the epoch the bucket (epoch key key) has on this node now: the claim
// names its epoch, so a claim that came to another node (a replica
// promoted since) or to the same node after its fencing changed is not
// held there, and nothing is renewed or recorded on it.
const currentEpoch = `
local function fenced(e, fence)
  if fence ~= '0' then
    local info = redis.call('INFO', 'replication')
    if not string.find(info, 'role:master', 1, true) then
      error({err = 'READONLY mcpgen: a flow epoch is read on a master only (this replica shares its master\'s replication ID)'})
    end
    if fence == '1' or string.match(info, 'connected_slaves:(%d+)') ~= '0' or
        string.match(info, 'repl_backlog_active:(%d+)') ~= '0' or
        string.match(info, 'master_replid2:(%x+)') ~= '0000000000000000000000000000000000000000' then
      e = e .. '.' .. string.sub(string.match(info, 'master_replid:(%x+)'), 1, 16)
    end
  end
  return e
end
local function epoch(key, fresh, fence)
  local e = redis.call('GET', key)
  if not e then
    redis.call('SET', key, fresh)
    e = fresh
  end
  return fenced(e, fence)
end
local function held(v, claim, key, fence)
  if (not v) or string.sub(v, 1, #claim + 1) ~= claim .. ' ' then
    return false
  end
  local e = redis.call('GET', key)
  return e ~= false and e ~= nil and string.sub(v, #claim + 2) == fenced(e, fence)
end
`

// epochScript returns the epoch of the bucket whose epoch key is KEYS[1]
// (currentEpoch, ARGV[1] the fresh value, ARGV[2] the fence).
var epochScript = redis.NewScript(currentEpoch + `return epoch(KEYS[1], ARGV[1], ARGV[2])`)

// claimScript claims the flow KEYS[1] for "claim:<token>" (ARGV[1]) for
// ARGV[3] milliseconds when its bucket's epoch (KEYS[2], fence ARGV[5]) is
// ARGV[2] (recreating a missing epoch key as ARGV[4]); the claim's value
// names that epoch (claimValue). It returns {0, epoch} when the epoch
// differs, {1} when the claim is the caller's, {2, value} when the flow
// holds a record, {3} when it holds another claim (a claim of an earlier
// version of mcpgen, "claim:<token>" alone, is another's).
var claimScript = redis.NewScript(currentEpoch + `
local e = epoch(KEYS[2], ARGV[4], ARGV[5])
if e ~= ARGV[2] then
  return {0, e}
end
local v = redis.call('GET', KEYS[1])
local mine = ARGV[1] .. ' ' .. e
if (not v) or v == mine then
  redis.call('SET', KEYS[1], mine, 'PX', ARGV[3])
  return {1}
end
if string.sub(v, 1, 7) == 'record:' then
  return {2, v}
end
return {3}`)

// renewScript extends the caller's claim (ARGV[1]) on KEYS[1] to ARGV[2]
// milliseconds; 1 when it did, 0 when the claim is not the caller's or
// was taken under another epoch than the bucket's (KEYS[2], fence ARGV[3])
// on this node now (see held).
var renewScript = redis.NewScript(currentEpoch + `
if held(redis.call('GET', KEYS[1]), ARGV[1], KEYS[2], ARGV[3]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`)

// recordScript replaces the caller's claim (ARGV[1]) by the record
// (ARGV[2]), with the flow's expiry (ARGV[3], Unix milliseconds); 1 when it
// did or the record is already there, 0 when the claim is not the caller's
// or was taken under another epoch than the bucket's (KEYS[2], fence
// ARGV[4]) on this node now (see held): a record is written only where the
// flow's claim was, never on a replica promoted since, whose epoch refuses
// the flow's retries anyway.
var recordScript = redis.NewScript(currentEpoch + `
local v = redis.call('GET', KEYS[1])
if v == ARGV[2] then
  return 1
end
if held(v, ARGV[1], KEYS[2], ARGV[4]) then
  redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
  return 1
end
return 0`)

// releaseScript deletes the caller's claim (ARGV[1], whatever epoch it
// names) and nothing else.
var releaseScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then
  return redis.call('DEL', KEYS[1])
end
return 0`)

// setEpoch caches epoch as bucket b's, read or confirmed now.
func (s *Store) setEpoch(b int, epoch string) {
	be := &s.epochs[b]
	be.mu.Lock()
	be.epoch, be.at = epoch, time.Now()
	be.mu.Unlock()
}

// fresh reports whether an epoch read at is still to be used.
func (s *Store) fresh(at time.Time) bool {
	return time.Since(at) < s.cacheFor && at.UnixNano() > s.staleAt.Load()
}

// Epoch implements [runtime.Store.Epoch]: the epoch of flow's bucket, the
// value of <prefix>{<tag>}:epoch (created, 22 random base64url characters,
// when missing) followed, when the store is fenced ([Options.Fence]), by
// "." and 16 hex digits of the serving node's replication ID, in one
// script; a value read or confirmed less than [Options.EpochCache] ago is
// returned without asking Redis, and concurrent callers share one read.
// When Redis fails and the last value read or confirmed is unfenced (no
// dot), that value is returned, however old, instead ([New] reads them
// all): a first call still asks while Redis is briefly unreachable, and if
// Redis lost its data meanwhile the flow's retries are refused. A fenced
// value is not: the error is returned, Redis failing is then most often a failover under way, after which
// the old value is certainly stale, so the first call is refused with
// "retry later" (-32603) and its retry seals the new master's epoch,
// instead of asking questions whose answers would be refused. Errors:
// Redis failed (or did not answer within the timeout) and the store is
// fenced or never read the bucket's epoch.
func (s *Store) Epoch(ctx context.Context, flow string) (string, error) {
	b := bucketOf(flow)
	be := &s.epochs[b]
	for {
		be.mu.Lock()
		e, fresh := be.epoch, be.epoch != "" && s.fresh(be.at)
		wait := be.fetching
		if fresh || wait == nil {
			if !fresh {
				be.fetching = make(chan struct{})
			}
			be.mu.Unlock()
			if fresh {
				return e, nil
			}
			break
		}
		be.mu.Unlock()
		// Another caller is reading it: share its answer.
		select {
		case <-wait:
		case <-ctx.Done():
			if e != "" {
				return e, nil
			}
			return "", fmt.Errorf("redis epoch %sepoch: %w", s.base[b], ctx.Err())
		}
		be.mu.Lock()
		e, read := be.epoch, be.at
		be.mu.Unlock()
		if e != "" && s.fresh(read) {
			return e, nil
		}
		// That read failed: read it ourselves.
	}
	read, err := within(s, ctx, func(ctx context.Context) (string, error) {
		return epochScript.Run(ctx, s.client, []string{s.base[b] + "epoch"}, newEpoch(), s.fence).Text()
	})
	be.mu.Lock()
	defer be.mu.Unlock()
	close(be.fetching)
	be.fetching = nil
	if err != nil {
		if be.epoch != "" && !strings.Contains(be.epoch, ".") {
			return be.epoch, nil
		}
		return "", fmt.Errorf("redis epoch %sepoch: %w", s.base[b], err)
	}
	be.epoch, be.at = read, time.Now()
	return read, nil
}

// Claim implements [runtime.Store.Claim] with one Lua script: the check of
// the epoch of flow's bucket (recreating a missing epoch key with a new
// value; with the node's replication ID when fenced) and SET key
// claim:<token> PX <lease>, or the record, or [runtime.ErrClaimed]. It
// returns an error wrapping [runtime.ErrEpoch] when the epoch is not
// epoch, or the Redis error.
func (s *Store) Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error) {
	b := bucketOf(flow)
	key, epochKey := s.base[b]+flow, s.base[b]+"epoch"
	res, err := within(s, ctx, func(ctx context.Context) ([]any, error) {
		return claimScript.Run(ctx, s.client, []string{key, epochKey},
			claimTag+token, epoch, max(1, lease.Milliseconds()), newEpoch(), s.fence).Slice()
	})
	if err != nil {
		return nil, fmt.Errorf("redis claim %s: %w", key, err)
	}
	code, _ := res[0].(int64)
	switch code {
	case 0:
		// Redis lost its memory or another node serves the bucket: every
		// bucket's epoch may have changed with it, so each is read again
		// before a first call seals it.
		current, _ := res[1].(string)
		s.staleEpoch()
		s.setEpoch(b, current)
		return nil, fmt.Errorf("%w (the epoch of %s is %q, the flow began under %q: the server restarted without persistence or was flushed; or, with a node's replication ID after the dot, another node serves the bucket since: a failover, a restart or a slot migrated; or one of the two has the ID and the other not: the server, alone when the flow began, has had a replica since, or the reverse)", runtime.ErrEpoch, epochKey, current, epoch)
	case 1:
		s.setEpoch(b, epoch)
		return nil, nil
	case 2:
		v, _ := res[1].(string)
		s.setEpoch(b, epoch)
		return []byte(v[len(recordTag):]), nil
	case 3:
		return nil, runtime.ErrClaimed
	}
	return nil, fmt.Errorf("redis claim %s: unexpected answer %v", key, res)
}

// Renew implements [runtime.Store.Renew] with one Lua script: PEXPIRE key
// <lease> only while it holds claim:<token> taken under the epoch its
// bucket has on the serving node now (with the node's replication ID when
// fenced). It returns [runtime.ErrClaimLost] otherwise.
func (s *Store) Renew(ctx context.Context, flow, token string, lease time.Duration) error {
	b := bucketOf(flow)
	_, err := within(s, ctx, func(ctx context.Context) (struct{}, error) {
		n, err := renewScript.Run(ctx, s.client, []string{s.base[b] + flow, s.base[b] + "epoch"},
			claimTag+token, max(1, lease.Milliseconds()), s.fence).Int()
		if err != nil {
			return struct{}{}, fmt.Errorf("redis renew %s: %w", s.Key(flow), err)
		}
		if n == 0 {
			return struct{}{}, runtime.ErrClaimLost
		}
		return struct{}{}, nil
	})
	return err
}

// Record implements [runtime.Store.Record] with one Lua script. It returns
// [runtime.ErrClaimLost] when the key holds neither this very record nor
// claim:<token> taken under the epoch its bucket has on the serving node
// now (with the node's replication ID when fenced): a record is never
// written on a node that took over since the claim (a replica promoted).
func (s *Store) Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error {
	b := bucketOf(flow)
	_, err := within(s, ctx, func(ctx context.Context) (struct{}, error) {
		n, err := recordScript.Run(ctx, s.client, []string{s.base[b] + flow, s.base[b] + "epoch"},
			claimTag+token, append([]byte(recordTag), record...), expires.UnixMilli(), s.fence).Int()
		if err != nil {
			return struct{}{}, fmt.Errorf("redis record %s: %w", s.Key(flow), err)
		}
		if n == 0 {
			return struct{}{}, runtime.ErrClaimLost
		}
		return struct{}{}, nil
	})
	return err
}

// Release implements [runtime.Store.Release] with one Lua
// compare-and-delete: only claim:<token> is deleted.
func (s *Store) Release(ctx context.Context, flow, token string) error {
	_, err := within(s, ctx, func(ctx context.Context) (struct{}, error) {
		if err := releaseScript.Run(ctx, s.client, []string{s.Key(flow)}, claimTag+token).Err(); err != nil {
			return struct{}{}, fmt.Errorf("redis release %s: %w", s.Key(flow), err)
		}
		return struct{}{}, nil
	})
	return err
}

// busyLimit bounds, in multiples of the store's timeout, how long within
// keeps retrying an operation that timed out while Redis was answering this
// store's other operations.
const busyLimit = 3

// within runs op under the store's timeout and returns its value and error. go-redis
// bounds socket reads by its ReadTimeout, not by the context, unless the
// client sets ContextTimeoutEnabled (FromEnv's does): with a *redis.Client or
// *redis.ClusterClient that sets it op runs inline; otherwise it runs in a
// goroutine and within returns an error wrapping context.DeadlineExceeded
// once the timeout passes even when op has not, so a stalled server is cut
// off here either way. An op cut off finishes in the background; a claim
// it takes late lapses at the end of its lease (no branch runs meanwhile).
//
// The timeout counts the wait for a pooled connection and for this process
// to be scheduled, which a busy instance (thousands of requests at once on
// two CPUs) can stretch past it while Redis answers in microseconds. So an
// op that timed out is sent again (every op is safe to repeat) while Redis
// answered another of this store's ops within the last timeout, up to
// busyLimit timeouts in all: a Redis that answers no one still fails an op
// within one to two timeouts.
func within[T any](s *Store, ctx context.Context, op func(ctx context.Context) (T, error)) (T, error) {
	for n := 1; ; n++ {
		v, err := attempt(s, ctx, op)
		if err == nil || errors.Is(err, runtime.ErrClaimed) || errors.Is(err, runtime.ErrClaimLost) {
			s.answered.Store(time.Now().UnixNano())
			return v, err
		}
		if c, ok := s.client.(*redis.ClusterClient); ok {
			// A master may have failed and a replica taken its slots:
			// go-redis learns that only from a MOVED reply or its
			// periodic reload (every minute), so reload now.
			c.ReloadState(ctx)
		}
		if !timedOut(err) || ctx.Err() != nil || n >= busyLimit ||
			time.Since(time.Unix(0, s.answered.Load())) >= s.timeout {
			s.staleEpoch()
			return v, err
		}
	}
}

// staleEpoch makes the next Epoch of every bucket read Redis again (the
// values stay as the fallback): Redis failed, and may come back without its
// data or with another node serving.
func (s *Store) staleEpoch() {
	s.staleAt.Store(time.Now().UnixNano())
}

// attempt runs op once under the store's timeout (see within). Each
// attempt returns its own value: one cut off and finishing in the
// background writes nothing the caller reads.
func attempt[T any](s *Store, ctx context.Context, op func(ctx context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if s.inline {
		return op(ctx)
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := op(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("redis: no answer within %s: %w", s.timeout, ctx.Err())
	}
}

// timedOut reports whether err is a deadline that passed: the context's, or
// the socket's.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
