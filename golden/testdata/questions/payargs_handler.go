package questions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// payArgsHandler runs the branches of the pay tool: register it with
// NewPayArgsFlow(payArgsHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If PayArgsHandler changes, the assertion below stops compiling until the methods match.
type payArgsHandler struct{}

var _ PayArgsHandler = payArgsHandler{}

// Accept runs when every required field holds a valid answer. Do the tool's work here.
// runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,
// since a client may send the final retry twice.
func (payArgsHandler) Accept(ctx context.Context, args *PayArgs) (*runtime.Result, error) {
	// TODO: do the work. Until then, echo the arguments as JSON (pointer fields print as values).
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return runtime.Textf("pay: done with %s", b), nil
}

// Decline runs when the user declined the form: declined holds the JSON names of the fields asked.
// Never ask again for them. Either fall back to defaults (fill the declined fields and return
// h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.
func (h payArgsHandler) Decline(
	ctx context.Context, args *PayArgs, declined []string,
) (*runtime.Result, error) {
	return runtime.Textf("pay: nothing done; the user declined to give %s", strings.Join(declined, ", ")), nil
}

// Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,
// no further questions.
func (payArgsHandler) Cancel(ctx context.Context, args *PayArgs) (*runtime.Result, error) {
	return runtime.Text("pay: cancelled by the user; nothing done"), nil
}

// Unaskable runs instead of the form when the client cannot be asked: it declared no form
// elicitation, the server cannot send it a request, or it accepted the form twice with nothing
// filled in (why says which). missing holds the JSON names of the fields the form would ask.
// runtime.DefaultUnaskable is the runtime's answer: a tool error naming each field and which ones
// the model can pass as arguments (or JSON-RPC -32021, per Options.MissingCapability). Point the
// user elsewhere (a web page, another tool), or fill safe defaults and return h.Accept(ctx, args).
func (h payArgsHandler) Unaskable(
	ctx context.Context, args *PayArgs, missing []string, why string,
) (*runtime.Result, error) {
	return runtime.DefaultUnaskable(ctx)
}

// AccountChoices lists the options of account for this caller (elicit:"choices"): for example the
// caller's own accounts (runtime.Principal(ctx) says who is calling). Give each a Title for a
// titled select. It runs on every request of the call; an answer counts only if it is among the
// options of the request it arrives in. With one option a required field takes it without asking;
// with none the call ends in a tool error.
func (payArgsHandler) AccountChoices(ctx context.Context, args *PayArgs) ([]runtime.Choice, error) {
	// TODO: list the options.
	return []runtime.Choice{{
		Value: "example",
		Title: "Example",
	}}, nil
}

// NotifyChoices lists the options of notify for this caller (elicit:"choices"): for example the
// caller's own accounts (runtime.Principal(ctx) says who is calling). Give each a Title for a
// titled select. It runs on every request of the call; an answer counts only if it is among the
// options of the request it arrives in. With one option a required field takes it without asking;
// with none the call ends in a tool error.
func (payArgsHandler) NotifyChoices(ctx context.Context, args *PayArgs) ([]runtime.Choice, error) {
	// TODO: list the options.
	return []runtime.Choice{{
		Value: "example",
		Title: "Example",
	}}, nil
}
