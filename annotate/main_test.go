package annotate

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// The go commands the tests run build as this binary was built.
func TestMain(m *testing.M) { os.Exit(racebuild.Main(m)) }
