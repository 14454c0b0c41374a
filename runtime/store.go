package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
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
	// (fail closed); a first call that needed the store's epoch was refused
	// the same way. [Options.OnReject] receives an error that wraps both
	// ErrStore and the store's own error.
	ErrStore = errors.New("mcpgen: flow store failed")
	// ErrClaimed is what [Store.Claim] returns when another request holds a
	// live claim on the flow and has recorded nothing yet: a concurrent
	// duplicate. The engine waits up to [Options.ClaimWait] for the record,
	// then refuses the retry with JSON-RPC -32603 ("retry later");
	// [Options.OnReject] receives an error wrapping ErrClaimed.
	ErrClaimed = errors.New("mcpgen: flow is being completed by another request")
	// ErrClaimLost is what [Store.Renew] and [Store.Record] return when the
	// claim is no longer the caller's (its lease ended, or the store lost
	// it): nothing was renewed or recorded. It is also the cause
	// (context.Cause) of a branch's context that the engine cancels because
	// [Options.ClaimLease] passed without a renewal the store confirmed.
	ErrClaimLost = errors.New("mcpgen: flow claim is no longer held")
	// ErrNoPage is what [Store.Page] and [Store.CompletePage] return for
	// an id the store does not hold: never put, expired, or deleted once
	// its flow ended.
	ErrNoPage = errors.New("mcpgen: no such URL-mode page")
	// ErrPageCompleted is what [Store.CompletePage] returns when the page
	// already has an answer: a page is completed once.
	ErrPageCompleted = errors.New("mcpgen: URL-mode page already completed")
	// ErrPageExists is what [Store.PutPage] returns when the id is taken.
	ErrPageExists = errors.New("mcpgen: URL-mode page id already taken")
	// ErrEpoch is what [Store.Claim] returns (wrapped) when the store's
	// epoch is not the one the flow's requestState carries: the store has
	// lost its memory since the flow began (a Redis restart without
	// persistence, FLUSHALL, a new process's in-memory store), so it cannot
	// tell whether the flow already completed. The engine refuses the retry
	// with JSON-RPC -32602 telling the client to start the call again, runs
	// nothing and records nothing; [Options.OnReject] receives an error
	// wrapping ErrEpoch. -32602 is the code of every requestState the
	// server cannot honour (MCP 2026-07-28, basic/patterns/mrtr,
	// requestState security: the server validates the state it receives);
	// not -32603, which tells the client to retry the same request later,
	// nor a tool error result, which would stand for the tool's outcome.
	ErrEpoch = errors.New("mcpgen: the flow store has lost its memory since the flow began")
)

