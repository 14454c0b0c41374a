package preview

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestMain has the go command the previews' loads run build as this
// binary was built, reusing what `go test -race` compiled
// (racebuild.ShareBuild).
func TestMain(m *testing.M) {
	racebuild.ShareBuild()
	os.Exit(m.Run())
}
