package deleterepo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/elicittest"
)

var octoHello = map[string]any{"owner": "octo", "repo": "hello"}

// The user types the full name, described for this call; a mistyped one is
// asked again with the reason, and only the right one deletes.
func TestDeleteRepositoryTypedName(t *testing.T) {
	b := NewBackend("octo/hello")
	tr := elicittest.New(NewDeleteRepositoryArgsFlow(deleteRepositoryArgsHandler{b}))
	step, err := tr.Call(t.Context(), octoHello)
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, []string{"confirm"}, step.Question.Fields)
	assert.Equal(t, "Deleting octo/hello cannot be undone: its code, issues, wiki and releases are gone for good.", step.Question.Message)
	confirm, ok := step.Question.Schema.Properties.Get("confirm")
	require.True(t, ok)
	assert.Equal(t, "Type octo/hello exactly", confirm.Description)

	step, err = step.Accept(t.Context(), map[string]any{"confirm": "octo/helo"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "a mistyped name is asked again")
	assert.Contains(t, step.Question.Message, `confirm: must be exactly "octo/hello"`)
	assert.Empty(t, b.Deleted())

	step, err = step.Accept(t.Context(), map[string]any{"confirm": "octo/hello"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Deleted octo/hello.", step.Result.Text)
	assert.Equal(t, []string{"octo/hello"}, b.Deleted())
}

// The model cannot confirm for the user: confirm given up front is asked
// anyway (ask=always).
func TestDeleteRepositoryModelCannotConfirm(t *testing.T) {
	b := NewBackend("octo/hello")
	tr := elicittest.New(NewDeleteRepositoryArgsFlow(deleteRepositoryArgsHandler{b}))
	step, err := tr.Call(t.Context(), map[string]any{"owner": "octo", "repo": "hello", "confirm": "octo/hello"})
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Empty(t, b.Deleted())
}

// A client without form elicitation gets the handler's Unaskable: nothing
// deleted, and the settings page to do it there.
func TestDeleteRepositoryUnaskable(t *testing.T) {
	b := NewBackend("octo/hello")
	tr := elicittest.New(NewDeleteRepositoryArgsFlow(deleteRepositoryArgsHandler{b}))
	tr.NoElicitation = true
	step, err := tr.Call(t.Context(), octoHello)
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.True(t, step.Result.IsError)
	assert.Equal(t, "delete_repository: octo/hello was not deleted: the user must type its name to confirm, but this client "+
		"declared no form elicitation. Ask the user to delete it at https://github.com/octo/hello/settings (Danger Zone).", step.Result.Text)
	assert.Empty(t, b.Deleted())
}

// service_delete asks mid-branch; a client that cannot be asked gets the
// branch's pointer to the command line.
func TestDeleteService(t *testing.T) {
	b := NewBackend("svc-42")
	tr := elicittest.New(NewDeleteServiceArgsFlow(deleteServiceArgsHandler{b}))
	step, err := tr.Call(t.Context(), map[string]any{"service_id": "svc-42"})
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, "confirm", step.Question.Key)
	id, _ := step.Question.Schema.Properties.Get("service_id")
	assert.Equal(t, "Type svc-42 exactly", id.Description)
	step, err = step.Accept(t.Context(), map[string]any{"service_id": "svc-42"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Deleted service svc-42 and all of its data.", step.Result.Text)

	b = NewBackend("svc-42")
	tr = elicittest.New(NewDeleteServiceArgsFlow(deleteServiceArgsHandler{b}))
	tr.NoElicitation = true
	step, err = tr.Call(t.Context(), map[string]any{"service_id": "svc-42"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "service_delete: svc-42 was not deleted: this client cannot ask the user to confirm. "+
		"Ask the user to run `tiger service delete svc-42` in a terminal.", step.Result.Text)
	assert.Empty(t, b.Deleted())
}
