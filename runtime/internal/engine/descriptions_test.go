package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// describedQuote asks Approve with a per-call description of its code.
type describedQuote struct{ desc *string }

func (h describedQuote) Accept(ctx context.Context, args *fixture.Quote) (*engine.Result, error) {
	var q fixture.Approve
	action, err := engine.Ask(ctx, "approve", &q, &engine.AskOptions{
		Equal:        map[string]string{"code": args.Parcel},
		Descriptions: map[string]string{"code": *h.desc},
	})
	if err != nil {
		return nil, err
	}
	return engine.Textf("%s %s", action, q.Code), nil
}

// AskOptions.Descriptions is the field's description in the form sent, and
// part of the question: an answer to the form as described before is not
// applied once the branch computes another description.
func TestAskDescriptions(t *testing.T) {
	desc := "Type P1 exactly"
	flow := fixture.NewQuoteFlow(describedQuote{desc: &desc})
	opts := tripOpts()
	const args = `{"parcel":"P1","count":3}`
	r1, err := flow.Call(t.Context(), opts, req(args, "", nil))
	require.NoError(t, err)
	key, q, _ := question(t, r1)
	require.Equal(t, "approve", key)
	code, ok := q.RequestedSchema.Properties.Get("code")
	require.True(t, ok)
	assert.Equal(t, "Type P1 exactly", code.Description)
	assert.Equal(t, "Parcel code", code.Title, "the rest of the property is the tag's")

	desc = "Type the parcel code P1"
	r2, err := flow.Call(t.Context(), opts, req(args, r1.RequestState, accept("approve", map[string]any{"code": "P1"})))
	require.NoError(t, err)
	key, q, _ = question(t, r2)
	assert.Equal(t, "approve_2", key, "another description is another question")
	code, _ = q.RequestedSchema.Properties.Get("code")
	assert.Equal(t, "Type the parcel code P1", code.Description)

	r3, err := flow.Call(t.Context(), opts, req(args, r2.RequestState, accept("approve_2", map[string]any{"code": "P1"})))
	require.NoError(t, err)
	require.NotNil(t, r3.Result)
	assert.Equal(t, "accept P1", r3.Result.Text)

	// An empty description, or one of no field, is the server's mistake.
	for _, d := range []map[string]string{{"code": ""}, {"nope": "x"}} {
		resp, err := fixture.NewQuoteFlow(descsQuote{d}).Call(t.Context(), tripOpts(), req(args, "", nil))
		require.NoError(t, err)
		require.NotNil(t, resp.Result)
		assert.True(t, resp.Result.IsError)
		assert.Contains(t, resp.Result.Text, "the run-time options of question \"approve\" are wrong: Descriptions")
	}
}

type descsQuote struct{ d map[string]string }

func (h descsQuote) Accept(ctx context.Context, args *fixture.Quote) (*engine.Result, error) {
	var q fixture.Approve
	if _, err := engine.Ask(ctx, "approve", &q, &engine.AskOptions{Descriptions: h.d}); err != nil {
		return nil, err
	}
	return engine.Text("asked"), nil
}

// FormOptions' Descriptions describe the tool's own form the same way.
func TestToolFormDescriptions(t *testing.T) {
	e := newTrip(t, func(ctx context.Context, args *fixture.Trip) (*engine.AskOptions, error) {
		return &engine.AskOptions{Descriptions: map[string]string{"name": "The name on the booking in " + args.City}}, nil
	})
	_, q, _ := question(t, e.call(req(paris, "", nil)))
	name, ok := q.RequestedSchema.Properties.Get("name")
	require.True(t, ok)
	assert.Equal(t, "The name on the booking in Paris", name.Description)
	email, _ := q.RequestedSchema.Properties.Get("email")
	assert.Empty(t, email.Description, "other fields keep their tags' texts")
}
