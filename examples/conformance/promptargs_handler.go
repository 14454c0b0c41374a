package main

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// promptArgsHandler runs the branches of the test_input_required_result_prompt tool: register it with
// NewPromptArgsFlow(promptArgsHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If PromptArgsHandler changes, the assertion below stops compiling until the methods match.
type promptArgsHandler struct{}

var _ PromptArgsHandler = promptArgsHandler{}

// Accept runs when every required field holds a valid answer. Do the tool's work here.
// runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,
// since a client may send the final retry twice.
func (promptArgsHandler) Accept(ctx context.Context, args *PromptArgs) (*runtime.Result, error) {
	return runtime.Textf("Answer the next question using this context: %s", args.Context), nil
}

// Decline runs when the user declined the form: declined holds the JSON names of the fields asked.
// Never ask again for them. Either fall back to defaults (fill the declined fields and return
// h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.
func (h promptArgsHandler) Decline(ctx context.Context, args *PromptArgs, declined []string) (*runtime.Result, error) {
	return runtime.Textf("test_input_required_result_prompt: nothing done; the user declined to give %s", strings.Join(declined, ", ")), nil
}

// Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,
// no further questions.
func (promptArgsHandler) Cancel(ctx context.Context, args *PromptArgs) (*runtime.Result, error) {
	return runtime.Text("test_input_required_result_prompt: cancelled by the user; nothing done"), nil
}
