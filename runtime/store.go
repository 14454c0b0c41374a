package runtime

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// A requestState is echoed by the client, so a client (or a proxy, or an
// attacker holding a copy) can send the same retry twice, to the same
// instance or to another one (MCP 2026-07-28, basic/patterns/mrtr,
// requestState security: a server must treat the state as replayable). The
// round engine therefore runs the retries of one flow at most once, in the
// way of an idempotency key: before a retry may run a branch it claims the
// flow id in a [Store]; a retry that completes records its response there;
// every later retry of the flow (the same state, another state of the same
// flow, other answers) receives that record and runs nothing. A retry that
// asks again releases the claim, so that the next round can run.

// Errors of the flow store ([Store], [Options.Store]).
var (
	// ErrStore wraps every failure of [Options.Store] that the engine
	// reports: the retry was refused with JSON-RPC -32603 and no branch ran
	// (fail closed). [Options.OnReject] receives an error that wraps both
	// ErrStore and the store's own error.
	ErrStore = errors.New("mcpgen: flow store failed")
	// ErrClaimed is what [Store.Claim] returns when another request holds
	// the claim on the flow and has recorded nothing yet: a concurrent
	// duplicate. The engine waits up to [Options.ClaimWait] for the record,
	// then refuses the retry with JSON-RPC -32603 ("retry later");
	// [Options.OnReject] receives an error wrapping ErrClaimed.
	ErrClaimed = errors.New("mcpgen: flow is being completed by another request")
	// ErrClaimLost is what [Store.Record] returns when the claim is no
	// longer the caller's (it expired, or the store lost it): nothing was
	// recorded.
	ErrClaimLost = errors.New("mcpgen: flow claim is no longer held")
)

// Store holds, for each flow id, either a claim (a request is running the
// flow's retry) or the record of the flow's final response, until the flow's
// lifetime ends. It is what makes a replayed requestState run no branch
// twice (MCP 2026-07-28, basic/patterns/mrtr, requestState security). One
// instance alone may use [MemoryStore] (the default); instances that share
// a key ring must share a Store too (runtime/redisstore), or a replay sent to
// another instance runs again.
//
// flow is the flow id ([FlowID]: base64url, 22 characters); token is a
// random string (base64url, 22 characters) the engine draws for each
// attempt; expires is when the flow's requestState stops opening anywhere
// (its expiry, fixed in round 1, plus [Options.ClockSkew]; by the wall
// clock), after which the entry may be dropped. Implementations must be safe for concurrent use and
// each method must be atomic with respect to the others, across every
// instance sharing the store.
type Store interface {
	// Claim takes the claim on flow for token until expires when the flow
	// has no entry, and then returns nil, nil. When the flow has a record it
	// returns the record (non-nil, never empty) and a nil error. When
	// another token holds the claim it returns nil, [ErrClaimed]. Any other
	// error means the store failed.
	Claim(ctx context.Context, flow, token string, expires time.Time) (record []byte, err error)
	// Record replaces token's claim on flow with record, kept until
	// expires. It returns [ErrClaimLost], recording nothing, when token no
	// longer holds the claim.
	Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error
	// Release drops token's claim on flow; it does nothing when token does
	// not hold the claim (a record is never dropped).
	Release(ctx context.Context, flow, token string) error
}

// defaultStore is the store of every Options without one: one process.
var defaultStore = NewMemoryStore()

// MemoryStore is a [Store] in this process's memory: right for one
// instance, wrong for several (a replay sent to another instance would run
// again). Entries are dropped once expired. The zero value is not usable;
// call [NewMemoryStore].
type MemoryStore struct {
	// MaxEntries bounds the flows held at once, claims and records (a few
	// hundred bytes each, most of it the recorded result); 0 means 1<<20,
	// more than an instance completing 1,500 flows a second keeps for the
	// default 10-minute lifetime. At the bound, once expired entries are
	// dropped, Claim of a new flow fails with an error wrapping [ErrStore]:
	// the request is refused with "retry later" (fails closed, as any store
	// failure) and no branch runs, where forgetting a record would let a
	// replay run it again. Set it before the store is first used.
	MaxEntries int

	mu      sync.Mutex
	entries map[string]memEntry
	sweepAt int // sweep expired entries when len(entries) reaches it

	// nextExpiry is the earliest expiry among the entries the last sweep
	// kept: no entry can be dropped before it.
	nextExpiry time.Time
}

