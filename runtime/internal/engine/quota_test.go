package engine

import (
	"strconv"
	"testing"
	"time"
)

// The per-principal count forgets principals whose pages all expired (at a
// sweep, when the principals counted have doubled since the last), so that
// its memory follows the open pages, not every user ever seen.
func TestPageQuotaForgetsExpiredPrincipals(t *testing.T) {
	q := &quota{open: map[string][]openEntry{}, checked: map[string]time.Time{}, sweepAt: 1024}
	now := time.Now()
	for i := range 5000 {
		if ok, _, _ := q.take("user"+strconv.Itoa(i), "p", now.Add(time.Minute), now, 20); !ok {
			t.Fatalf("user%d refused its first page", i)
		}
	}
	later := now.Add(2 * time.Minute)
	for i := range 6000 {
		q.take("other"+strconv.Itoa(i), "p", later.Add(time.Minute), later, 20)
	}
	if n := len(q.open); n != 6000 {
		t.Errorf("%d principals counted after the first 5000 expired and 6000 others took a page, want the 6000", n)
	}
	if ok, _, _ := q.take("other1", "p2", later.Add(time.Minute), later, 2); !ok {
		t.Error("other1 refused its second page with a limit of 2")
	}
	if ok, _, first := q.take("other1", "p3", later.Add(time.Minute), later, 2); ok || !first.Equal(later.Add(time.Minute)) {
		t.Errorf("other1's third page: ok %v, first expiry %v; want refused, %v", ok, first, later.Add(time.Minute))
	}
	q.release("other1", "p")
	if ok, _, _ := q.take("other1", "p3", later.Add(time.Minute), later, 2); !ok {
		t.Error("other1 refused after one of its pages was released")
	}
}
