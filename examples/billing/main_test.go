package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// The tests in this file serve billing over real HTTP (httptest) through
// mcpsdk.NewHTTPHandler behind the development bearer-token middleware, and
// drive it with go-sdk's client, one round at a time, as alice or bob.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// billingServer is one billing instance over HTTP and its ledger.
type billingServer struct {
	url    string
	ledger Ledger
}

func startBilling(t *testing.T, opts runtime.Options, ledger Ledger) *billingServer {
	t.Helper()
	if opts.Keys == nil {
		opts.Keys = runtime.EphemeralKeyRing()
	}
	if ledger == nil {
		ledger = newMemoryLedger()
	}
	srv := httptest.NewServer(devauth.Middleware()(mcpsdk.NewHTTPHandler(newServer(opts, ledger, nil, quiet), nil)))
	t.Cleanup(srv.Close)
	return &billingServer{url: srv.URL, ledger: ledger}
}

// connect opens a 2026-07-28 client session sending token, which drives the
// rounds itself.
func connect(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by the test")
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: devauth.Client(token)}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func pay(t *testing.T, cs *mcp.ClientSession, args map[string]any, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
	t.Helper()
	return cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "pay_invoice", Arguments: args, InputResponses: answers, RequestState: state,
	})
}

func answer(key, action string, content map[string]any) mcp.InputResponseMap {
	return mcp.InputResponseMap{key: &mcp.ElicitResult{Action: action, Content: content}}
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.False(t, res.NeedsInput(), "expected a complete result")
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	return tc.Text
}

// asked returns the only input request of an input-required result: its key
// and elicitation.
func asked(t *testing.T, res *mcp.CallToolResult) (string, *mcp.ElicitParams) {
	t.Helper()
	require.True(t, res.NeedsInput(), "expected an input-required result")
	require.NotEmpty(t, res.RequestState)
	require.Len(t, res.InputRequests, 1)
	for key, ir := range res.InputRequests {
		er, ok := ir.(*mcp.ElicitParams)
		require.True(t, ok, "input request %q is %T", key, ir)
		return key, er
	}
	panic("unreachable")
}

func schemaJSON(t *testing.T, schema any) string {
	t.Helper()
	b, err := json.Marshal(schema)
	require.NoError(t, err)
	return string(b)
}

// charges calls the charges tool as cs and returns its structured content,
// checking that the text has one line per charge.
func charges(t *testing.T, cs *mcp.ClientSession) []Charge {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "charges"})
	require.NoError(t, err)
	require.False(t, res.IsError)
	var out chargesOut
	require.NoError(t, json.Unmarshal([]byte(schemaJSON(t, res.StructuredContent)), &out))
	txt := text(t, res)
	if len(out.Charges) == 0 {
		assert.Equal(t, "No charges.", txt)
	} else {
		assert.Len(t, strings.Split(txt, "\n"), len(out.Charges))
	}
	return out.Charges
}

const aliceAccounts = `{"type":"object","properties":{"account":{"type":"string","title":"Account","oneOf":[` +
	`{"const":"chk-001","title":"Checking ••001"},{"const":"sav-002","title":"Savings ••002"},{"const":"crd-003","title":"Card ••003"}]}},` +
	`"required":["account"]}`

var inv1 = map[string]any{"invoice": "INV-1", "amount": 120.5}

const chargedINV1 = `^Charged 120\.50 to sav-002 for INV-1 \(charge ch_[0-9a-f]{16}\)\.$`

func TestAliceIsAskedToChooseAmongHerAccounts(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	res, err := pay(t, connect(t, b.url, "alice-token"), inv1, nil, "")
	require.NoError(t, err)
	key, er := asked(t, res)
	assert.Equal(t, "pay_invoice", key)
	assert.Equal(t, "form", er.Mode)
	assert.Equal(t, "Which account should pay this invoice?", er.Message)
	assert.JSONEq(t, aliceAccounts, schemaJSON(t, er.RequestedSchema))
}

func TestBobIsChargedWithoutBeingAsked(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	bob := connect(t, b.url, "bob-token")
	res, err := pay(t, bob, map[string]any{"invoice": "INV-2", "amount": 80}, nil, "")
	require.NoError(t, err)
	assert.Regexp(t, `^Charged 80\.00 to chk-900 for INV-2 \(charge ch_[0-9a-f]{16}\)\.$`, text(t, res))
	list := charges(t, bob)
	require.Len(t, list, 1)
	assert.Equal(t, Charge{ID: list[0].ID, Invoice: "INV-2", Account: "chk-900", Amount: 80}, list[0])
}

func TestAliceChargedToSavings(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice := connect(t, b.url, "alice-token")
	first, err := pay(t, alice, inv1, nil, "")
	require.NoError(t, err)
	res, err := pay(t, alice, inv1, answer("pay_invoice", "accept", map[string]any{"account": "sav-002"}), first.RequestState)
	require.NoError(t, err)
	got := text(t, res)
	assert.Regexp(t, chargedINV1, got)
	list := charges(t, alice)
	require.Len(t, list, 1)
	assert.Equal(t, Charge{ID: list[0].ID, Invoice: "INV-1", Account: "sav-002", Amount: 120.5}, list[0])
	assert.Contains(t, got, "(charge "+list[0].ID+")")
	assert.Empty(t, charges(t, connect(t, b.url, "bob-token")), "alice's charge is not bob's")
}

