package deleterepo

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// deleteRepositoryArgsHandler runs the branches of the delete_repository tool: register it with
// NewDeleteRepositoryArgsFlow(deleteRepositoryArgsHandler{backend}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If DeleteRepositoryArgsHandler changes, the assertion below stops compiling until the methods
// match.
type deleteRepositoryArgsHandler struct {
	backend *Backend
}

var _ DeleteRepositoryArgsHandler = deleteRepositoryArgsHandler{}

// FormOptions makes confirm a typed echo of the repository's full name, and
// tells the user, in the field's description, exactly what to type.
func (deleteRepositoryArgsHandler) FormOptions(ctx context.Context, args *DeleteRepositoryArgs) (*runtime.AskOptions, error) {
	full := args.Owner + "/" + args.Repo
	return &runtime.AskOptions{
		Message:      "Deleting " + full + " cannot be undone: its code, issues, wiki and releases are gone for good.",
		Equal:        map[string]string{"confirm": full},
		Descriptions: map[string]string{"confirm": "Type " + full + " exactly"},
	}, nil
}

// Accept runs once the user typed the full name.
func (h deleteRepositoryArgsHandler) Accept(ctx context.Context, args *DeleteRepositoryArgs) (*runtime.Result, error) {
	full := args.Owner + "/" + args.Repo
	if !h.backend.Delete(full) {
		return runtime.ToolError("delete_repository: there is no repository %s", full), nil
	}
	return runtime.Textf("Deleted %s.", full), nil
}

// Decline runs when the user declined to type the name: nothing is deleted.
func (h deleteRepositoryArgsHandler) Decline(
	ctx context.Context, args *DeleteRepositoryArgs, declined []string,
) (*runtime.Result, error) {
	return runtime.Textf("The user declined to confirm (%s): %s/%s was not deleted.",
		strings.Join(declined, ", "), args.Owner, args.Repo), nil
}

// Cancel runs when the user dismissed the form: nothing is deleted.
func (deleteRepositoryArgsHandler) Cancel(ctx context.Context, args *DeleteRepositoryArgs) (*runtime.Result, error) {
	return runtime.Textf("Cancelled by the user: %s/%s was not deleted.", args.Owner, args.Repo), nil
}

// Unaskable runs when the client cannot be asked to type the name (it
// declared no form elicitation): nothing is deleted, and the model is told
// where the user can delete the repository themselves.
func (h deleteRepositoryArgsHandler) Unaskable(
	ctx context.Context, args *DeleteRepositoryArgs, missing []string, why string,
) (*runtime.Result, error) {
	full := args.Owner + "/" + args.Repo
	return runtime.ToolError("delete_repository: %s was not deleted: the user must type its name to confirm, but %s. "+
		"Ask the user to delete it at https://github.com/%s/settings (Danger Zone).", full, why, full), nil
}