// Store holds, for each flow id, either a claim (a request is running the
// flow's retry) or the record of the flow's final response, until the flow's
// lifetime ends, and knows when it may have forgotten some of them. It is
// what makes a replayed requestState run no branch twice (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security: a server must treat the state
// as replayable). One instance alone may use [MemoryStore] (the default);
// instances that share a key ring must share a Store too
// (runtime/redisstore): a retry sent to an instance whose store does not
// know the flow is refused (its epoch differs).
//
// Arguments, for every method: flow is the flow id ([FlowID]: base64url, 22
// characters); token is a random string (base64url, 22 characters) the
// engine draws for each retry that claims; epoch is a value [Store.Epoch]
// returned; lease is a duration (at least a millisecond), measured by the
// store's own clock from when it performs the operation; expires is when the
// flow's requestState stops opening anywhere (its expiry, fixed in round 1,
// plus [Options.ClockSkew]; by the wall clock), after which a record may be
// dropped.
//
// Implementations must be safe for concurrent use, and each method must be
// atomic with respect to the others across every instance sharing the store
// (Redis: one Lua script per method). Every method may be called again with
// the same arguments after an error or a timeout (the first call may have
// taken effect unseen) and must then answer as if the first call had
// succeeded. An error that is none of the sentinels below means the store
// failed: the engine fails closed (-32603, no branch runs).
type Store interface {
	// Epoch returns the id of the store's current memory for flow: a
	// non-empty opaque string that stays the same for as long as the store
	// keeps every claim and record of flow it was given, and is replaced
	// by a new one whenever it may have lost some (a Redis restart without
	// persistence, FLUSHALL, a failover to a replica that missed the last
	// writes, a new process). The engine seals it into a flow's
	// requestState when the flow begins (round 1, with the flow id it
	// drew), and every claim of the flow checks it. A store that keeps
	// its flows in several independent parts (the shards of a Redis
	// Cluster) has one epoch per part, and flow names the part; a store of
	// one part may ignore it. An implementation may return a value it
	// read up to a few seconds earlier: a stale epoch only makes the later
	// retries of the flows that carry it fail closed ([ErrEpoch]).
	Epoch(ctx context.Context, flow string) (string, error)
	// Claim first checks that the store's epoch for flow is epoch; when it is not,
	// it changes nothing (but makes a new epoch if the store had lost its
	// own) and returns an error wrapping [ErrEpoch]. Then: when flow has a
	// record it returns the record (non-nil, never empty) and a nil error;
	// when flow has no live claim (none, or one whose lease ended) or
	// token's own claim, it takes (or renews) the claim for token for
	// lease and returns nil, nil; when another token holds a live claim it
	// returns nil, [ErrClaimed].
	Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) (record []byte, err error)
	// Renew extends token's live claim on flow to lease from now. It
	// returns [ErrClaimLost], changing nothing, when token does not hold a
	// live claim on flow (a record is never touched).
	Renew(ctx context.Context, flow, token string, lease time.Duration) error
	// Record replaces token's live claim on flow with record, kept until
	// expires. It returns nil when flow already holds exactly record (a
	// repeated call), and [ErrClaimLost], recording nothing, when token no
	// longer holds the claim.
	Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error
	// Release drops token's claim on flow; it does nothing when token does
	// not hold the claim (a record is never dropped).
	Release(ctx context.Context, flow, token string) error

	// The pages of URL-mode questions (MCP 2026-07-28, client/elicitation,
	// "URL Mode Elicitation Requests"; package runtime/page): a page's
	// record and, once the user completed it, its answer, both sealed by
	// the engine (the store sees ciphertext only), under an opaque random
	// id, shared by every instance.

	// PutPage keeps record under id until expires. It returns
	// [ErrPageExists], changing nothing, when id is taken.
	PutPage(ctx context.Context, id string, record []byte, expires time.Time) error
	// Page returns id's record and its answer (nil while the page is not
	// completed). It returns [ErrNoPage] when id was never put, has
	// expired or was deleted.
	Page(ctx context.Context, id string) (record, answer []byte, err error)
	// CompletePage sets id's answer, once: it returns [ErrPageCompleted],
	// changing nothing, when id already has one, and [ErrNoPage] when id
	// is not there.
	CompletePage(ctx context.Context, id string, answer []byte) error
	// DeletePage drops id, record and answer; it does nothing when id is
	// not there.
	DeletePage(ctx context.Context, id string) error
}

// defaultStore is the store of every Options without one: one process.
var defaultStore = NewMemoryStore()

// DefaultMemoryStoreBytes is the default of [MemoryStore.MaxBytes]: 64 MiB.
const DefaultMemoryStoreBytes = 64 << 20

// memEntryOverhead is what [MemoryStore] counts for an entry besides its
// key, token and record bytes: an estimate of the Go heap one entry holds
// (its map slot, the entry's headers and the allocations' rounding).
const memEntryOverhead = 160

// tooLargeRecord is the record [MemoryStore] keeps instead of a response
// that does not fit under MaxBytes, or in place of one it gave up to make
// room: replays get this error and run nothing (record's JSON: Failed with
// Err).
var tooLargeRecord = []byte(`{"x":"mcpgen: this call already completed, but the in-memory flow store (MemoryStore.MaxBytes) did not keep its result: it was too large, or the store needed the room; nothing was run again","f":true}`)

