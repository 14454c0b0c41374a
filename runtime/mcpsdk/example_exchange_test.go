package mcpsdk_test

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// A tool that asks the client's model a question (sampling/createMessage)
// and answers with what it said. The runtime seals the requestState, binds
// it to this call and refuses to ask a client that did not declare sampling.
func ExampleAddExchangeTool() {
	capital := func(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error) {
		if ans, ok := x.Sampling("capital"); ok {
			return &runtime.Response{Result: runtime.Textf("The model says: %s", ans.Text)}, nil
		}
		return x.InputRequired(map[string]protocol.InputRequest{
			"capital": &protocol.SamplingRequest{MaxTokens: 100,
				Messages: []protocol.SamplingMessage{{Role: "user", Text: "What is the capital of France?"}}},
		}, nil)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpsdk.AddExchangeTool(s, &mcp.Tool{Name: "capital", Description: "Asks the client's model for a capital"}, opts, capital)
}
