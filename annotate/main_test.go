package annotate

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestMain has the go commands the tests run (packages.Load's go list
// -export, TestShapeAgreesWithReflect's go test) build as this binary was
// built, reusing what `go test -race` compiled (racebuild.ShareBuild).
func TestMain(m *testing.M) {
	racebuild.ShareBuild()
	os.Exit(m.Run())
}
