package noargs

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime"
)

// emptyHandler runs the ping tool: register it with NewEmptyFlow(emptyHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If EmptyHandler changes, the assertion below stops compiling until the methods match.
type emptyHandler struct{}

var _ EmptyHandler = emptyHandler{}

// Accept runs on every call: Empty has no elicitable field, so nothing is asked before it, and it
// is the only branch. Do the tool's work here. runtime.FlowID(ctx) identifies a call that asked a
// question across its rounds: use it to make the work idempotent.
//
// To ask the user something once you have computed it (a price, a plan), declare a question
// (a struct with a //mcpgen:question directive and elicit tags), run go generate, and ask it
// here. Ask returns the user's action to this branch; the branch runs again from the top on the
// retry, so keep the code before the last question free of side effects:
//
//	var q Confirm // a //mcpgen:question struct
//	action, err := runtime.Ask(ctx, "confirm", &q, nil)
//	if err != nil {
//		return nil, err // runtime.ErrInputRequired until the user answers: return it unchanged
//	}
//	switch action {
//	case runtime.Decline:
//		return runtime.Text("ping: the user declined; nothing done"), nil
//	case runtime.Cancel:
//		return runtime.Text("ping: cancelled by the user; nothing done"), nil
//	}
//	// runtime.Accept: q holds the answer. Do the work after the last question.
func (emptyHandler) Accept(ctx context.Context, args *Empty) (*runtime.Result, error) {
	// TODO: do the work. Until then, echo the arguments as JSON (pointer fields print as values).
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return runtime.Textf("ping: done with %s", b), nil
}