// MemoryStore is a [Store] in this process's memory: right for one
// instance, wrong for several (a retry sent to another instance is refused:
// its store has another epoch). Its epoch is drawn at random by
// [NewMemoryStore], so a flow begun before the process (re)started is
// refused with "start the call again" rather than run twice. Entries are
// dropped once expired. The zero value is not usable; call [NewMemoryStore].
type MemoryStore struct {
	// MaxBytes bounds the memory the store holds, in bytes: for each entry
	// its flow id, its claim token or recorded response, plus an estimated
	// 160 bytes of overhead; 0 means [DefaultMemoryStoreBytes] (64 MiB).
	// When a new claim, page or result does not fit once expired entries
	// are dropped, the store gives up the largest recorded results, each for a
	// short record saying the call completed but its result was not kept
	// (its replays get that error and run nothing: at most once holds),
	// until it is back under three quarters of MaxBytes. Only when that is
	// not enough (the store holds claims, pages and short records alone)
	// does Claim fail with an error wrapping [ErrStore]: the request is
	// refused with "retry later" (fails closed, as any store failure) and
	// no branch runs, where forgetting a record would let a replay run it
	// again. So a client whose calls return large results cannot lock every
	// other caller out by filling the store: it would need to complete
	// about MaxBytes/380 B flows within their lifetime (Options.TTL),
	// 175,000 in ten minutes for the defaults. A result that does not fit
	// even then, or that is larger than a quarter of MaxBytes, is kept as
	// the short record at once. Set it before the store is first used.
	MaxBytes int64

	epoch string

	mu      sync.Mutex
	entries map[string]memEntry
	bytes   int64 // counted bytes of entries (see memEntry.size)
	sweepAt int   // sweep expired entries when len(entries) reaches it
	// spare counts what giving up every recorded result would free: the
	// bytes of the records beyond the short one that would replace each
	// (see shrink).
	spare int64

	// nextExpiry is the earliest expiry among the entries the last sweep
	// kept (or added since): no entry can be dropped before it.
	nextExpiry time.Time
}

type memEntry struct {
	token   string // the claim's token; "" once recorded
	record  []byte
	answer  []byte    // a URL-mode page's answer, once completed
	expires time.Time // a claim's lease end; a record's flow expiry; a page's end
}

// size is what an entry under flow counts against MaxBytes. A claim counts
// at least the size of tooLargeRecord, so that replacing it by that record
// never grows the store.
func (e *memEntry) size(flow string) int64 {
	n := len(e.record) + len(e.answer)
	if e.token != "" {
		n = max(len(e.token), len(tooLargeRecord))
	}
	return int64(memEntryOverhead + len(flow) + n)
}

// spare is what replacing e's recorded result under flow by
// tooLargeRecord would free: 0 for a claim, a page (whose record a user's
// answer needs) and a result no larger than that record.
func (e *memEntry) spare(flow string) int64 {
	if e.token != "" || strings.HasPrefix(flow, pagePrefix) || len(e.record) <= len(tooLargeRecord) {
		return 0
	}
	return int64(len(e.record) - len(tooLargeRecord))
}

// NewMemoryStore returns an empty in-memory store with a fresh random epoch.
// Expiry is judged by time.Now.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{entries: map[string]memEntry{}, sweepAt: 1024, epoch: newToken()}
}

func (m *MemoryStore) limit() int64 {
	if m.MaxBytes > 0 {
		return m.MaxBytes
	}
	return DefaultMemoryStoreBytes
}

// Epoch implements [Store.Epoch]: the random id drawn by [NewMemoryStore]
// (22 base64url characters), one for every flow. It never fails.
func (m *MemoryStore) Epoch(context.Context, string) (string, error) { return m.epoch, nil }

// Claim implements [Store.Claim]. It fails with an error wrapping [ErrEpoch]
// when epoch is not the store's, with [ErrClaimed], or, for a new claim that
// does not fit under [MemoryStore.MaxBytes], with an error wrapping
// [ErrStore].
func (m *MemoryStore) Claim(_ context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error) {
	if epoch != m.epoch {
		return nil, fmt.Errorf("%w (this in-memory store is not the one the flow began with: another instance's, or one made since, as after a restart)", ErrEpoch)
	}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[flow]
	if ok && now.Before(e.expires) {
		switch {
		case e.token == "":
			return e.record, nil
		case e.token != token:
			return nil, ErrClaimed
		}
		e.expires = now.Add(lease)
		m.entries[flow] = e
		return nil, nil
	}
	if ok {
		m.drop(flow, &e)
	}
	e = memEntry{token: token, expires: now.Add(lease)}
	size := e.size(flow)
	limit := m.limit()
	// Sweep when the map has grown enough since the last sweep; room
	// sweeps when the claim does not fit and an entry can have expired.
	if len(m.entries) >= m.sweepAt {
		m.sweep(now)
	}
	if !m.room(size, now) {
		return nil, fmt.Errorf("%w: the in-memory store holds its limit of %d bytes (MemoryStore.MaxBytes); retry later", ErrStore, limit)
	}
	m.add(flow, e)
	return nil, nil
}