type memEntry struct {
	token   string // the claim's token; "" once recorded
	record  []byte
	expires time.Time
}

// NewMemoryStore returns an empty in-memory store. Expiry is judged by
// time.Now.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{entries: map[string]memEntry{}, sweepAt: 1024}
}

// Claim implements [Store.Claim]. It fails with [ErrClaimed], or for a new
// flow at [MemoryStore.MaxEntries] with an error wrapping [ErrStore].
func (m *MemoryStore) Claim(_ context.Context, flow, token string, expires time.Time) ([]byte, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[flow]; ok && now.Before(e.expires) {
		if e.token == "" {
			return e.record, nil
		}
		return nil, ErrClaimed
	}
	limit := m.MaxEntries
	if limit <= 0 {
		limit = 1 << 20
	}
	// At the limit, sweep only once an entry can have expired since the
	// last sweep: a full store refuses new flows without scanning it again.
	if len(m.entries) >= min(m.sweepAt, limit) && (len(m.entries) < limit || !now.Before(m.nextExpiry)) {
		m.nextExpiry = time.Time{}
		for k, e := range m.entries {
			if !now.Before(e.expires) {
				delete(m.entries, k)
			} else if m.nextExpiry.IsZero() || e.expires.Before(m.nextExpiry) {
				m.nextExpiry = e.expires
			}
		}
		m.sweepAt = max(1024, 2*len(m.entries))
	}
	if len(m.entries) >= limit {
		return nil, fmt.Errorf("%w: the in-memory store holds its limit of %d flows (MemoryStore.MaxEntries); retry later", ErrStore, limit)
	}
	if !m.nextExpiry.IsZero() && expires.Before(m.nextExpiry) {
		m.nextExpiry = expires
	}
	m.entries[flow] = memEntry{token: token, expires: expires}
	return nil, nil
}

// Record implements [Store.Record].
func (m *MemoryStore) Record(_ context.Context, flow, token string, record []byte, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[flow]
	if !ok || e.token != token || token == "" || !time.Now().Before(e.expires) {
		return ErrClaimLost
	}
	m.entries[flow] = memEntry{record: record, expires: expires}
	return nil
}

// Release implements [Store.Release].
func (m *MemoryStore) Release(_ context.Context, flow, token string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[flow]; ok && e.token == token && token != "" {
		delete(m.entries, flow)
	}
	return nil
}

// Len returns how many entries (claims and records, expired ones not yet
// dropped included) the store holds.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// record is a flow's final response as a [Store] keeps it (JSON). A replayed
// Structured or Native arrives as json.RawMessage: adapters decode a Native
// one into their SDK's result type.
type record struct {
	Text       string          `json:"t,omitempty"`
	Structured json.RawMessage `json:"s,omitempty"`
	IsError    bool            `json:"e,omitempty"`
	Native     json.RawMessage `json:"n,omitempty"`
	Err        string          `json:"x,omitempty"` // the error a branch returned
	Failed     bool            `json:"f,omitempty"` // Err is set (even when empty)
}

func encodeRecord(resp *Response, err error) []byte {
	var rec record
	if err != nil {
		rec.Err, rec.Failed = err.Error(), true
	} else {
		res := resp.Result
		rec.Text, rec.IsError = res.Text, res.IsError
		var jerr error
		if res.Structured != nil {
			rec.Structured, jerr = json.Marshal(res.Structured)
		}
		if res.Native != nil && jerr == nil {
			rec.Native, jerr = json.Marshal(res.Native)
		}
		if jerr != nil {
			rec = record{Err: "mcpgen: the flow's result could not be recorded: " + jerr.Error(), Failed: true}
		}
	}
	b, _ := json.Marshal(&rec) // only strings and raw JSON: cannot fail
	return b
}

