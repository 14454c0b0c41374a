package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
)

// These tests drive the handler in-process with runtime/elicittest: the
// generated flow, this package's handler, the page completed through
// runtime/page's handler in-process (Step.CompletePage), no server, no
// client, no browser.

func connectTester(user string) (*elicittest.Tester, *fakeContacts, *KeyVault) {
	contacts := newFakeContacts()
	opts := runtime.Options{Keys: runtime.EphemeralKeyRing(), Store: runtime.NewMemoryStore()}
	vault := vaultFor(opts, nil)
	tr := elicittest.New(NewImportContactsArgsFlow(importContactsArgsHandler{contacts: contacts, vault: vault}))
	tr.Options = opts
	tr.Principal = user
	return tr, contacts, vault
}

func TestHandlerAsksTheKeyOnceOnThePage(t *testing.T) {
	tr, _, vault := connectTester("alice")
	step, err := tr.Call(t.Context(), nil)
	require.NoError(t, err)
	require.NotNil(t, step.Question, "the first import asks for the key")
	assert.Equal(t, "api_key", step.Question.Key)
	assert.Equal(t, askKeyMessage, step.Question.Message)
	assert.Regexp(t, "^"+elicittest.DefaultPageURL+"[A-Za-z0-9_-]{22}$", step.Question.URL)
	assert.Nil(t, step.Question.Schema, "URL mode sends no form")

	step, err = step.CompletePage(t.Context(), map[string]any{"api_key": "ck-alice-123"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Imported 3 contacts for alice.", step.Result.Text)
	assert.NotContains(t, step.Result.Text, "ck-alice-123")
	key, ok, err := vault.Get(t.Context(), "alice")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "ck-alice-123", key)

	step, err = tr.Call(t.Context(), map[string]any{"limit": 2})
	require.NoError(t, err)
	require.True(t, step.Done(), "the kept key is used: nothing asked")
	assert.Equal(t, "Imported 2 contacts for alice.", step.Result.Text)
}

func TestHandlerRefusedKeyIsAskedAgain(t *testing.T) {
	tr, _, vault := connectTester("bob")
	step, err := tr.Call(t.Context(), nil)
	require.NoError(t, err)
	step, err = step.CompletePage(t.Context(), map[string]any{"api_key": "bob-456"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "a refused key is asked again")
	assert.Contains(t, step.Question.Message, "the contacts service refused this API key: contacts service keys start with ck-")
	state, err := tr.Options.Keys.Open(step.RequestState, 0)
	require.NoError(t, err)
	assert.NotContains(t, string(state), "bob-456", "the refused key is not in the state")
	_, ok, err := vault.Get(t.Context(), "bob")
	require.NoError(t, err)
	assert.False(t, ok, "a refused key is not kept")

	step, err = step.CompletePage(t.Context(), map[string]any{"api_key": "ck-bob-456"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Imported 1 contact for bob.", step.Result.Text)
}

func TestHandlerDeclineAndCancelKeepNothing(t *testing.T) {
	tr, _, vault := connectTester("alice")
	step, err := tr.Call(t.Context(), nil)
	require.NoError(t, err)
	declined, err := step.Decline(t.Context())
	require.NoError(t, err)
	require.True(t, declined.Done())
	assert.Equal(t, "No API key given: nothing imported.", declined.Result.Text)
	step, err = tr.Call(t.Context(), nil)
	require.NoError(t, err)
	cancelled, err := step.Cancel(t.Context())
	require.NoError(t, err)
	require.True(t, cancelled.Done())
	assert.Equal(t, "Import cancelled: nothing imported.", cancelled.Result.Text)
	_, ok, err := vault.Get(t.Context(), "alice")
	require.NoError(t, err)
	assert.False(t, ok)
}

// A kept key the service stops accepting is forgotten, and the key is
// asked again.
func TestHandlerRevokedKeyIsAskedAgain(t *testing.T) {
	tr, contacts, vault := connectTester("alice")
	require.NoError(t, vault.Put(t.Context(), "alice", "ck-alice-123"))
	delete(contacts.byKey, "ck-alice-123")
	step, err := tr.Call(t.Context(), nil)
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, "api_key", step.Question.Key)
	_, ok, err := vault.Get(t.Context(), "alice")
	require.NoError(t, err)
	assert.False(t, ok, "the revoked key is forgotten")
}
