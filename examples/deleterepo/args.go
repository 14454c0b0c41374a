// Package deleterepo ports two destructive tools of real Go MCP servers to
// mcpgen, with what their authors could not write: what the tool does for a
// client that cannot be asked.
//
//   - delete_repository (github-mcp-server): the user types the repository's
//     full name, owner/repo, in the tool's own form (an ask=always typed
//     echo whose description names it: "Type octo/hello exactly"). A client
//     that declared no form elicitation gets the handler's Unaskable
//     fallback, which points at the repository's settings page, and, with
//     mcpsdk.HideUnaskable, does not see the tool at all.
//   - service_delete (tiger-cli): nothing is asked up front; the branch asks
//     the user to type the service id, and a client that cannot be asked
//     gets runtime.ErrUnaskable from runtime.Ask, on which the branch points
//     at the command line.
//
// handler_test.go drives both with runtime/elicittest; hide_test.go serves
// them with go-sdk and lists the tools as each kind of client sees them;
// inventory.go registers them as their servers register tools, through the
// server's own inventory with a read-only gate and its own middleware
// (mcpsdk.Tool), which inventory_test.go serves.
package deleterepo

// DeleteRepositoryArgs are the arguments of delete_repository. The model
// passes the owner and the repository; the user confirms by typing the full
// name, which the model can never pass (ask=always).
//
//mcpgen:tool delete_repository Delete a GitHub repository; the user confirms by typing its full name.
//mcpgen:message Deleting a repository cannot be undone.
type DeleteRepositoryArgs struct {
	Owner   string `json:"owner" jsonschema:"the account that owns the repository, e.g. octo"`
	Repo    string `json:"repo" jsonschema:"the repository's name, e.g. hello"`
	Confirm string `json:"confirm,omitempty" elicit:"ask=always,title=Repository to delete"`
}

// DeleteServiceArgs are the arguments of service_delete: the service id
// alone; the confirmation is a question its branch asks.
//
//mcpgen:tool service_delete Delete a database service and all of its data; the user confirms by typing the service id.
type DeleteServiceArgs struct {
	ServiceID string `json:"service_id" jsonschema:"the service's id, e.g. svc-42"`
}

// ConfirmService is the question service_delete asks: the service id typed
// back.
//
//mcpgen:question
//mcpgen:message Type the service id to delete it and all of its data.
type ConfirmService struct {
	ServiceID string `json:"service_id,omitempty" elicit:"title=Service id"`
}

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type DeleteRepositoryArgs,DeleteServiceArgs,ConfirmService