// room reports whether need more bytes fit under the limit, making room
// when they do not: dropping expired entries when one can have expired
// since the last sweep, then giving up recorded results (see shrink) when
// that would be enough. It scans the store only in those two cases, so a
// full store refuses without scanning it again each time.
func (m *MemoryStore) room(need int64, now time.Time) bool {
	limit := m.limit()
	if m.bytes+need <= limit {
		return true
	}
	if !now.Before(m.nextExpiry) {
		m.sweep(now)
		if m.bytes+need <= limit {
			return true
		}
	}
	if m.bytes-m.spare+need > limit {
		return false // giving up every result would not be enough
	}
	m.shrink(need)
	return m.bytes+need <= limit
}

// shrink gives up the largest recorded results, each for tooLargeRecord
// with the same expiry, until need more bytes fit under three quarters of
// the limit or none is left: replays of those flows get an error and run
// nothing. It scans the store, once per quarter of MaxBytes freed at most.
func (m *MemoryStore) shrink(need int64) {
	type big struct {
		flow string
		size int
	}
	var bigs []big
	for k, e := range m.entries {
		if e.spare(k) > 0 {
			bigs = append(bigs, big{k, len(e.record)})
		}
	}
	slices.SortFunc(bigs, func(a, b big) int { return b.size - a.size })
	target := min(m.limit()*3/4, m.limit()-need)
	for _, b := range bigs {
		if m.bytes+need <= target {
			return
		}
		e := m.entries[b.flow]
		m.drop(b.flow, &e)
		e.record = tooLargeRecord
		m.add(b.flow, e)
	}
}

// add puts e under flow (which holds nothing) and counts it.
func (m *MemoryStore) add(flow string, e memEntry) {
	m.entries[flow] = e
	m.bytes += e.size(flow)
	m.spare += e.spare(flow)
	if m.nextExpiry.IsZero() || e.expires.Before(m.nextExpiry) {
		m.nextExpiry = e.expires
	}
}

// drop deletes flow's entry e and uncounts it.
func (m *MemoryStore) drop(flow string, e *memEntry) {
	delete(m.entries, flow)
	m.bytes -= e.size(flow)
	m.spare -= e.spare(flow)
}

// sweep drops every entry expired at now.
func (m *MemoryStore) sweep(now time.Time) {
	m.nextExpiry = time.Time{}
	for k, e := range m.entries {
		if !now.Before(e.expires) {
			m.drop(k, &e)
		} else if m.nextExpiry.IsZero() || e.expires.Before(m.nextExpiry) {
			m.nextExpiry = e.expires
		}
	}
	m.sweepAt = max(1024, 2*len(m.entries))
}

// live returns flow's entry when token holds a live claim on it.
func (m *MemoryStore) live(flow, token string, now time.Time) (memEntry, bool) {
	e, ok := m.entries[flow]
	return e, ok && token != "" && e.token == token && now.Before(e.expires)
}

// Renew implements [Store.Renew].
func (m *MemoryStore) Renew(_ context.Context, flow, token string, lease time.Duration) error {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(flow, token, now)
	if !ok {
		return ErrClaimLost
	}
	e.expires = now.Add(lease)
	m.entries[flow] = e
	return nil
}

