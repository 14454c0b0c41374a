package main

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// multiRoundArgsHandler runs the branches of the test_input_required_result_multi_round tool: register it with
// NewMultiRoundArgsFlow(multiRoundArgsHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If MultiRoundArgsHandler changes, the assertion below stops compiling until the methods match.
type multiRoundArgsHandler struct{}

var _ MultiRoundArgsHandler = multiRoundArgsHandler{}

// Accept runs when every required field holds a valid answer. Do the tool's work here.
// runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,
// since a client may send the final retry twice.
func (multiRoundArgsHandler) Accept(ctx context.Context, args *MultiRoundArgs) (*runtime.Result, error) {
	return runtime.Textf("Multi-round complete after %d round(s): %s likes %s", runtime.Round(ctx), args.Name, args.Color), nil
}

// Decline runs when the user declined the form: declined holds the JSON names of the fields asked.
// Never ask again for them. Either fall back to defaults (fill the declined fields and return
// h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.
func (h multiRoundArgsHandler) Decline(ctx context.Context, args *MultiRoundArgs, declined []string) (*runtime.Result, error) {
	return runtime.Textf("test_input_required_result_multi_round: nothing done; the user declined to give %s", strings.Join(declined, ", ")), nil
}

// Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,
// no further questions.
func (multiRoundArgsHandler) Cancel(ctx context.Context, args *MultiRoundArgs) (*runtime.Result, error) {
	return runtime.Text("test_input_required_result_multi_round: cancelled by the user; nothing done"), nil
}
