package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime"
)

// accounts are each user's accounts, the options of account.
var accounts = map[string][]runtime.Choice{
	"alice": {
		{Value: "chk-001", Title: "Checking ••001"},
		{Value: "sav-002", Title: "Savings ••002"},
		{Value: "crd-003", Title: "Card ••003"},
	},
	"bob": {
		{Value: "chk-900", Title: "Checking ••900"},
	},
}

// payInvoiceArgsHandler runs the branches of the pay_invoice tool, charging
// its ledger: register it with NewPayInvoiceArgsFlow(payInvoiceArgsHandler{ledger}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If PayInvoiceArgsHandler changes, the assertion below stops compiling until the methods match.
type payInvoiceArgsHandler struct {
	ledger Ledger
}

var _ PayInvoiceArgsHandler = payInvoiceArgsHandler{}

// AccountChoices lists the caller's own accounts. It runs on every request of
// the call: an account given as an argument or chosen in the form counts only
// if it is one of these. Bob has one account, so he is never asked.
func (payInvoiceArgsHandler) AccountChoices(ctx context.Context, args *PayInvoiceArgs) ([]runtime.Choice, error) {
	return accounts[runtime.Principal(ctx)], nil
}

// Accept charges the chosen account. It asks nothing, so it runs once per
// call; the charge id is derived from the flow id (fresh for a call that
// asked nothing, as bob's), so that a final retry sent twice charges once
// even where no at-most-once store is shared.
func (h payInvoiceArgsHandler) Accept(ctx context.Context, args *PayInvoiceArgs) (*runtime.Result, error) {
	if args.Invoice == "" {
		return runtime.ToolError("invalid arguments: invoice is required"), nil
	}
	if args.Amount < 0.01 {
		return runtime.ToolError("invalid arguments: amount must be at least 0.01, got %v", args.Amount), nil
	}
	user := runtime.Principal(ctx)
	if user == "" {
		return nil, errors.New("pay_invoice: no authenticated caller")
	}
	c, err := h.ledger.Add(ctx, user, Charge{
		ID: chargeID(runtime.FlowID(ctx)), Invoice: args.Invoice, Account: args.Account, Amount: args.Amount,
	})
	if err != nil {
		// The ledger's error names its Redis address: logged, not shown
		// (what a branch returns as an error reaches the client as text).
		slog.ErrorContext(ctx, "pay_invoice", "flow", runtime.FlowID(ctx), "err", err)
		return runtime.ToolError("pay_invoice: the billing ledger did not confirm the charge for %s; check charges before paying again", args.Invoice), nil
	}
	return runtime.Textf("Charged %.2f to %s for %s (charge %s).", c.Amount, c.Account, c.Invoice, c.ID), nil
}

// Decline runs when the user declined to choose an account: nothing is paid.
func (payInvoiceArgsHandler) Decline(ctx context.Context, args *PayInvoiceArgs, declined []string) (*runtime.Result, error) {
	return runtime.Textf("No account chosen: %s not paid.", args.Invoice), nil
}

// Cancel runs when the user dismissed the form: nothing is paid.
func (payInvoiceArgsHandler) Cancel(ctx context.Context, args *PayInvoiceArgs) (*runtime.Result, error) {
	return runtime.Textf("Payment cancelled: %s not paid.", args.Invoice), nil
}