// Record implements [Store.Record]. The record is copied. A record that does
// not fit under [MemoryStore.MaxBytes] (once expired entries are dropped) is
// replaced by a short one whose replays return an error saying the result
// was not kept (and run nothing).
func (m *MemoryStore) Record(_ context.Context, flow, token string, record []byte, expires time.Time) error {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(flow, token, now)
	if !ok {
		if e, found := m.entries[flow]; found && e.token == "" && now.Before(e.expires) && bytes.Equal(e.record, record) {
			return nil // recorded by an earlier call
		}
		return ErrClaimLost
	}
	m.drop(flow, &e)
	rec := memEntry{record: bytes.Clone(record), expires: expires}
	// A result of more than a quarter of the store is not kept: it would
	// give up many others.
	if size := rec.size(flow); size > m.limit()/4 || !m.room(size, now) {
		rec.record = tooLargeRecord
	}
	m.add(flow, rec)
	return nil
}

// Release implements [Store.Release].
func (m *MemoryStore) Release(_ context.Context, flow, token string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[flow]; ok && e.token == token && token != "" {
		m.drop(flow, &e)
	}
	return nil
}

// pagePrefix starts the entry key of every page: flow ids never start with
// NUL.
const pagePrefix = "\x00page\x00"

// pageKey is the entry key of page id.
func pageKey(id string) string { return pagePrefix + id }

