package person

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// settingsHandler runs the branches of the settings tool: register it with
// NewSettingsFlow(settingsHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If SettingsHandler changes, the assertion below stops compiling until the methods match.
type settingsHandler struct{}

var _ SettingsHandler = settingsHandler{}

// Accept runs when every required field holds a valid answer. Do the tool's work here.
// runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,
// since a client may send the final retry twice.
func (settingsHandler) Accept(ctx context.Context, args *Settings) (*runtime.Result, error) {
	// TODO: do the work. Until then, echo the arguments as JSON (pointer fields print as values).
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return runtime.Textf("settings: done with %s", b), nil
}

// Decline runs when the user declined the form: declined holds the JSON names of the fields asked.
// Never ask again for them. Either fall back to defaults (fill the declined fields and return
// h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.
func (h settingsHandler) Decline(
	ctx context.Context, args *Settings, declined []string,
) (*runtime.Result, error) {
	return runtime.Textf("settings: nothing done; the user declined to give %s",
		strings.Join(declined, ", ")), nil
}

// Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,
// no further questions.
func (settingsHandler) Cancel(ctx context.Context, args *Settings) (*runtime.Result, error) {
	return runtime.Text("settings: cancelled by the user; nothing done"), nil
}

// Unaskable runs instead of the form when the client cannot be asked: it declared no form
// elicitation, the server cannot send it a request, or it accepted the form twice with nothing
// filled in (why says which). missing holds the JSON names of the fields the form would ask.
// runtime.DefaultUnaskable is the runtime's answer: a tool error naming each field and which ones
// the model can pass as arguments (or JSON-RPC -32021, per Options.MissingCapability). Point the
// user elsewhere (a web page, another tool), or fill safe defaults and return h.Accept(ctx, args).
func (h settingsHandler) Unaskable(
	ctx context.Context, args *Settings, missing []string, why string,
) (*runtime.Result, error) {
	return runtime.DefaultUnaskable(ctx)
}
