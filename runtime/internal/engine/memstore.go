package engine

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

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

// MemoryStore is a [Store] and a [PageStore] in this process's memory: right
// for one instance, wrong for several (a retry sent to another instance is
// refused: its store has another epoch). See runtime.MemoryStore.
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
	// again. A flow counts 182 bytes and its record (at most about 200
	// bytes once given up): 192 to 382 bytes, measured at 146 to 339
	// bytes of Go heap (TestMemoryStoreBytesPerFlow), so the default holds
	// about 175,000 to 350,000 completed flows. One caller cannot fill it:
	// [Options.MaxFlowsPerPrincipal] (1000 by default, about 0.4 MB) bounds
	// the flows each principal, or each anonymous client's address, holds.
	// A result that does not fit even then, or that is larger than a
	// quarter of MaxBytes, is kept as the short record at once. Set it
	// before the store is first used.
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

// PutPage implements [PageStore.PutPage]. It fails with [ErrPageExists], or with
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

// Page implements [PageStore.Page]; the slices returned are the caller's.
func (m *MemoryStore) Page(_ context.Context, id string) (record, answer []byte, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[pageKey(id)]
	if !ok || !time.Now().Before(e.expires) {
		return nil, nil, ErrNoPage
	}
	return bytes.Clone(e.record), bytes.Clone(e.answer), nil
}

// CompletePage implements [PageStore.CompletePage]. It fails with [ErrNoPage],
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

// DeletePage implements [PageStore.DeletePage].
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
