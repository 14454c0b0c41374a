package runtime

import (
	"reflect"
	"slices"
	"sync"
	"time"
)

// A URL-mode page is the one thing a first call writes to the store (its
// sealed record, kept until the flow expires and an hour more): without a
// bound, one signed-in user calling a tool that asks on a page again and
// again fills the store, and a full store refuses every flow's claim. So
// each process counts, per store and per principal, the pages it created
// whose flow has not expired and that it has not deleted, and refuses a new
// one beyond [Options.MaxPagesPerPrincipal].

// pageQuota counts the open pages of one store by principal.
type pageQuota struct {
	mu      sync.Mutex
	open    map[string][]openPage // by principal, in creation order
	checked map[string]time.Time  // by principal at its limit: when recheck last allowed a look at the store
	sweepAt int                   // prune every principal when len(open) reaches it
}

// openPage is one page a pageQuota counts: its id and its flow's expiry.
type openPage struct {
	id      string
	expires time.Time
	counted time.Time // when take counted it (before the store has it)
}

// pageQuotas holds a pageQuota per store (by the Store value when it is
// comparable, else one for all stores of its type).
var pageQuotas sync.Map

// quotaFor returns store's pageQuota.
func quotaFor(store Store) *pageQuota {
	var key any = store
	if !reflect.ValueOf(store).Comparable() { // a type's comparability is not enough: an interface inside may hold a map
		key = reflect.TypeOf(store)
	}
	if q, ok := pageQuotas.Load(key); ok {
		return q.(*pageQuota)
	}
	q, _ := pageQuotas.LoadOrStore(key, &pageQuota{open: map[string][]openPage{}, checked: map[string]time.Time{}, sweepAt: 1024})
	return q.(*pageQuota)
}

// take counts page id of principal, open until expires, when principal has
// fewer than limit pages open at now; otherwise it returns false and when
// the first of them expires. limit <= 0 means no bound.
func (q *pageQuota) take(principal, id string, expires, now time.Time, limit int) (ok bool, next time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.open) >= q.sweepAt {
		for p, pages := range q.open {
			q.prune(p, pages, now)
		}
		for p, at := range q.checked {
			if now.Sub(at) >= recheckEvery {
				delete(q.checked, p)
			}
		}
		q.sweepAt = max(1024, 2*len(q.open))
	}
	pages := q.prune(principal, q.open[principal], now)
	if limit > 0 && len(pages) >= limit {
		first := pages[0].expires
		for _, p := range pages[1:] {
			if p.expires.Before(first) {
				first = p.expires
			}
		}
		return false, first
	}
	q.open[principal] = append(pages, openPage{id: id, expires: expires, counted: now})
	return true, time.Time{}
}

// release stops counting page id of principal.
func (q *pageQuota) release(principal, id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	pages := slices.DeleteFunc(q.open[principal], func(p openPage) bool { return p.id == id })
	if len(pages) == 0 {
		delete(q.open, principal)
		return
	}
	q.open[principal] = pages
}

// prune drops principal's pages expired at now and returns the rest.
func (q *pageQuota) prune(principal string, pages []openPage, now time.Time) []openPage {
	pages = slices.DeleteFunc(pages, func(p openPage) bool { return !now.Before(p.expires) })
	if len(pages) == 0 {
		delete(q.open, principal)
		return nil
	}
	q.open[principal] = pages
	return pages
}

// recheckEvery is how often a principal at its limit may have its pages
// looked up in the store: so that each refused call of a user who keeps
// calling does not cost the store a read per page.
const recheckEvery = time.Second

// recheck reports whether principal's pages may be looked up in the store
// at now, and if so notes that they were.
func (q *pageQuota) recheck(principal string, now time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if at, ok := q.checked[principal]; ok && now.Sub(at) < recheckEvery {
		return false
	}
	q.checked[principal] = now
	return true
}

// settled returns the ids of principal's pages counted before since: the
// ones the store must hold by now (a page counted later may still be on its
// way there, and would look deleted).
func (q *pageQuota) settled(principal string, since time.Time) []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []string
	for _, p := range q.open[principal] {
		if p.counted.Before(since) {
			out = append(out, p.id)
		}
	}
	return out
}