func decodeRecord(b []byte) (*Response, error) {
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%w: record does not decode: %w", ErrStore, err)
	}
	if rec.Failed {
		return nil, errors.New(rec.Err)
	}
	res := &Result{Text: rec.Text, IsError: rec.IsError}
	if rec.Structured != nil {
		res.Structured = rec.Structured
	}
	if rec.Native != nil {
		res.Native = rec.Native
	}
	return complete(res), nil
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// once runs run, the part of a request that may run a branch, at most once
// per flow across every instance sharing [Options.Store]. A first call (no
// state) just runs. A retry claims its flow id first: when the flow has a
// record, that is the answer and run does not run; when another request
// holds the claim, once waits up to [Options.ClaimWait] for its record and
// otherwise refuses with -32603. After run, the complete response of a
// branch (or the error it returned) is recorded until the flow's lifetime
// ends; an input-required response, a *protocol.Error, or a response no
// branch produced (r.ran unset) releases the claim. A store
// failure before run refuses the retry with -32603 and runs nothing
// (fail closed), reported to [Options.OnReject] wrapping [ErrStore].
func (r *round) once(ctx context.Context, run func(ctx context.Context) (*Response, error)) (resp *Response, err error) {
	defer func() { r.end(ctx, resp, err) }()
	if r.st == nil {
		return run(ctx)
	}
	store := r.o.Store
	flow := base64.RawURLEncoding.EncodeToString(r.st.FlowID)
	// The state stops opening at its expiry by Options.Now; the store judges
	// by the wall clock (Redis: the server's), so hand it the remaining
	// lifetime from now, plus the clock skew other instances may have.
	expires := time.Now().Add(time.Unix(r.st.Expires, 0).Sub(r.o.Now()) + r.o.ClockSkew)
	token := newToken()
	deadline := time.Now().Add(r.o.ClaimWait)
	pause := 2 * time.Millisecond
	for {
		rec, err := store.Claim(ctx, flow, token, expires)
		if err == nil && rec != nil {
			resp, derr := decodeRecord(rec)
			if errors.Is(derr, ErrStore) {
				return nil, r.storeFailed(ctx, derr)
			}
			r.replayed = true
			r.end(ctx, resp, derr)
			return resp, derr
		}
		if err == nil {
			break
		}
		if !errors.Is(err, ErrClaimed) {
			return nil, r.storeFailed(ctx, fmt.Errorf("%w: claim: %w", ErrStore, err))
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, r.busy(ctx, err)
		}
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, r.busy(ctx, err)
		case <-t.C:
		}
		pause = min(2*pause, 50*time.Millisecond)
	}

	resp, err = run(ctx)
	var pe *protocol.Error
	switch {
	case !r.ran || errors.As(err, &pe) || (err == nil && (resp == nil || resp.Result == nil)):
		// No branch ran (a tool error that asks for arguments, a malformed
		// answer), or it asked again: the next round (or a corrected retry)
		// may run.
		if rerr := store.Release(ctx, flow, token); rerr != nil {
			return nil, r.storeFailed(ctx, fmt.Errorf("%w: release: %w", ErrStore, rerr))
		}
		return resp, err
	default:
		// The branch ran: its response is the flow's, now and on every replay.
		// When recording fails the claim stays, so no replay runs it again
		// (they are refused with -32603 until the flow expires).
		_ = store.Record(ctx, flow, token, encodeRecord(resp, err), expires)
		return resp, err
	}
}

// storeFailed reports a store failure to OnReject and returns the -32603
// error that refuses the retry.
func (r *round) storeFailed(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	return &protocol.Error{Code: protocol.CodeInternalError, Message: "flow store unavailable; nothing was run; retry later"}
}

// busy reports a concurrent duplicate that did not finish within ClaimWait
// and returns the -32603 error that refuses the retry.
func (r *round) busy(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	return &protocol.Error{Code: protocol.CodeInternalError, Message: "this flow is being completed by another request; nothing was run; retry later"}
}
