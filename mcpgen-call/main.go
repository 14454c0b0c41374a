// Command mcpgen-call is a terminal MCP client that answers forms: with no
// tool it lists a server's tools; with one it calls it and shows each
// elicitation form the server sends as a terminal form (Enter through the
// fields submits; Ctrl-D declines, Esc cancels), or answers it from
// -accept, -decline, -cancel or -answers FILE for scripts and CI, and opens
// URL-mode pages with -open-cmd.
//
// Usage:
//
//	mcpgen-call [flags] URL [tool ['{json arguments}']]
//	mcpgen-call [flags] [tool ['{json arguments}']] -- command [args…]
//
// The first form speaks Streamable HTTP to URL; the second starts command
// and speaks stdio to it. mcpgen-call -h lists the flags.
//
// It is a command and a module of its own, not a subcommand of the
// generator, so that a module running the generator as a tool gains none of
// this client's terminal UI, not even in its module graph. Add it to a
// module as a tool:
//
//	go get -tool github.com/mcpgen/mcpgen/mcpgen-call
//	go tool mcpgen-call -H 'Authorization: Bearer alice-token' http://127.0.0.1:8080/mcp
//
// Exit status: 0 on success, 1 when the call failed, 2 on usage errors, 130
// after Ctrl-C (package internal/callclient, Main).
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/mcpgen-call/internal/callclient"
)

func main() {
	os.Exit(callclient.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
