package engine_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

// flowsOnly is a flow store that keeps no pages: the methods of Store only.
type flowsOnly struct{ engine.Store }

// The page store of Options: PageStore when set; else Store when it keeps
// pages too; with neither, the process's in-memory store, the one every
// Options without a Store uses for flows. A Store of flows only with no
// PageStore is TestFlowsOnlyStoreRefusesPages'.
func TestPageStoreFallsBack(t *testing.T) {
	process := (&engine.Options{}).FlowStore()
	mem, other := engine.NewMemoryStore(), engine.NewMemoryStore()
	for name, tc := range map[string]struct {
		o    engine.Options
		want engine.PageStore
	}{
		"neither":                  {engine.Options{}, process.(engine.PageStore)},
		"a store that keeps pages": {engine.Options{Store: mem}, mem},
		"a page store":             {engine.Options{Store: mem, PageStore: other}, other},
		"a page store alone":       {engine.Options{PageStore: other}, other},
	} {
		assert.Same(t, tc.want, tc.o.FlowPageStore(), name)
	}
}

// TestFlowsOnlyStoreRefusesPages: a Store that keeps no pages and no
// PageStore used to put pages in the process's memory, where another
// instance never found them (a completed page asked again, its answer
// lost, silently); now every page operation fails with ErrNoPageStore,
// naming the Store's type.
func TestFlowsOnlyStoreRefusesPages(t *testing.T) {
	o := engine.Options{Store: flowsOnly{engine.NewMemoryStore()}}
	ps := o.FlowPageStore()
	ctx := context.Background()
	_, _, pageErr := ps.Page(ctx, "id")
	for name, err := range map[string]error{
		"PutPage":      ps.PutPage(ctx, "id", []byte("r"), time.Now().Add(time.Minute)),
		"Page":         pageErr,
		"CompletePage": ps.CompletePage(ctx, "id", []byte("a")),
		"DeletePage":   ps.DeletePage(ctx, "id"),
	} {
		if !errors.Is(err, engine.ErrNoPageStore) {
			t.Errorf("%s: %v; want ErrNoPageStore", name, err)
		}
		assert.Contains(t, err.Error(), "flowsOnly", name)
	}
}
