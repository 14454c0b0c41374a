package main

// ImportContactsArgs are the arguments of the import_contacts tool: an
// optional limit, a plain argument. The tool asks nothing up front; its
// Accept asks the APIKey question, in URL mode, the first time a user
// imports, and keeps the key on the server for later calls.
//
//mcpgen:tool import_contacts Import the caller's contacts from the contacts service; the first time, asks the user for their contacts service API key on this server's own page.
type ImportContactsArgs struct {
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,description=import at most this many contacts (default: all)"`
}

// APIKey is the question Accept asks when the server holds no working key
// for the caller. It is a URL-mode question: the user types the key on the
// server's page (runtime/page), never in the MCP client, and the branch gets
// it from the server on the client's retry (MCP 2026-07-28,
// client/elicitation: API keys must not be asked in form mode). mcpgen
// writes the page's field from the tag (a password input, never prefilled)
// and registers the question as URL mode.
//
//mcpgen:question url
//mcpgen:message Enter your contacts service API key.
type APIKey struct {
	Key string `json:"api_key" elicit:"title=API key,description=The key from your contacts service settings (it starts with ck-)"`
}

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type ImportContactsArgs,APIKey