func TestAliceAnswersBobsAccountIsAskedAgain(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice := connect(t, b.url, "alice-token")
	first, err := pay(t, alice, inv1, nil, "")
	require.NoError(t, err)
	res, err := pay(t, alice, inv1, answer("pay_invoice", "accept", map[string]any{"account": "chk-900"}), first.RequestState)
	require.NoError(t, err)
	key, er := asked(t, res)
	assert.Equal(t, "pay_invoice_2", key)
	assert.Contains(t, er.Message, "account: must be one of: chk-001, sav-002, crd-003")
	assert.JSONEq(t, aliceAccounts, schemaJSON(t, er.RequestedSchema))
	assert.Empty(t, charges(t, alice), "nothing charged")

	res, err = pay(t, alice, inv1, answer(key, "accept", map[string]any{"account": "sav-002"}), res.RequestState)
	require.NoError(t, err)
	assert.Regexp(t, chargedINV1, text(t, res))
}

func TestAccountArgumentNotHersIsRefused(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice := connect(t, b.url, "alice-token")
	res, err := pay(t, alice, map[string]any{"invoice": "INV-1", "amount": 120.5, "account": "chk-900"}, nil, "")
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "account: must be one of: chk-001, sav-002, crd-003")
	assert.Empty(t, charges(t, alice))
	assert.Empty(t, charges(t, connect(t, b.url, "bob-token")))
}

func TestDeclineAndCancelChargeNothing(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice := connect(t, b.url, "alice-token")
	for action, want := range map[string]string{
		"decline": "No account chosen: INV-1 not paid.",
		"cancel":  "Payment cancelled: INV-1 not paid.",
	} {
		first, err := pay(t, alice, inv1, nil, "")
		require.NoError(t, err)
		res, err := pay(t, alice, inv1, answer("pay_invoice", action, nil), first.RequestState)
		require.NoError(t, err)
		assert.False(t, res.IsError, "%s is not an error", action)
		assert.Equal(t, want, text(t, res))
	}
	assert.Empty(t, charges(t, alice))
}

func TestBobCannotResumeAlicesCall(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice, bob := connect(t, b.url, "alice-token"), connect(t, b.url, "bob-token")
	first, err := pay(t, alice, inv1, nil, "")
	require.NoError(t, err)
	_, err = pay(t, bob, inv1, answer("pay_invoice", "accept", map[string]any{"account": "sav-002"}), first.RequestState)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.EqualValues(t, -32602, je.Code, "error: %v", err)
	assert.Empty(t, charges(t, alice))
	assert.Empty(t, charges(t, bob))
}

func TestUnknownTokenIs401(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	for _, c := range []*http.Client{devauth.Client("mallory-token"), http.DefaultClient} {
		resp, err := c.Post(b.url, "application/json", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"charges","arguments":{}}}`))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	_, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: b.url, HTTPClient: devauth.Client("mallory-token")}, nil)
	assert.Error(t, err, "go-sdk's client cannot connect with an unknown token")
}

// With the in-memory store (the default), alice's accepted retry replayed 5
// times leaves one charge: the store returns the recorded result, and the
// charge id, derived from the flow id, would name the same charge anyway.
func TestReplayedAcceptChargesOnce(t *testing.T) {
	b := startBilling(t, runtime.Options{}, nil)
	alice := connect(t, b.url, "alice-token")
	first, err := pay(t, alice, inv1, nil, "")
	require.NoError(t, err)
	yes := answer("pay_invoice", "accept", map[string]any{"account": "sav-002"})
	res, err := pay(t, alice, inv1, yes, first.RequestState)
	require.NoError(t, err)
	want := text(t, res)
	assert.Regexp(t, chargedINV1, want)
	for i := range 5 {
		res, err := pay(t, alice, inv1, yes, first.RequestState)
		require.NoError(t, err)
		assert.Equal(t, want, text(t, res), "replay %d", i)
	}
	list := charges(t, alice)
	require.Len(t, list, 1, "exactly one charge for INV-1")
	assert.Equal(t, "INV-1", list[0].Invoice)
}

// A charge id comes from the flow id: the same flow names the same charge,
// and the ledger keeps it once.
func TestChargeIDFromFlowID(t *testing.T) {
	assert.Equal(t, chargeID("flow-1"), chargeID("flow-1"))
	assert.NotEqual(t, chargeID("flow-1"), chargeID("flow-2"))
	l := newMemoryLedger()
	c := Charge{ID: chargeID("flow-1"), Invoice: "INV-1", Account: "sav-002", Amount: 1}
	for range 3 {
		got, err := l.Add(context.Background(), "alice", c)
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	list, err := l.List(context.Background(), "alice")
	require.NoError(t, err)
	assert.Len(t, list, 1)
}

// Without a shared at-most-once store (two instances, each with its own
// in-memory store, on one ledger), the accepted retry replayed on the other
// instance is refused (its store has another epoch: it cannot know whether
// the flow completed) and charges nothing more.
func TestReplayWithoutSharedStoreIsRefused(t *testing.T) {
	keys := runtime.EphemeralKeyRing()
	ledger := newMemoryLedger()
	one := startBilling(t, runtime.Options{Keys: keys, Store: runtime.NewMemoryStore()}, ledger)
	two := startBilling(t, runtime.Options{Keys: keys, Store: runtime.NewMemoryStore()}, ledger)
	a, b := connect(t, one.url, "alice-token"), connect(t, two.url, "alice-token")
	first, err := pay(t, a, inv1, nil, "")
	require.NoError(t, err)
	yes := answer("pay_invoice", "accept", map[string]any{"account": "sav-002"})
	_, err = pay(t, a, inv1, yes, first.RequestState)
	require.NoError(t, err)
	_, err = pay(t, b, inv1, yes, first.RequestState)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.EqualValues(t, -32602, je.Code)
	assert.Contains(t, je.Message, "start the call again")
	assert.Len(t, charges(t, a), 1)
}
