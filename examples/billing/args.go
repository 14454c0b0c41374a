package main

// PayInvoiceArgs are the arguments of the pay_invoice tool. The model passes
// the invoice and the amount; the account is chosen by the user among the
// caller's own accounts, listed at run time (AccountChoices), and not asked
// at all when the caller has only one.
//
//mcpgen:tool pay_invoice Pay an invoice from one of the caller's accounts; asks the user which account when there is a choice.
//mcpgen:message Which account should pay this invoice?
type PayInvoiceArgs struct {
	Invoice string  `json:"invoice" jsonschema:"the invoice number, e.g. INV-1"`
	Amount  float64 `json:"amount" jsonschema:"minimum=0.01,description=the amount to charge"`
	Account string  `json:"account,omitempty" elicit:"choices,title=Account"`
}

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type PayInvoiceArgs
