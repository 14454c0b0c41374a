package main

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
)

// go-sdk's client forced to 2025-11-25 over Streamable HTTP (a session, and
// elicitation/create on the call's stream) completes accept, decline and
// cancel with the same texts as a 2026-07-28 client, each branch run once.
func TestLegacyClientOverHTTP(t *testing.T) {
	t.Parallel()
	in := startInstance(t, runtime.EphemeralKeyRing())
	for action, want := range map[string]string{
		"accept":  "Booked 3 passengers from CDG to JFK on 2026-12-31.",
		"decline": "nothing booked",
		"cancel":  "cancelled",
	} {
		// Sequential subtests: they share in, whose counts are checked
		// once all three have run.
		t.Run(action, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "legacy-http", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					if action != "accept" {
						return &mcp.ElicitResult{Action: action}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": "2026-12-31", "passengers": 3}}, nil
				},
			})
			cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: in.url},
				&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			require.NoError(t, err)
			defer cs.Close()
			require.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
			require.NotEmpty(t, cs.ID(), "a session")
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "book_flight", Arguments: route})
			require.NoError(t, err)
			assert.Contains(t, text(t, res), want)
		})
	}
	assert.EqualValues(t, 1, in.h.accept.Load())
	assert.EqualValues(t, 1, in.h.decline.Load())
	assert.EqualValues(t, 1, in.h.cancel.Load())
}