// PutPage implements [Store.PutPage]. It fails with [ErrPageExists], or with
// an error wrapping [ErrStore] when the page does not fit under
// [MemoryStore.MaxBytes] once expired entries are dropped.
func (m *MemoryStore) PutPage(_ context.Context, id string, record []byte, expires time.Time) error {
	now := time.Now()
	key := pageKey(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[key]; ok {
		if now.Before(e.expires) {
			return ErrPageExists
		}
		m.drop(key, &e)
	}
	e := memEntry{record: bytes.Clone(record), expires: expires}
	if !m.room(e.size(key), now) {
		return fmt.Errorf("%w: the in-memory store holds its limit of %d bytes (MemoryStore.MaxBytes); retry later", ErrStore, m.limit())
	}
	m.add(key, e)
	return nil
}

// Page implements [Store.Page]; the slices returned are the caller's.
func (m *MemoryStore) Page(_ context.Context, id string) (record, answer []byte, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[pageKey(id)]
	if !ok || !time.Now().Before(e.expires) {
		return nil, nil, ErrNoPage
	}
	return bytes.Clone(e.record), bytes.Clone(e.answer), nil
}

// CompletePage implements [Store.CompletePage]. It fails with [ErrNoPage],
// [ErrPageCompleted], or with an error wrapping [ErrStore] when the answer
// does not fit under [MemoryStore.MaxBytes].
func (m *MemoryStore) CompletePage(_ context.Context, id string, answer []byte) error {
	key := pageKey(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	switch {
	case !ok || !time.Now().Before(e.expires):
		return ErrNoPage
	case e.answer != nil:
		return ErrPageCompleted
	case !m.room(int64(len(answer)), time.Now()):
		return fmt.Errorf("%w: the in-memory store holds its limit of %d bytes (MemoryStore.MaxBytes)", ErrStore, m.limit())
	}
	m.drop(key, &e)
	e.answer = append([]byte{}, answer...)
	m.add(key, e)
	return nil
}

// DeletePage implements [Store.DeletePage].
func (m *MemoryStore) DeletePage(_ context.Context, id string) error {
	key := pageKey(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[key]; ok {
		m.drop(key, &e)
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

// Bytes returns the bytes the store counts against [MemoryStore.MaxBytes]
// (expired entries not yet dropped included).
func (m *MemoryStore) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
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
// state) just runs. A retry claims its flow id first, for
// [Options.ClaimLease], checking in the same step that the store's epoch is
// still the one sealed in the state: when it is not, the store may have
// forgotten the flow, and the retry is refused with -32602 ("start the call
// again", see [round.forgotten]); when the flow has a record, that is the
// answer and run does not run; when another request holds the claim, once
// waits up to [Options.ClaimWait] for its record and otherwise refuses with
// -32603. While run runs, the claim is renewed every third of the lease
// (see [keeper]). After run, the complete response of a branch (or the error
// it returned) is recorded until the flow's lifetime ends; an
// input-required response, a *protocol.Error, or a response no branch
// produced (r.ran unset) releases the claim. A store failure before run
// refuses the retry with -32603 and runs nothing (fail closed), reported to
// [Options.OnReject] wrapping [ErrStore].
func (r *round) once(ctx context.Context, run func(ctx context.Context) (*Response, error)) (resp *Response, err error) {
	defer func() { r.end(ctx, resp, err) }()
	if r.st == nil {
		return run(ctx)
	}
	r.awaitPages(ctx)
	store := r.o.Store
	flow := r.flowIDText(r.st.FlowID)
	// The state stops opening at its expiry by Options.Now; the store judges
	// by the wall clock (Redis: the server's), so hand it the remaining
	// lifetime from now, plus the clock skew other instances may have.
	expires := time.Now().Add(time.Unix(r.st.Expires, 0).Sub(r.o.Now()) + r.o.ClockSkew)
	token := newToken()
	lease := r.o.ClaimLease
	deadline := time.Now().Add(r.o.ClaimWait)
	pause := 2 * time.Millisecond
	var claimed time.Time
	for {
		claimed = time.Now()
		rec, err := store.Claim(ctx, flow, token, r.st.Epoch, lease)
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
		if errors.Is(err, ErrEpoch) {
			return nil, r.forgotten(ctx, err)
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

	// The store's writes after the branch must happen even when the
	// request's context ends meanwhile (a client that went away): a
	// completed branch without its record would run again once the lease
	// ends.
	bg := context.WithoutCancel(ctx)
	runCtx, cancel := context.WithCancelCause(ctx)
	k := &keeper{store: store, ctx: bg, flow: flow, token: token, lease: lease, last: claimed, cancel: cancel}
	k.start()
	resp, err = run(runCtx)
	k.stop()
	cancel(nil)
	var pe *protocol.Error
	switch {
	case !r.ran || errors.As(err, &pe) || (err == nil && (resp == nil || resp.Result == nil)):
		// No branch ran (a tool error that asks for arguments, a malformed
		// answer), or it asked again: the next round (or a corrected retry)
		// may run.
		if rerr := store.Release(bg, flow, token); rerr != nil {
			return nil, r.storeFailed(ctx, fmt.Errorf("%w: release: %w", ErrStore, rerr))
		}
		return resp, err
	default:
		// The branch ran: its response is the flow's, now and on every
		// replay. When recording fails (Redis at maxmemory, restarting),
		// the claim must not lapse, or a replay after its lease would run
		// the branch again: holdUnrecorded keeps it for the flow's lifetime
		// and goes on trying to record.
		r.dropPages(bg)
		rec := encodeRecord(resp, err)
		if rerr := store.Record(bg, flow, token, rec, expires); rerr != nil && !errors.Is(rerr, ErrClaimLost) {
			if r.o.Logger != nil {
				r.o.Logger.LogAttrs(ctx, slog.LevelWarn, "mcpgen: the flow's result was not recorded yet; its claim is held until the flow expires (replays are told to retry later) while recording is retried",
					slog.String("tool", r.name), slog.String("flow_id", flow), slog.String("err", rerr.Error()))
			}
			go holdUnrecorded(bg, store, flow, token, rec, expires, r.o.Logger)
		}
		return resp, err
	}
}

// unrecordedRetryMax bounds the pause between attempts of holdUnrecorded.
const unrecordedRetryMax = 5 * time.Second

// holdUnrecorded runs after a completed branch whose record the store
// refused: it stretches token's claim on flow to the flow's expiry (so that
// every replay is told "being completed by another request" and retries
// later, instead of claiming the flow once the lease ends and running the
// branch again), and tries to record rec until the store takes it, the
// claim is no longer token's ([ErrClaimLost]: the store lost its memory, and
// its new epoch refuses every retry), or the flow expires. Each failed
// attempt waits longer, up to unrecordedRetryMax. Renewing needs no memory
// in Redis (PEXPIRE), so a store at maxmemory that refuses the record still
// holds the claim.
func holdUnrecorded(ctx context.Context, store Store, flow, token string, rec []byte, expires time.Time, logger *slog.Logger) {
	pause := 100 * time.Millisecond
	for time.Now().Before(expires) {
		if err := store.Renew(ctx, flow, token, time.Until(expires)); errors.Is(err, ErrClaimLost) {
			return
		}
		time.Sleep(pause)
		pause = min(2*pause, unrecordedRetryMax)
		err := store.Record(ctx, flow, token, rec, expires)
		if err == nil {
			if logger != nil {
				logger.LogAttrs(ctx, slog.LevelInfo, "mcpgen: the flow's result is recorded", slog.String("flow_id", flow))
			}
			return
		}
		if errors.Is(err, ErrClaimLost) {
			return
		}
	}
}

// keeper renews a retry's claim while its branch runs: every third of the
// lease, with the holder's token, through timers (no goroutine until the
// first renewal is due, so that a branch shorter than a third of the lease
// costs none). When a whole lease passes since the last renewal the store
// confirmed (or the claim), another retry may have claimed the flow: the
// keeper cancels the branch's context with a cause wrapping [ErrClaimLost],
// which undoes nothing the branch already did, and its record stays fenced
// by the token ([Store.Record] refuses a token whose claim ended). A
// renewal that finds the claim gone before the lease passed (the store lost
// its memory: no retry can claim the flow again, see [ErrEpoch]) stops the
// keeper without cancelling.
type keeper struct {
	store  Store
	ctx    context.Context // for the store's calls: the request's, never cancelled
	flow   string
	token  string
	lease  time.Duration
	cancel context.CancelCauseFunc

	last time.Time // when the last confirmed renewal (or the claim) was sent; read and written by tick only

	mu      sync.Mutex
	stopped bool
	timer   *time.Timer
}

func (k *keeper) start() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.timer = time.AfterFunc(k.wait(), k.tick)
}

// stop ends the renewals; a renewal under way finishes in the background.
func (k *keeper) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.stopped = true
	k.timer.Stop()
}

// wait is how long until the next renewal: a third of the lease, or less
// when the lease ends sooner.
func (k *keeper) wait() time.Duration {
	return max(0, min(k.lease/3, time.Until(k.last.Add(k.lease))))
}

func (k *keeper) tick() {
	k.mu.Lock()
	stopped := k.stopped
	k.mu.Unlock()
	if stopped {
		return
	}
	if time.Since(k.last) >= k.lease {
		k.cancel(fmt.Errorf("%w: not renewed within the claim's lease of %s (Options.ClaimLease)", ErrClaimLost, k.lease))
		return
	}
	sent := time.Now()
	ctx, cancel := context.WithDeadline(k.ctx, k.last.Add(k.lease))
	err := k.store.Renew(ctx, k.flow, k.token, k.lease)
	cancel()
	switch {
	case err == nil:
		k.last = sent
	case errors.Is(err, ErrClaimLost):
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.stopped {
		k.timer = time.AfterFunc(k.wait(), k.tick)
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

// forgotten reports a retry whose flow began in another epoch of the store
// ([ErrEpoch]) and returns the error that refuses it: JSON-RPC -32602, the
// code of every requestState the engine cannot honour (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security: the server validates the
// state it receives and rejects one it cannot trust), telling the client to
// start the call again. Not -32603: that says "retry later", and this state
// will never be honoured; not a tool error result: nothing about the tool's
// work is known, the model would take it for the tool's outcome, and
// prompts/get has no tool results. The message is honest about what a
// client replaying a call whose response it lost must know: this request
// ran nothing, but an earlier request of the call may have completed it,
// so the client should check the call's effect before starting it again
// (a call started again is a new flow, with a new [FlowID]: the servers
// that key side effects on FlowID and keep it with the effect, a booking's
// or a charge's, let the client find it).
func (r *round) forgotten(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	why := "it has lost its memory since this call began (restarted without persistence, flushed, or another process's store) " +
		"or another Redis node serves it since (a failover: a replica promoted)"
	if _, ok := r.o.Store.(*MemoryStore); ok {
		why = "it is this process's memory, and this call began in another process (another instance, or before a restart)"
	}
	return &protocol.Error{Code: protocol.CodeInvalidParams, Message: "invalid requestState: the server's flow store cannot tell whether this call already ran: " +
		why + ". This request ran nothing, but an earlier request of this call " +
		"may have completed it (its response lost on the way): check whether the call's effect happened before you start the call again " +
		"(the same request without requestState and inputResponses)"}
}
