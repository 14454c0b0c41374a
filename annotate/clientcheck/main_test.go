package clientcheck_test

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestMain has the go command annotate.Load runs build as this binary was
// built, reusing what `go test -race` compiled (racebuild.ShareBuild).
func TestMain(m *testing.M) {
	racebuild.ShareBuild()
	os.Exit(m.Run())
}
