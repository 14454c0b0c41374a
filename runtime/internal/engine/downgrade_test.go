package engine

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/downgrade"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// TestDowngradeFull holds internal/downgrade's Full, which may not import
// runtime/protocol, to the protocol's version.
func TestDowngradeFull(t *testing.T) {
	if downgrade.Full != protocol.Version20251125 {
		t.Fatalf("downgrade.Full = %s, protocol.Version20251125 = %s", downgrade.Full, protocol.Version20251125)
	}
}
