package golden

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/acceptonly"
	"github.com/mcpgen/mcpgen/golden/testdata/everykind"
	"github.com/mcpgen/mcpgen/runtime"
)

// acceptRecorder counts the Accept runs of the quote tool.
type acceptRecorder struct{ accepts *int }

func (h acceptRecorder) Accept(ctx context.Context, args *acceptonly.QuoteArgs) (*runtime.Result, error) {
	*h.accepts++
	return runtime.Text("quoted " + args.Item), nil
}

// TestAcceptOnlyTool: a tool without an elicitable field has a handler
// interface of Accept alone, its flow lists no field, and its dispatcher runs
// Accept and refuses any other action without running anything.
func TestAcceptOnlyTool(t *testing.T) {
	iface := reflect.TypeFor[acceptonly.QuoteArgsHandler]()
	require.Equal(t, 1, iface.NumMethod(), "the handler interface has Accept only")
	require.Equal(t, "Accept", iface.Method(0).Name)

	n := 0
	f := defOf(acceptonly.NewQuoteArgsFlow(acceptRecorder{&n}))
	require.Empty(t, f.Fields)
	require.Equal(t, 2, f.MaxRounds, "//mcpgen:rounds bounds the questions Accept asks")
	args := f.New()
	require.Empty(t, args.MissingFields())
	require.NoError(t, args.Validate())
	require.Zero(t, args.RequestedSchema().Properties.Len())

	res, err := f.Dispatch(t.Context(), &acceptonly.QuoteArgs{Item: "bolt"}, runtime.Accept, nil)
	require.NoError(t, err)
	require.Equal(t, "quoted bolt", res.Text)
	for _, a := range []runtime.Action{runtime.Decline, runtime.Cancel, "bogus"} {
		_, err := f.Dispatch(t.Context(), &acceptonly.QuoteArgs{Item: "bolt"}, a, nil)
		require.ErrorContains(t, err, "quote has no form to decline or cancel", "action %q", a)
	}
	require.Equal(t, 1, n, "only the Accept outcome ran Accept")
}

// TestDispatchUnknownAction: a flow with a form dispatches its three
// branches by action (the generated switch sends anything but Accept and
// Decline to Cancel, which does nothing), and runtime/impl refuses an
// action that is none of the three before the generated code sees it.
func TestDispatchUnknownAction(t *testing.T) {
	f := defOf(everykind.NewRegistrationFlow(everykindHandler{}))
	for action, want := range map[runtime.Action]string{runtime.Accept: "accepted", runtime.Decline: "declined", runtime.Cancel: "cancelled"} {
		res, err := f.Dispatch(t.Context(), &everykind.Registration{}, action, nil)
		require.NoError(t, err)
		require.Equal(t, want, res.Text, "action %q", action)
	}
	_, err := f.Dispatch(t.Context(), &everykind.Registration{}, "bogus", nil)
	require.ErrorContains(t, err, `unknown action "bogus"`)
}

// everykindHandler says which branch ran.
type everykindHandler struct{}

func (everykindHandler) Accept(context.Context, *everykind.Registration) (*runtime.Result, error) {
	return runtime.Text("accepted"), nil
}

func (everykindHandler) Decline(context.Context, *everykind.Registration, []string) (*runtime.Result, error) {
	return runtime.Text("declined"), nil
}

func (everykindHandler) Cancel(context.Context, *everykind.Registration) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}
