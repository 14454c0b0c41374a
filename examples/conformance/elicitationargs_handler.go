package main

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// elicitationArgsHandler runs the branches of the test_input_required_result_elicitation tool: register it with
// NewElicitationArgsFlow(elicitationArgsHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If ElicitationArgsHandler changes, the assertion below stops compiling until the methods match.
type elicitationArgsHandler struct{}

var _ ElicitationArgsHandler = elicitationArgsHandler{}

// Accept runs when every required field holds a valid answer. Do the tool's work here.
// runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,
// since a client may send the final retry twice.
func (elicitationArgsHandler) Accept(ctx context.Context, args *ElicitationArgs) (*runtime.Result, error) {
	return runtime.Textf("Hello, %s!", args.Name), nil
}

// Decline runs when the user declined the form: declined holds the JSON names of the fields asked.
// Never ask again for them. Either fall back to defaults (fill the declined fields and return
// h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.
func (h elicitationArgsHandler) Decline(ctx context.Context, args *ElicitationArgs, declined []string) (*runtime.Result, error) {
	return runtime.Textf("test_input_required_result_elicitation: nothing done; the user declined to give %s", strings.Join(declined, ", ")), nil
}

// Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,
// no further questions.
func (elicitationArgsHandler) Cancel(ctx context.Context, args *ElicitationArgs) (*runtime.Result, error) {
	return runtime.Text("test_input_required_result_elicitation: cancelled by the user; nothing done"), nil
}
