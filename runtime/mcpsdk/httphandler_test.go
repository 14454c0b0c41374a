package mcpsdk_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// post sends one raw JSON-RPC request for plan_trip over stateless HTTP with
// the 2026-07-28 headers and returns the HTTP status and body.
func post(t *testing.T, url, params string) (int, []byte) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + params + `}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "plan_trip")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

// rpcResponse finds the JSON-RPC response in a JSON or SSE body.
func rpcResponse(t *testing.T, b []byte) map[string]any {
	t.Helper()
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimPrefix(line, "data: ")
		if strings.HasPrefix(line, "{") {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &m), line)
			return m
		}
	}
	t.Fatalf("no JSON-RPC response in %q", b)
	return nil
}

// Malformed retries (MCP 2026-07-28, basic/patterns/mrtr: malformed inputResponses are invalid params, -32602) get
// invalid params over stateless HTTP too, with the request's id and HTTP
// 400 (as go-sdk answers every other -32602 of 2026-07-28), a message naming
// the member at fault, and no branch runs; well-formed calls and oversized
// bodies are untouched.
func TestHTTPMalformedRetryIsInvalidParams(t *testing.T) {
	rec := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}, rec, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	args := `"name":"plan_trip","arguments":{"city":"Paris"},` + meta
	notAResult := `inputResponses["plan_trip"]: not a result (an elicitation result is an object with "action": "accept", "decline" or "cancel")`
	for name, c := range map[string]struct{ extra, want string }{
		"inputResponses is an array": {`,"inputResponses":[1,2],"requestState":"x"`, "inputResponses: array where an object is expected"},
		"inputResponses is a string": {`,"inputResponses":"yes","requestState":"x"`, "inputResponses: string where an object is expected"},
		"an answer is a number":      {`,"inputResponses":{"plan_trip":5},"requestState":"x"`, notAResult},
		"an answer has no action":    {`,"inputResponses":{"plan_trip":{"content":{}}},"requestState":"x"`, notAResult},
		"requestState is an object":  {`,"inputResponses":{"plan_trip":{"action":"accept"}},"requestState":{"a":1}`, "requestState: object where a string is expected"},
		"requestState is a number":   {`,"requestState":42`, "requestState: number where a string is expected"},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := post(t, srv.URL, "{"+args+c.extra+"}")
			assert.Equal(t, http.StatusBadRequest, status, "%s", body)
			m := rpcResponse(t, body)
			assert.EqualValues(t, 7, m["id"])
			e, ok := m["error"].(map[string]any)
			require.True(t, ok, "%s", body)
			assert.EqualValues(t, -32602, e["code"], "%s", body)
			assert.Equal(t, "invalid params for tools/call: "+c.want, e["message"])
		})
	}
	assert.Zero(t, rec.Count(), "no branch runs")

	// A well-formed first call still reaches the flow.
	status, body := post(t, srv.URL, "{"+args+"}")
	assert.Equal(t, http.StatusOK, status)
	res, ok := rpcResponse(t, body)["result"].(map[string]any)
	require.True(t, ok, "%s", body)
	assert.Equal(t, "input_required", res["resultType"])

	// A body over the SDK's limit is still the SDK's 413.
	huge := `{` + args + `,"requestState":"` + string(bytes.Repeat([]byte("A"), 5<<20)) + `"}`
	status, _ = post(t, srv.URL, huge)
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
}

// The SDK's transport checks come before the -32602 answer to malformed
// params: a malformed call with a foreign Host (DNS rebinding) or the wrong
// Content-Type is refused exactly like a well-formed one, on both endpoints.
func TestMalformedParamsStillPassTheSDKsTransportChecks(t *testing.T) {
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	s := server(opts, &fixture.TripRecorder{}, &fixture.PicksRecorder{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	good := `{"name":"plan_trip","arguments":{"city":"Paris"},` + meta + `}`
	bad := `{"name":"plan_trip","arguments":{"city":"Paris"},"inputResponses":[1],"requestState":"x",` + meta + `}`
	for name, h := range map[string]http.Handler{"sessions": mcpsdk.NewHTTPHandler(s, nil), "stateless": mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1})} {
		srv := httptest.NewServer(h) // on 127.0.0.1: the SDK's DNS-rebinding check is on
		t.Cleanup(srv.Close)
		send := func(params, host, contentType string) int {
			body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + params + `}`
			req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
			require.NoError(t, err)
			if host != "" {
				req.Host = host
			}
			req.Header.Set("Content-Type", contentType)
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "plan_trip")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode
		}
		for _, params := range []string{good, bad} {
			assert.Equal(t, http.StatusForbidden, send(params, "evil.example", "application/json"), "%s: foreign Host", name)
			assert.Equal(t, http.StatusUnsupportedMediaType, send(params, "", "text/plain"), "%s: Content-Type", name)
		}
		assert.Equal(t, http.StatusBadRequest, send(bad, "", "application/json"), "%s: malformed params: -32602 with 400", name)
	}
}

// An input-required result carries resultType, inputRequests and
// requestState and no "content" (go-sdk would write "content": null); a
// complete result keeps its content.
func TestInputRequiredResultHasNoContent(t *testing.T) {
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(&mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}},
		&fixture.TripRecorder{}, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	status, body := post(t, srv.URL, `{"name":"plan_trip","arguments":{"city":"Paris"},`+meta+`}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	res, ok := rpcResponse(t, body)["result"].(map[string]any)
	require.True(t, ok, "%s", body)
	assert.Equal(t, "input_required", res["resultType"])
	assert.NotEmpty(t, res["inputRequests"])
	assert.NotEmpty(t, res["requestState"])
	assert.NotContains(t, res, "content", "%s", body)

	status, body = post(t, srv.URL, `{"name":"plan_trip","arguments":{"city":"Paris","name":"Ada","email":"a@b.c","nights":2},`+meta+`}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	res = rpcResponse(t, body)["result"].(map[string]any)
	assert.Equal(t, "complete", res["resultType"])
	assert.NotEmpty(t, res["content"])
}
