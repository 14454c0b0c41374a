package golden

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestMain has the go commands the tests run (annotate.Load's go list
// -export, go vet, go build) build as this binary was built, reusing what
// `go test -race` compiled (racebuild.ShareBuild).
func TestMain(m *testing.M) {
	racebuild.ShareBuild()
	os.Exit(m.Run())
}
