package elicittest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
)

// A handler that asks a URL-mode question is tested without a browser:
// CompletePage submits the page in-process (its rules checked there) and
// retries, and the branch gets the typed answer.
func TestCompletePage(t *testing.T) {
	tr := elicittest.NewExchange("import", func(ctx context.Context, _ *runtime.Exchange) (*runtime.Response, error) {
		var q fixture.Key
		action, err := runtime.Ask(ctx, "key", &q, nil)
		if err != nil {
			return nil, err
		}
		return &runtime.Response{Result: runtime.Textf("%s %s %s", action, q.Key, q.Label)}, nil
	})
	tr.Principal = "alice"
	ctx := context.Background()
	step, err := tr.Call(ctx, nil)
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Contains(t, step.Question.URL, elicittest.DefaultPageURL)

	_, err = step.CompletePage(ctx, map[string]any{"key": "abc"})
	require.Error(t, err, "the page checks the question's rules")
	assert.Contains(t, err.Error(), "422")
	assert.Contains(t, err.Error(), "key")

	done, err := step.CompletePage(ctx, map[string]any{"key": "ck-alice-123", "label": "work"})
	require.NoError(t, err)
	require.True(t, done.Done())
	assert.Equal(t, "accept ck-alice-123 work", done.Result.Text)

	_, err = step.CompletePage(ctx, map[string]any{"key": "ck-alice-123"})
	require.Error(t, err, "a page is completed once")
}
