package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

// flowsOnly is a flow store that keeps no pages: the methods of Store only.
type flowsOnly struct{ engine.Store }

// The page store of Options: PageStore when set; else Store when it keeps
// pages too; else the process's in-memory store, the one every Options
// without a Store uses for flows.
func TestPageStoreFallsBack(t *testing.T) {
	process := (&engine.Options{}).FlowStore()
	mem, other := engine.NewMemoryStore(), engine.NewMemoryStore()
	for name, tc := range map[string]struct {
		o    engine.Options
		want engine.PageStore
	}{
		"neither":                  {engine.Options{}, process.(engine.PageStore)},
		"a store that keeps pages": {engine.Options{Store: mem}, mem},
		"a store of flows only":    {engine.Options{Store: flowsOnly{mem}}, process.(engine.PageStore)},
		"a page store":             {engine.Options{Store: mem, PageStore: other}, other},
		"a page store alone":       {engine.Options{PageStore: other}, other},
	} {
		assert.Same(t, tc.want, tc.o.FlowPageStore(), name)
	}
}
