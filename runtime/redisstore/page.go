package redisstore

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// PageKey returns the Redis key of a URL-mode page id: the prefix, "page:"
// and the id in a hash tag, e.g. mcpgen:flow:page:{Yx3…}. A page's
// operations read and write that one key, so on a Redis Cluster a page stays
// in one slot: the id's slot, or the prefix's when the prefix holds a hash
// tag (Redis Cluster specification, "Hash tags": the first tag counts). It
// cannot collide with a flow's key or the epoch's (a flow id is base64url,
// without ":" or "{").
func (s *Store) PageKey(id string) string { return s.prefix + "page:{" + id + "}" }

// pageRef names id's key in an error: the id cut to its first 6
// characters, as the page handler logs it, so that store errors put in logs
// never spell a whole link.
func (s *Store) pageRef(id string) string {
	if len(id) > 6 {
		id = id[:6] + "…"
	}
	return s.PageKey(id)
}

// putPageScript creates the page KEYS[1] with record ARGV[1], expiring at
// ARGV[2] (Unix milliseconds); 1 when it did or the page already holds
// exactly that record (a resent put: records are sealed with a random
// nonce, so no other caller has the same), 0 when the key is taken.
var putPageScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'record') == ARGV[1] then
    return 1
  end
  return 0
end
redis.call('HSET', KEYS[1], 'record', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`)

// completePageScript sets the answer ARGV[1] of the page KEYS[1], keeping
// its expiry: 1 when it did or the page already holds exactly that answer
// (a resent completion: answers are sealed with a random nonce), 0 when the
// page is missing, 2 when it holds another answer.
var completePageScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local a = redis.call('HGET', KEYS[1], 'answer')
if a then
  if a == ARGV[1] then
    return 1
  end
  return 2
end
redis.call('HSET', KEYS[1], 'answer', ARGV[1])
return 1`)

// PutPage implements [runtime.PageStore.PutPage] with one Lua script: when the
// page's key ([Store.PageKey]) is free, HSET key record <record> and
// PEXPIREAT key <expires>. It returns [runtime.ErrPageExists] when the key
// holds another page (a call resent after a timeout finds its own record
// and succeeds), or the Redis error. An expires already past stores nothing
// that can be read.
func (s *Store) PutPage(ctx context.Context, id string, record []byte, expires time.Time) error {
	n, err := within(s, ctx, func(ctx context.Context) (int, error) {
		return putPageScript.Run(ctx, s.client, []string{s.PageKey(id)}, record, expires.UnixMilli()).Int()
	})
	switch {
	case err != nil:
		return fmt.Errorf("redis put page %s: %w", s.pageRef(id), err)
	case n == 0:
		return runtime.ErrPageExists
	}
	return nil
}

// Page implements [runtime.PageStore.Page] with one HMGET of the page's key
// ([Store.PageKey]): its record, and its answer or nil. It returns
// [runtime.ErrNoPage] when the key is missing (never put, expired,
// deleted), or the Redis error.
func (s *Store) Page(ctx context.Context, id string) (record, answer []byte, err error) {
	vals, err := within(s, ctx, func(ctx context.Context) ([]any, error) {
		return s.client.HMGet(ctx, s.PageKey(id), "record", "answer").Result()
	})
	if err != nil {
		return nil, nil, fmt.Errorf("redis page %s: %w", s.pageRef(id), err)
	}
	rec, ok := vals[0].(string)
	if !ok {
		return nil, nil, runtime.ErrNoPage
	}
	if a, ok := vals[1].(string); ok {
		answer = []byte(a)
	}
	return []byte(rec), answer, nil
}

// CompletePage implements [runtime.PageStore.CompletePage] with one Lua script:
// HSET key answer <answer> when the page's key ([Store.PageKey]) exists and
// has no answer; its expiry is kept. It returns [runtime.ErrNoPage] when
// the key is missing, [runtime.ErrPageCompleted] when the page holds
// another answer (a call resent after a timeout finds its own answer and
// succeeds), or the Redis error. Of concurrent completions, exactly one
// succeeds.
func (s *Store) CompletePage(ctx context.Context, id string, answer []byte) error {
	n, err := within(s, ctx, func(ctx context.Context) (int, error) {
		return completePageScript.Run(ctx, s.client, []string{s.PageKey(id)}, answer).Int()
	})
	switch {
	case err != nil:
		return fmt.Errorf("redis complete page %s: %w", s.pageRef(id), err)
	case n == 0:
		return runtime.ErrNoPage
	case n == 2:
		return runtime.ErrPageCompleted
	}
	return nil
}

// DeletePage implements [runtime.PageStore.DeletePage] with one DEL of the
// page's key ([Store.PageKey]). It returns the Redis error, nothing when the
// key is missing.
func (s *Store) DeletePage(ctx context.Context, id string) error {
	_, err := within(s, ctx, func(ctx context.Context) (int64, error) {
		return s.client.Del(ctx, s.PageKey(id)).Result()
	})
	if err != nil {
		return fmt.Errorf("redis delete page %s: %w", s.pageRef(id), err)
	}
	return nil
}
