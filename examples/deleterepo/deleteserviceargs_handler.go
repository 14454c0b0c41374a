package deleterepo

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/runtime"
)

// deleteServiceArgsHandler runs the service_delete tool: register it with
// NewDeleteServiceArgsFlow(deleteServiceArgsHandler{backend}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If DeleteServiceArgsHandler changes, the assertion below stops compiling until the methods match.
type deleteServiceArgsHandler struct {
	backend *Backend
}

var _ DeleteServiceArgsHandler = deleteServiceArgsHandler{}

// Accept asks the user to type the service id (the ConfirmService
// question), then deletes the service. A client that cannot be asked gets
// runtime.ErrUnaskable from runtime.Ask: nothing is deleted, and the model
// is told how the user can delete it from a terminal.
func (h deleteServiceArgsHandler) Accept(ctx context.Context, args *DeleteServiceArgs) (*runtime.Result, error) {
	id := args.ServiceID
	if !h.backend.Exists(id) {
		return runtime.ToolError("service_delete: there is no service %s", id), nil
	}
	var q ConfirmService
	action, err := runtime.Ask(ctx, "confirm", &q, &runtime.AskOptions{
		Equal:        map[string]string{"service_id": id},
		Descriptions: map[string]string{"service_id": "Type " + id + " exactly"},
	})
	if errors.Is(err, runtime.ErrUnaskable) {
		return runtime.ToolError("service_delete: %s was not deleted: this client cannot ask the user to confirm. "+
			"Ask the user to run `tiger service delete %s` in a terminal.", id, id), nil
	}
	if err != nil {
		return nil, err // not answered yet: the flow asks, and runs Accept again on the retry
	}
	if action != runtime.Accept {
		return runtime.Textf("The user did not confirm (%s): service %s was not deleted.", action, id), nil
	}
	if !h.backend.Delete(id) {
		return runtime.ToolError("service_delete: there is no service %s", id), nil
	}
	return runtime.Textf("Deleted service %s and all of its data.", id), nil
}
