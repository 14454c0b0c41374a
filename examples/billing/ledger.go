package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Charge is one payment in the ledger.
type Charge struct {
	ID      string  `json:"id"`
	Invoice string  `json:"invoice"`
	Account string  `json:"account"`
	Amount  float64 `json:"amount"`
}

// Ledger records the charges of each user. Add is idempotent by charge id:
// adding an id that is already there changes nothing and returns the charge
// recorded first.
type Ledger interface {
	Add(ctx context.Context, user string, c Charge) (Charge, error)
	List(ctx context.Context, user string) ([]Charge, error)
}

// chargeID returns the id of the charge a branch makes, derived from the
// flow id (runtime.FlowID, random and never empty in a branch): a branch run
// twice for one flow (an instance died mid-branch, and after its claim's
// lease the next retry ran it again) names the same charge and the ledger
// keeps one, while two calls, asked or not, are two flows and name two
// charges.
func chargeID(flowID string) string {
	sum := sha256.Sum256([]byte("billing charge\x00" + flowID))
	return "ch_" + hex.EncodeToString(sum[:8])
}

// memoryLedger is the ledger of one process.
type memoryLedger struct {
	mu     sync.Mutex
	byID   map[string]Charge
	byUser map[string][]string
}

func newMemoryLedger() *memoryLedger {
	return &memoryLedger{byID: map[string]Charge{}, byUser: map[string][]string{}}
}

func (l *memoryLedger) Add(_ context.Context, user string, c Charge) (Charge, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if old, ok := l.byID[c.ID]; ok {
		return old, nil
	}
	l.byID[c.ID] = c
	l.byUser[user] = append(l.byUser[user], c.ID)
	return c, nil
}

func (l *memoryLedger) List(_ context.Context, user string) ([]Charge, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Charge, 0, len(l.byUser[user]))
	for _, id := range l.byUser[user] {
		out = append(out, l.byID[id])
	}
	return out, nil
}

// redisLedger keeps the ledger in Redis, shared by every instance: each
// charge under prefix+"charge:"+id, each user's charge ids in order in the
// list prefix+"user:"+user.
type redisLedger struct {
	c      redis.UniversalClient
	prefix string
}

// addScript stores a charge only if its id is new, and then appends the id
// to the user's list, atomically; it returns the charge stored under the id.
var addScript = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  return ARGV[1]
end
return redis.call('GET', KEYS[1])
`)

func newRedisLedger(c redis.UniversalClient) *redisLedger {
	return &redisLedger{c: c, prefix: "mcpgen:billing:"}
}

func (l *redisLedger) Add(ctx context.Context, user string, c Charge) (Charge, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return Charge{}, err
	}
	got, err := addScript.Run(ctx, l.c, []string{l.prefix + "charge:" + c.ID, l.prefix + "user:" + user}, b, c.ID).Text()
	if err != nil {
		return Charge{}, fmt.Errorf("billing ledger: %w", err)
	}
	var stored Charge
	if err := json.Unmarshal([]byte(got), &stored); err != nil {
		return Charge{}, fmt.Errorf("billing ledger: charge %s: %w", c.ID, err)
	}
	return stored, nil
}

func (l *redisLedger) List(ctx context.Context, user string) ([]Charge, error) {
	ids, err := l.c.LRange(ctx, l.prefix+"user:"+user, 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("billing ledger: %w", err)
	}
	out := make([]Charge, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = l.prefix + "charge:" + id
	}
	vals, err := l.c.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, fmt.Errorf("billing ledger: %w", err)
	}
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("billing ledger: charge %s is missing", ids[i])
		}
		var c Charge
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			return nil, fmt.Errorf("billing ledger: charge %s: %w", ids[i], err)
		}
		out = append(out, c)
	}
	return out, nil
}
