package runtime_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// TestQuickPlainCheckUsed checks that the input schemas of generated flows
// compile for checkPlain's quick check, so that valid arguments skip
// jsonschema-go.
func TestQuickPlainCheckUsed(t *testing.T) {
	for name, f := range map[string]*runtime.Flow{
		"book_flight": bookflight.NewBookFlightArgsFlow(nil),
		"plan_trip":   fixture.NewTripFlow(&fixture.TripRecorder{}),
	} {
		if !runtime.QuickPlainCheck(f) {
			t.Errorf("%s: the input schema does not compile for the quick check", name)
		}
	}
}
