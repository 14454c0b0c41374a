package deleterepo

import (
	"slices"
	"sync"
)

// Backend stands in for GitHub and the database platform: the repositories
// (owner/repo) and services (their ids) that exist, and what was deleted.
// It is safe for concurrent use.
type Backend struct {
	mu      sync.Mutex
	exists  map[string]bool
	deleted []string
}

// NewBackend returns a Backend holding names.
func NewBackend(names ...string) *Backend {
	b := &Backend{exists: map[string]bool{}}
	for _, n := range names {
		b.exists[n] = true
	}
	return b
}

// Exists reports whether name exists.
func (b *Backend) Exists(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exists[name]
}

// Delete deletes name; false when it does not exist (any more).
func (b *Backend) Delete(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.exists[name] {
		return false
	}
	delete(b.exists, name)
	b.deleted = append(b.deleted, name)
	return true
}

// Deleted returns what was deleted, in order.
func (b *Backend) Deleted() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.deleted)
}

// Names returns the names that exist, sorted.
func (b *Backend) Names() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.exists))
	for n := range b.exists {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
