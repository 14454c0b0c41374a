package golden

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/person"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// post sends one raw JSON-RPC tools/call of the person tool to a stateless
// Streamable HTTP endpoint, as a 2026-07-28 client with form elicitation,
// and returns the response's result object.
func post(t *testing.T, url, params string) map[string]any {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "person")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", raw)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(raw))
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				raw = []byte(data)
			}
		}
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	require.NoError(t, json.Unmarshal(raw, &msg), "%s", raw)
	require.Nil(t, msg.Error, "%s", raw)
	return msg.Result
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`

// TestWireDeclineCancelContentNull sends decline and cancel with a literal
// "content": null, and with stale content, over go-sdk's stateless HTTP
// transport: each runs Decline or Cancel and applies nothing.
func TestWireDeclineCancelContentNull(t *testing.T) {
	var got []string
	s := mcp.NewServer(&mcp.Implementation{Name: "person", Version: "1"}, nil)
	mcpsdk.AddTool(s, person.NewPersonFlow(recorder{&got}), &mcpsdk.Options{Flow: runtime.Options{Keys: testKeys}})
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	defer srv.Close()

	for _, tc := range []struct{ answer, want string }{
		{`{"action":"decline","content":null}`, "decline name= declined=name,age"},
		{`{"action":"cancel","content":null}`, "cancel name="},
		{`{"action":"decline","content":{"name":"Mallory"}}`, "decline name= declined=name,age"},
		{`{"action":"cancel","content":{"name":"Mallory"}}`, "cancel name="},
		{`{"action":"accept"}`, ""}, // a bare accept to a form with a required field asks again
	} {
		got = nil
		first := post(t, srv.URL, `{"name":"person","arguments":{},`+meta+`}`)
		require.Equal(t, "input_required", first["resultType"])
		state, _ := first["requestState"].(string)
		require.NotEmpty(t, state)
		res := post(t, srv.URL, `{"name":"person","arguments":{},"inputResponses":{"person":`+tc.answer+`},"requestState":`+mustJSON(t, state)+`,`+meta+`}`)
		if tc.want == "" {
			require.Equal(t, "input_required", res["resultType"], tc.answer)
			require.Empty(t, got)
			continue
		}
		require.Equal(t, "complete", res["resultType"], tc.answer)
		require.Equal(t, []string{tc.want}, got, tc.answer)
	}
}
