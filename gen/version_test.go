package gen

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/impl"
)

// TestImplVersion: the version generated files are written for is the newest
// runtime/impl serves, so bumping one without the other fails here.
func TestImplVersion(t *testing.T) {
	if ImplVersion != impl.MaxVersion {
		t.Errorf("gen.ImplVersion = %d, impl.MaxVersion = %d: bump them together", ImplVersion, impl.MaxVersion)
	}
	if ImplVersion < impl.MinVersion {
		t.Errorf("gen.ImplVersion = %d is below impl.MinVersion = %d", ImplVersion, impl.MinVersion)
	}
}
