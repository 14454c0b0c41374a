package engine

import (
	"reflect"
	"slices"
	"sync"
	"time"
)

// Two things a request writes to the store stay there after it: a URL-mode
// page (its sealed record, kept until the flow expires and an hour more)
// and a completed flow's record (kept until the flow's state opens nowhere,
// see [round.recordExpiry]), besides the claim a retry holds while its
// branch runs. Without a bound, one caller asking for pages, or completing
// small flows, again and again fills the store, and a full store refuses
// every caller's claims ("retry later"). So each process counts, per store
// and per caller, the entries it put there that have not expired and that
// it has not deleted, and refuses a new one beyond a limit: pages beyond
// [Options.MaxPagesPerPrincipal] (by principal), flows (claims and records)
// beyond [Options.MaxFlowsPerPrincipal] (by principal, else by the
// client's address, see [round.caller]). Only the caller over its limit is
// refused; N instances allow N times as many.

// quotaKind names what a quota counts: one quota per kind and store.
type quotaKind string

const (
	pageEntries quotaKind = "page" // URL-mode pages, by principal
	flowEntries quotaKind = "flow" // flows claimed or recorded, by caller
)

// quota counts the open entries of one kind in one store by caller.
type quota struct {
	mu      sync.Mutex
	open    map[string][]openEntry // by caller, in creation order
	checked map[string]time.Time   // by caller at its limit: when recheck last allowed a look at the store
	sweepAt int                    // prune every caller when len(open) reaches it
}

// openEntry is one entry a quota counts: its id (a page id, a flow id) and
// when it expires.
type openEntry struct {
	id      string
	expires time.Time
	counted time.Time // when take counted it (before the store has it)
}

// quotas holds a quota per kind and store (by the Store value when it is
// comparable, else one for all stores of its type).
var quotas sync.Map

type quotaKey struct {
	kind  quotaKind
	store any
}

// quotaFor returns store's quota of kind.
func quotaFor(store any, kind quotaKind) *quota {
	var key any = store
	if !reflect.ValueOf(store).Comparable() { // a type's comparability is not enough: an interface inside may hold a map
		key = reflect.TypeOf(store)
	}
	k := quotaKey{kind, key}
	if q, ok := quotas.Load(k); ok {
		return q.(*quota)
	}
	q, _ := quotas.LoadOrStore(k, &quota{open: map[string][]openEntry{}, checked: map[string]time.Time{}, sweepAt: 1024})
	return q.(*quota)
}

// take counts entry id of caller, open until expires, when caller has fewer
// than limit entries open at now, or already counts id (then counted is
// false: the caller did not add it); otherwise it returns false and when
// the first of them expires. limit <= 0 means no bound.
func (q *quota) take(caller, id string, expires, now time.Time, limit int) (ok, counted bool, next time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.open) >= q.sweepAt {
		for c, entries := range q.open {
			q.prune(c, entries, now)
		}
		for c, at := range q.checked {
			if now.Sub(at) >= recheckEvery {
				delete(q.checked, c)
			}
		}
		q.sweepAt = max(1024, 2*len(q.open))
	}
	entries := q.prune(caller, q.open[caller], now)
	if slices.ContainsFunc(entries, func(e openEntry) bool { return e.id == id }) {
		return true, false, time.Time{}
	}
	if limit > 0 && len(entries) >= limit {
		first := entries[0].expires
		for _, e := range entries[1:] {
			if e.expires.Before(first) {
				first = e.expires
			}
		}
		return false, false, first
	}
	q.open[caller] = append(entries, openEntry{id: id, expires: expires, counted: now})
	return true, true, time.Time{}
}

// release stops counting entry id of caller.
func (q *quota) release(caller, id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	entries := slices.DeleteFunc(q.open[caller], func(e openEntry) bool { return e.id == id })
	if len(entries) == 0 {
		delete(q.open, caller)
		return
	}
	q.open[caller] = entries
}

// prune drops caller's entries expired at now and returns the rest.
func (q *quota) prune(caller string, entries []openEntry, now time.Time) []openEntry {
	entries = slices.DeleteFunc(entries, func(e openEntry) bool { return !now.Before(e.expires) })
	if len(entries) == 0 {
		delete(q.open, caller)
		return nil
	}
	q.open[caller] = entries
	return entries
}

// recheckEvery is how often a caller at its limit may have its entries
// looked up in the store: so that each refused call of a user who keeps
// calling does not cost the store a read per entry.
const recheckEvery = time.Second

// recheck reports whether caller's entries may be looked up in the store
// at now, and if so notes that they were.
func (q *quota) recheck(caller string, now time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if at, ok := q.checked[caller]; ok && now.Sub(at) < recheckEvery {
		return false
	}
	q.checked[caller] = now
	return true
}

// settled returns the ids of caller's entries counted before since: the
// ones the store must hold by now (an entry counted later may still be on
// its way there, and would look deleted).
func (q *quota) settled(caller string, since time.Time) []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []string
	for _, e := range q.open[caller] {
		if e.counted.Before(since) {
			out = append(out, e.id)
		}
	}
	return out
}
