package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
)

// The attack of a case-variant argument key, over HTTP with bearer tokens:
// encoding/json alone fills account from "Account", which the run-time
// choices never check, so alice could pay from bob's chk-900 and bob from
// alice's chk-001. The key fills nothing: alice is asked among her own
// accounts, bob is charged to his own, and "Amount" beside "amount" is
// refused with -32602.
func TestCaseVariantAccountPaysFromNoOtherAccount(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice, bob := connect(t, b.url, "alice-token"), connect(t, b.url, "bob-token")
	for _, key := range []string{"Account", "ACCOUNT", "aCCOUNT", "accounT"} {
		res, err := pay(t, alice, map[string]any{"invoice": "INV-9", "amount": 5, key: "chk-900"}, nil, "")
		require.NoError(t, err, key)
		_, er := asked(t, res)
		assert.JSONEq(t, aliceAccounts, schemaJSON(t, er.RequestedSchema), "%s: alice is asked among her accounts", key)

		res, err = pay(t, bob, map[string]any{"invoice": "INV-9", "amount": 5, key: "chk-001"}, nil, "")
		require.NoError(t, err, key)
		assert.Regexp(t, `^Charged 5\.00 to chk-900 for INV-9 `, text(t, res), key)
	}
	assert.Empty(t, charges(t, alice), "nothing charged to alice")
	for _, c := range charges(t, bob) {
		assert.Equal(t, Charge{ID: c.ID, Invoice: "INV-9", Account: "chk-900", Amount: 5}, c)
	}

	// Both spellings at once are refused outright, naming them.
	_, err := pay(t, bob, map[string]any{"invoice": "INV-10", "amount": 5, "Amount": -100}, nil, "")
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.EqualValues(t, -32602, je.Code)
	assert.Contains(t, je.Message, `"Amount" and "amount"`)
	assert.Len(t, charges(t, bob), 4, "only the four INV-9 charges")
}
