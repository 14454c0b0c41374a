package gen

import (
	"reflect"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
)

// TestLiteralOrders holds the field orders gen spells for the runtime's
// types (so that the generator does not link the runtime) to the types'
// declarations: a field added, removed or moved in impl.FlowSpec or
// runtime.Choice fails here, not in a generated literal.
func TestLiteralOrders(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		have []string
	}{
		{reflect.TypeFor[impl.FlowSpec[struct{}]](), flowSpecType},
		{reflect.TypeFor[runtime.Choice](), choiceType},
	} {
		if want := fieldNames(c.typ); !slices.Equal(c.have, want) {
			t.Errorf("gen spells the fields of %s as %v; the type declares %v", c.typ, c.have, want)
		}
	}
}
