package main

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// These tests drive the same cases as main_test.go in-process with
// runtime/elicittest: the generated flow and this package's handler, no
// server, no client. (HTTP 401 for an unknown token is the middleware's, so
// it is tested over HTTP only.)

func payTester(principal string) (*elicittest.Tester, *memoryLedger) {
	ledger := newMemoryLedger()
	tr := elicittest.New(NewPayInvoiceArgsFlow(payInvoiceArgsHandler{ledger: ledger}))
	tr.Principal = principal
	return tr, ledger
}

func listed(t *testing.T, l Ledger, user string) []Charge {
	t.Helper()
	list, err := l.List(context.Background(), user)
	require.NoError(t, err)
	return list
}

func TestHandlerAliceIsAskedToChooseAmongHerAccounts(t *testing.T) {
	tr, _ := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	assert.Equal(t, "pay_invoice", step.Question.Key)
	assert.Equal(t, []string{"account"}, step.Question.Fields)
	assert.Equal(t, []string{"account"}, step.Question.Required)
	b, err := json.Marshal(step.Question.Schema)
	require.NoError(t, err)
	assert.JSONEq(t, aliceAccounts, string(b))
}

func TestHandlerBobIsChargedWithoutBeingAsked(t *testing.T) {
	tr, ledger := payTester("bob")
	step, err := tr.Call(t.Context(), map[string]any{"invoice": "INV-2", "amount": 80})
	require.NoError(t, err)
	require.True(t, step.Done(), "bob has one account: not asked")
	assert.Regexp(t, `^Charged 80\.00 to chk-900 for INV-2 \(charge ch_[0-9a-f]{16}\)\.$`, step.Result.Text)
	assert.Len(t, listed(t, ledger, "bob"), 1)

	// A second call that asks nothing is another flow, so another charge:
	// its flow id, and the charge id derived from it, are its own.
	step, err = tr.Call(t.Context(), map[string]any{"invoice": "INV-3", "amount": 5})
	require.NoError(t, err)
	require.True(t, step.Done())
	list := listed(t, ledger, "bob")
	require.Len(t, list, 2, "two calls, two charges")
	assert.NotEqual(t, list[0].ID, list[1].ID)
	assert.Equal(t, "INV-3", list[1].Invoice)
}

func TestHandlerAliceChargedToSavings(t *testing.T) {
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	step, err = step.Accept(t.Context(), map[string]any{"account": "sav-002"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Regexp(t, chargedINV1, step.Result.Text)
	list := listed(t, ledger, "alice")
	require.Len(t, list, 1)
	assert.Equal(t, Charge{ID: list[0].ID, Invoice: "INV-1", Account: "sav-002", Amount: 120.5}, list[0])
}

// Alice's accounts shrink to one while she is choosing (two are closed):
// her retry is judged by the options of the retry, and the account she
// picked, closed now, is never replaced by the one left (issue 37, F2): she
// is asked again with the reason, that account pre-filled, and charged once,
// on the account she then confirms. Had she picked the account left, it is
// taken without a new form.
func TestHandlerAccountsShrinkToOneWhileAsked(t *testing.T) {
	saved := accounts["alice"]
	t.Cleanup(func() { accounts["alice"] = saved })
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	require.NotNil(t, step.Question)
	accounts["alice"] = saved[1:2] // sav-002 only
	step, err = step.Accept(t.Context(), map[string]any{"account": "chk-001"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "her chk-001 is not replaced by sav-002")
	assert.Empty(t, listed(t, ledger, "alice"), "nothing charged")
	assert.Equal(t, []string{"account"}, step.Question.Fields)
	assert.Contains(t, step.Question.Message, `account: "chk-001" is no longer one of the options (must be one of: sav-002)`)
	account, _ := step.Question.Schema.Properties.Get("account")
	require.NotNil(t, account)
	assert.Equal(t, "sav-002", account.Default, "the account left is pre-filled")
	step, err = step.Accept(t.Context(), map[string]any{"account": "sav-002"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Regexp(t, chargedINV1, step.Result.Text)
	list := listed(t, ledger, "alice")
	require.Len(t, list, 1)
	assert.Equal(t, "sav-002", list[0].Account)

	tr, ledger = payTester("alice")
	accounts["alice"] = saved
	step, err = tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	accounts["alice"] = saved[1:2]
	step, err = step.Accept(t.Context(), map[string]any{"account": "sav-002"})
	require.NoError(t, err)
	require.True(t, step.Done(), "her own pick is the account left: nothing is asked")
	list = listed(t, ledger, "alice")
	require.Len(t, list, 1)
	assert.Equal(t, "sav-002", list[0].Account)
}

func TestHandlerAliceAnswersBobsAccountIsAskedAgain(t *testing.T) {
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	step, err = step.Accept(t.Context(), map[string]any{"account": "chk-900"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "asked again")
	assert.Equal(t, "pay_invoice_2", step.Question.Key)
	assert.Equal(t, 2, step.Question.Round)
	assert.Contains(t, step.Question.Message, "account: must be one of: chk-001, sav-002, crd-003")
	assert.Empty(t, listed(t, ledger, "alice"))
	assert.Empty(t, listed(t, ledger, "bob"))
}

func TestHandlerAccountArgumentNotHersIsRefused(t *testing.T) {
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), map[string]any{"invoice": "INV-1", "amount": 120.5, "account": "chk-900"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.True(t, step.Result.IsError)
	assert.Contains(t, step.Result.Text, "account: must be one of: chk-001, sav-002, crd-003")
	assert.Empty(t, listed(t, ledger, "alice"))
	assert.Empty(t, listed(t, ledger, "bob"))
}

func TestHandlerDeclineAndCancelChargeNothing(t *testing.T) {
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	declined, err := step.Decline(t.Context())
	require.NoError(t, err)
	assert.Equal(t, &runtime.Result{Text: "No account chosen: INV-1 not paid."}, declined.Result)

	step, err = tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	cancelled, err := step.Cancel(t.Context())
	require.NoError(t, err)
	assert.Equal(t, &runtime.Result{Text: "Payment cancelled: INV-1 not paid."}, cancelled.Result)
	assert.Empty(t, listed(t, ledger, "alice"))
}

// Bob answering with alice's requestState: the Tester's Principal changes
// between the steps, as a second caller would.
func TestHandlerBobCannotResumeAlicesCall(t *testing.T) {
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	tr.Principal = "bob"
	_, err = step.Accept(t.Context(), map[string]any{"account": "sav-002"})
	var pe *protocol.Error
	require.True(t, errors.As(err, &pe), "error: %v", err)
	assert.EqualValues(t, protocol.CodeInvalidParams, pe.Code)
	assert.Empty(t, listed(t, ledger, "alice"))
	assert.Empty(t, listed(t, ledger, "bob"))
}

func TestHandlerReplayedAcceptChargesOnce(t *testing.T) {
	tr, ledger := payTester("alice")
	step, err := tr.Call(t.Context(), inv1)
	require.NoError(t, err)
	done, err := step.Accept(t.Context(), map[string]any{"account": "sav-002"})
	require.NoError(t, err)
	for i := range 5 {
		again, err := step.Accept(t.Context(), map[string]any{"account": "sav-002"})
		require.NoError(t, err)
		assert.Equal(t, done.Result, again.Result, "replay %d", i)
	}
	assert.Len(t, listed(t, ledger, "alice"), 1)
}
