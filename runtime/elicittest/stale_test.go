package elicittest_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/shape"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/impl"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// TestStaleFlowStopsTheTest: a flow generated for another struct (its
// digest is not the struct's: Seats's tag changed since the file was
// generated) is refused when it is built, so a handler's test stops as a
// server does, with the message that names the file and go generate. The
// fixture's own generated flow, current, builds.
func TestStaleFlowStopsTheTest(t *testing.T) {
	require.NotNil(t, elicittest.New(fixture.NewPicksFlow(nil)))
	current := shape.Entries(shape.Of(reflect.TypeFor[fixture.Picks]()))
	stale := func() {
		elicittest.New(impl.NewFlow(impl.FlowSpec[fixture.Picks]{
			Name: "picks", Key: "picks", Fields: []string{"seats"},
			Dispatch: func(context.Context, *fixture.Picks, runtime.Action, []string) (*runtime.Result, error) {
				return runtime.Text("ok"), nil
			},
			File:  "picks_elicit.go",
			Shape: []string{strings.TrimSuffix(current[0], current[0][len(current[0])-8:]) + "00000000"},
		}))
	}
	require.PanicsWithValue(t, "mcpgen: picks_elicit.go is stale: struct Picks (package github.com/mcpgen/mcpgen/runtime/internal/fixture) "+
		"has changed since mcpgen generated the file (field Seats: tag changed); run `go generate` in the package's directory "+
		"(or `go generate ./...` at the module root), then build again", stale)
}
