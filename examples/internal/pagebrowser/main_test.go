package pagebrowser

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/examples/internal/browsertest"
)

// TestMain shares one Chromium among the browser tests.
func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
