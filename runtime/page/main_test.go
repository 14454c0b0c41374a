package page_test

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/browsertest"
)

// TestMain shares one Chromium among the browser tests.
func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
