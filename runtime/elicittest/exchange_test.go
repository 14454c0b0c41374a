package elicittest_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// signIn is a hand-written exchange handler that asks a typed question, then
// sends the user to a URL until the application says the step is done.
func signIn(done *atomic.Bool) func(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	return func(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error) {
		var q fixture.Approve
		action, err := runtime.Ask(ctx, "approve", &q, &runtime.AskOptions{Equal: map[string]string{"code": "P1"}})
		if err != nil {
			return nil, err
		}
		if action != runtime.Accept {
			return &runtime.Response{Result: runtime.Textf("approval %s", action)}, nil
		}
		action, err = runtime.AskURL(ctx, "signin", "Sign in to the carrier.", "https://carrier.example/signin",
			func(context.Context) (bool, error) { return done.Load(), nil })
		if err != nil {
			return nil, err
		}
		if action != runtime.Accept {
			return &runtime.Response{Result: runtime.Textf("sign-in %s", action)}, nil
		}
		return &runtime.Response{Result: runtime.Textf("shipped %s as %s", q.Code, runtime.Principal(ctx))}, nil
	}
}

// An exchange handler asks a typed question and a URL-mode question through
// elicittest: an unfinished URL step is asked again, a finished one goes on.
func TestExchangeQuestionsAndURLMode(t *testing.T) {
	var done atomic.Bool
	tr := elicittest.NewExchange("ship", signIn(&done))
	tr.Principal = "alice"
	// The step is unfinished when the user says done: the retry waits
	// PageWait for it before asking again (15 s by default).
	tr.Options.PageWait = 50 * time.Millisecond
	ctx := context.Background()
	step, err := tr.Call(ctx, map[string]any{"parcel": "P1"})
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, "approve", step.Question.Key)
	assert.Equal(t, []string{"code", "note"}, step.Question.Fields)

	step, err = step.Accept(ctx, map[string]any{"code": "P1"})
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, "signin", step.Question.Key)
	assert.Equal(t, "https://carrier.example/signin", step.Question.URL)
	assert.Nil(t, step.Question.Schema)

	step, err = step.Accept(ctx, nil) // the user says done, the application disagrees
	require.NoError(t, err)
	require.NotNil(t, step.Question, "an unfinished step is asked again")
	assert.Equal(t, "signin_3", step.Question.Key)
	assert.Contains(t, step.Question.Message, "has not finished yet")

	done.Store(true)
	step, err = step.Accept(ctx, nil)
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "shipped P1 as alice", step.Result.Text, "the approval answered in round 1 is sealed, not asked again")
}

// Declining the URL step comes back to the handler as the action.
func TestExchangeURLDeclined(t *testing.T) {
	var done atomic.Bool
	tr := elicittest.NewExchange("ship", signIn(&done))
	ctx := context.Background()
	step, err := tr.Call(ctx, map[string]any{"parcel": "P1"})
	require.NoError(t, err)
	step, err = step.Accept(ctx, map[string]any{"code": "P1"})
	require.NoError(t, err)
	step, err = step.Decline(ctx)
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "sign-in decline", step.Result.Text)
}

// A client that declared no URL-mode elicitation is told why, not sent a URL.
func TestExchangeURLWithoutCapability(t *testing.T) {
	var done atomic.Bool
	tr := elicittest.NewExchange("ship", signIn(&done))
	ctx := context.Background()
	step, err := tr.Call(ctx, map[string]any{"parcel": "P1"})
	require.NoError(t, err)
	tr.NoElicitation = true // the retry comes from a client that declares no elicitation
	step, err = step.Accept(ctx, map[string]any{"code": "P1"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.True(t, step.Result.IsError)
	assert.Contains(t, step.Result.Text, "no URL-mode elicitation")
}
