package golden

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/noargs"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

type pong struct{}

func (pong) Accept(context.Context, *noargs.Empty) (*runtime.Result, error) {
	return runtime.Text("pong"), nil
}

// A tool whose struct has no field at all generates code that compiles
// (its decoder once declared a value it never used) and runs: its Accept on
// an empty or absent arguments object, and arguments that are not an object
// are -32602.
func TestToolWithoutFields(t *testing.T) {
	tr := elicittest.New(noargs.NewEmptyFlow(pong{}))
	for _, args := range []any{nil, map[string]any{}, map[string]any{"unknown": 1}} {
		step, err := tr.Call(context.Background(), args)
		require.NoError(t, err)
		require.True(t, step.Done())
		assert.Equal(t, "pong", step.Result.Text)
	}
	_, err := tr.Call(context.Background(), []byte(`[1]`))
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, protocol.CodeInvalidParams, pe.Code)
}
