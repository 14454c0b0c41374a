// Command call is the newcomer script's client until `mcpgen call` exists:
// it connects to a Streamable HTTP endpoint with a bearer token, calls one
// tool, answers every form (elicitation/create) with the answers file's
// values for the fields the form asks, and prints the tool's text.
//
// Usage:
//
//	go run ./examples/newcomer/call -token alice-token -answers answers.json URL tool '{json args}'
//
// The answers file is a JSON object of field name → value. A form
// requiring a field the file lacks is declined. Exit status 1 when the call fails or
// the result is a tool error.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/devauth"
)

func main() {
	token := flag.String("token", "", "bearer token sent with every request")
	answersFile := flag.String("answers", "", "JSON object of field name → answer")
	flag.Parse()
	if flag.NArg() != 3 {
		fmt.Fprintln(os.Stderr, "usage: call [-token T] [-answers FILE] URL tool '{json args}'")
		os.Exit(2)
	}
	if err := run(*token, *answersFile, flag.Arg(0), flag.Arg(1), flag.Arg(2)); err != nil {
		fmt.Fprintln(os.Stderr, "call:", err)
		os.Exit(1)
	}
}

func run(token, answersFile, url, tool, argsJSON string) error {
	answers := map[string]any{}
	if answersFile != "" {
		b, err := os.ReadFile(answersFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &answers); err != nil {
			return fmt.Errorf("%s: %w", answersFile, err)
		}
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		return fmt.Errorf("arguments %s: %w", argsJSON, err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "newcomer-call", Version: "0.1.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return answer(r.Params, answers), nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: devauth.Client(token)}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			fmt.Println(t.Text)
		}
	}
	if res.IsError {
		return fmt.Errorf("%s returned a tool error", tool)
	}
	return nil
}

// answer accepts the form with the answers for the fields it asks, or
// declines it when the file lacks one of them.
func answer(p *mcp.ElicitParams, answers map[string]any) *mcp.ElicitResult {
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	b, _ := json.Marshal(p.RequestedSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		return &mcp.ElicitResult{Action: "decline"}
	}
	content := map[string]any{}
	for name := range schema.Properties {
		if v, ok := answers[name]; ok {
			content[name] = v
		}
	}
	for _, name := range schema.Required {
		if _, ok := content[name]; !ok {
			fmt.Fprintf(os.Stderr, "call: the form requires %q, which the answers file lacks: declining\n", name)
			return &mcp.ElicitResult{Action: "decline"}
		}
	}
	fmt.Fprintf(os.Stderr, "call: form %q answered\n", p.Message)
	return &mcp.ElicitResult{Action: "accept", Content: content}
}
