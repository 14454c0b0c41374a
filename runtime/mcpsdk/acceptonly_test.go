package mcpsdk_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// TestAcceptOnlyToolOverHTTP runs the quote tool, whose arguments have no
// elicitable field and whose handler has Accept only, through go-sdk over
// streamable HTTP: a small order completes on the first call; a large one
// gets Accept's question as an input-required result, and the retry with
// the answer and the requestState completes through Accept.
func TestAcceptOnlyToolOverHTTP(t *testing.T) {
	rec := &fixture.QuoteRecorder{Limit: 10}
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, nil)
	mcpsdk.AddTool(s, fixture.NewQuoteFlow(rec), &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}})
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	cs := connect(t, srv.URL, true, nil)
	call := func(args map[string]any, answers mcp.InputResponseMap, state string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
			Name: "quote", Arguments: args, InputResponses: answers, RequestState: state,
		})
		require.NoError(t, err)
		return res
	}

	res := call(map[string]any{"parcel": "P1", "count": 2}, nil, "")
	require.False(t, res.NeedsInput(), "nothing is asked before Accept")
	assert.False(t, res.IsError, text(res))
	require.Equal(t, 1, rec.Count())

	big := map[string]any{"parcel": "P2", "count": 40}
	res = call(big, nil, "")
	key, ep, err := onlyKey(res)
	require.NoError(t, err)
	assert.Equal(t, "approve", key, "Accept's question, under its own name")
	assert.Equal(t, "Order 40 of P2?", ep.Message)
	require.Equal(t, 1, rec.Count(), "nothing recorded while the question is open")

	res = call(big, accept("approve", map[string]any{"code": "P2"}), res.RequestState)
	require.False(t, res.NeedsInput())
	assert.False(t, res.IsError, text(res))
	runs := rec.Runs()
	require.Len(t, runs, 2)
	assert.Equal(t, runtime.Accept, runs[1].Action)
	assert.JSONEq(t, `{"args":{"parcel":"P2","count":40},"approve":{"code":"P2"}}`, string(runs[1].Args))
}
