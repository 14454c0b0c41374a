package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// The suite itself runs in examples/conformance/run; these tests pin what it
// cannot see: that the tampered-state fixture rests on the seal (any changed
// byte, or another tool's valid state, is refused) and that every fixture the
// requirement list calls is registered.

func session(t *testing.T) *mcp.ClientSession {
	t.Helper()
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(newServer(runtime.Options{Keys: runtime.EphemeralKeyRing()}, slog.New(slog.NewTextHandler(io.Discard, nil))), nil))
	t.Cleanup(srv.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			panic("rounds are driven by the test")
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func confirm(t *testing.T, cs *mcp.ClientSession, tool, state string) (*mcp.CallToolResult, error) {
	t.Helper()
	return cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{},
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}},
		RequestState:   state})
}

func TestTamperedStateRestsOnTheSeal(t *testing.T) {
	cs := session(t)
	const tool = "test_input_required_result_tampered_state"
	r1, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, r1.NeedsInput())
	require.Contains(t, r1.InputRequests, "confirm")

	r2, err := confirm(t, cs, tool, r1.RequestState)
	require.NoError(t, err)
	require.False(t, r2.NeedsInput())
	assert.Contains(t, r2.Content[0].(*mcp.TextContent).Text, "state-ok")

	// A state of the same shape issued to the request_state tool.
	other, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "test_input_required_result_request_state", Arguments: map[string]any{}})
	require.NoError(t, err)
	b := []byte(r1.RequestState)
	b[len(b)/2] ^= 0x01 // stays base64url: only the AEAD tag can catch it
	for name, state := range map[string]string{
		"suffix":           r1.RequestState + "-TAMPERED",
		"one flipped bit":  string(b),
		"another tool's":   other.RequestState,
		"truncated":        r1.RequestState[:len(r1.RequestState)-4],
		"a made-up string": "tampered_state",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := confirm(t, cs, tool, state)
			var je *jsonrpc.Error
			require.ErrorAs(t, err, &je)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
			assert.True(t, strings.HasPrefix(je.Message, "invalid requestState"), je.Message)
		})
	}
}

func TestEveryFixtureIsRegistered(t *testing.T) {
	cs := session(t)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		assert.NotEmpty(t, tl.Description, tl.Name)
	}
	for _, want := range []string{
		"test_input_required_result_elicitation", "test_input_required_result_request_state",
		"test_input_required_result_multi_round", "test_input_required_result_tampered_state",
		"test_input_required_result_sampling", "test_input_required_result_list_roots",
		"test_input_required_result_multiple_inputs", "test_input_required_result_capabilities",
		"test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
		"test_multiple_content_types", "test_error_handling", "test_tool_with_progress",
		"test_missing_capability", "test_streaming_elicitation", "test_logging_tool",
		"test_trigger_tool_change", "test_trigger_prompt_change",
	} {
		assert.True(t, slices.Contains(names, want), "tool %s", want)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	require.NoError(t, err)
	var pnames []string
	for _, p := range prompts.Prompts {
		pnames = append(pnames, p.Name)
	}
	assert.ElementsMatch(t, []string{"test_input_required_result_prompt", "test_simple_prompt", "test_prompt_with_arguments",
		"test_prompt_with_embedded_resource", "test_prompt_with_image"}, pnames)
}
