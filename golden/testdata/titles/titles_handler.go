package titles

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// titlesHandler runs the branches of the titled tool: register it with
// NewTitlesFlow(titlesHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If TitlesHandler changes, the assertion below stops compiling until the methods match.
type titlesHandler struct{}

var _ TitlesHandler = titlesHandler{}

// Accept runs when every required field holds a valid answer. Do the tool's work here.
// runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,
// since a client may send the final retry twice.
func (titlesHandler) Accept(ctx context.Context, args *Titles) (*runtime.Result, error) {
	// TODO: do the work. Until then, echo the arguments as JSON (pointer fields print as values).
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return runtime.Textf("titled: done with %s", b), nil
}

// Decline runs when the user declined the form: declined holds the JSON names of the fields asked.
// Never ask again for them. Either fall back to defaults (fill the declined fields and return
// h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.
func (h titlesHandler) Decline(
	ctx context.Context, args *Titles, declined []string,
) (*runtime.Result, error) {
	return runtime.Textf("titled: nothing done; the user declined to give %s",
		strings.Join(declined, ", ")), nil
}

// Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,
// no further questions.
func (titlesHandler) Cancel(ctx context.Context, args *Titles) (*runtime.Result, error) {
	return runtime.Text("titled: cancelled by the user; nothing done"), nil
}

// Unaskable runs instead of the form when the client cannot be asked: it declared no form
// elicitation, the server cannot send it a request, or it accepted the form twice with nothing
// filled in (why says which). missing holds the JSON names of the fields the form would ask.
// runtime.DefaultUnaskable is the runtime's answer: a tool error naming each field and which ones
// the model can pass as arguments (or JSON-RPC -32021, per Options.MissingCapability). Point the
// user elsewhere (a web page, another tool), or fill safe defaults and return h.Accept(ctx, args).
func (h titlesHandler) Unaskable(
	ctx context.Context, args *Titles, missing []string, why string,
) (*runtime.Result, error) {
	return runtime.DefaultUnaskable(ctx)
}
