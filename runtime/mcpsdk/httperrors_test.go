package mcpsdk_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

// An argument holding a number beyond a float64 (which go-sdk decodes
// arguments into, so that it refuses the whole params) is -32602 naming
// that argument by its path, not name or requestState, with HTTP 400; no
// branch runs. On a 2025-11-25 session the same argument reaches the flow,
// which names it in a tool error.
func TestOutOfRangeNumberNamesTheArgument(t *testing.T) {
	trip := &fixture.TripRecorder{}
	s := server(keys(), trip, &fixture.PicksRecorder{})
	for name, h := range map[string]http.Handler{"sessions": mcpsdk.NewHTTPHandler(s, nil), "stateless": mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1})} {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		for args, want := range map[string]string{
			`{"city":"Paris","budget":1e400}`:            "arguments.budget: number 1e400 is out of range",
			`{"city":"Paris","tags":["a",-1e999]}`:       "arguments.tags[1]: number -1e999 is out of range",
			`{"city":"Paris","the plan":{"days":9e999}}`: `arguments["the plan"].days: number 9e999 is out of range`,
		} {
			status, body := post(t, srv.URL, `{"name":"plan_trip","arguments":`+args+`,`+meta2026+`}`)
			assert.Equal(t, http.StatusBadRequest, status, "%s %s: %s", name, args, body)
			m := rpcResponse(t, body)
			assert.EqualValues(t, 7, m["id"])
			e, ok := m["error"].(map[string]any)
			require.True(t, ok, "%s", body)
			assert.EqualValues(t, -32602, e["code"])
			assert.Equal(t, "invalid params for tools/call: "+want+" (a JSON number here must fit a 64-bit float)", e["message"], name)
		}
	}
	assert.Zero(t, trip.Count())

	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	legacy, status, body := openRaw(t, http.DefaultClient, srv.URL, nil)
	require.Equal(t, http.StatusOK, status, body)
	code, msg, result := rawCall(t, legacy, `{"name":"plan_trip","arguments":{"city":"Paris","budget":1e400}}`)
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, msg+result, "invalid arguments: budget: must be an integer, got 1e400")
	assert.Zero(t, trip.Count())
}

// rawCall posts a tools/call with params on a raw session and returns the
// HTTP status and the JSON-RPC error message or result text of its answer.
func rawCall(t *testing.T, s *rawSession, params string) (status int, errMessage, result string) {
	t.Helper()
	resp := s.do(context.Background(), http.MethodPost, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":`+params+`}`)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"jsonrpc"`) {
		return resp.StatusCode, string(b), ""
	}
	m := rpcResponse(t, b)
	if e, ok := m["error"].(map[string]any); ok {
		return resp.StatusCode, e["message"].(string), ""
	}
	r, _ := json.Marshal(m["result"])
	return resp.StatusCode, "", string(r)
}

// The HTTP status of a JSON-RPC error depends on its code and the request's
// protocol only. 2026-07-28 (MCP 2026-07-28 basic/transports, as go-sdk
// implements it): -32602, -32020, -32021 and -32022 are HTTP 400, -32601 is
// 404, any other code 200. Before 2026-07-28 (a session's stream): 200,
// whatever the code.
func TestJSONRPCErrorStatuses(t *testing.T) {
	noUser := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil // no UserID: -32603
	}
	s := server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{})
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	authed := httptest.NewServer(auth.RequireBearerToken(noUser, nil)(mcpsdk.NewHTTPHandler(s, nil)))
	t.Cleanup(authed.Close)

	call := func(url, method, name, params string, header ...string) (int, float64) {
		t.Helper()
		h := with(map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name}, header...)
		status, body := send(t, http.MethodPost, url, `{"jsonrpc":"2.0","id":7,"method":"`+method+`","params":`+params+`}`, h)
		e, ok := rpcResponse(t, []byte(body))["error"].(map[string]any)
		require.True(t, ok, "%s", body)
		return status, e["code"].(float64)
	}
	trip := func(rest string) string { return `{"name":"plan_trip",` + rest + meta2026 + `}` }
	for name, c := range map[string]struct {
		url, method, name, params string
		header                    []string
		code                      float64
		status                    int
	}{
		"unknown tool":                {srv.URL, "tools/call", "nope", `{"name":"nope","arguments":{},` + meta2026 + `}`, nil, -32602, 400},
		"unknown prompt":              {srv.URL, "prompts/get", "nope", `{"name":"nope",` + meta2026 + `}`, nil, -32602, 400},
		"arguments not an object":     {srv.URL, "tools/call", "plan_trip", trip(`"arguments":[1],`), nil, -32602, 400},
		"requestState forged":         {srv.URL, "tools/call", "plan_trip", trip(`"arguments":{"city":"Paris"},"requestState":"zz",`), nil, -32602, 400},
		"requestState not a string":   {srv.URL, "tools/call", "plan_trip", trip(`"arguments":{"city":"Paris"},"requestState":5,`), nil, -32602, 400},
		"argument out of range":       {srv.URL, "tools/call", "plan_trip", trip(`"arguments":{"city":"Paris","budget":1e400},`), nil, -32602, 400},
		"Mcp-Name mismatch":           {srv.URL, "tools/call", "pick_seats", trip(`"arguments":{"city":"Paris"},`), nil, -32020, 400},
		"method not found":            {srv.URL, "nope/nope", "", `{` + meta2026 + `}`, nil, -32601, 404},
		"authenticated, no principal": {authed.URL, "tools/call", "plan_trip", trip(`"arguments":{"city":"Paris"},`), []string{"Authorization", "Bearer x"}, -32603, 200},
	} {
		status, code := call(c.url, c.method, c.name, c.params, c.header...)
		assert.Equal(t, c.code, code, name)
		assert.Equal(t, c.status, status, "2026-07-28 %s (%v)", name, code)
	}

	legacy, status, body := openRaw(t, http.DefaultClient, srv.URL, nil)
	require.Equal(t, http.StatusOK, status, body)
	for name, params := range map[string]string{
		"unknown tool":            `{"name":"nope","arguments":{}}`,
		"arguments not an object": `{"name":"plan_trip","arguments":[1]}`,
		"requestState forged":     `{"name":"plan_trip","arguments":{"city":"Paris"},"requestState":"zz"}`,
		"name not a string":       `{"name":5}`,
	} {
		status, msg, _ := rawCall(t, legacy, params)
		assert.NotEmpty(t, msg, name)
		assert.Equal(t, http.StatusOK, status, "2025-11-25 %s: %s", name, msg)
	}
}

// A hostile request cannot make its error response as large as itself: a
// number of a million digits, or a key of 30 KB sent twice (within the
// arguments' 64 KiB), is quoted in the -32602 message by its first bytes and
// its length.
func TestErrorsClipWhatTheyQuote(t *testing.T) {
	trip := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	huge := "1" + strings.Repeat("0", 999_999)
	key := strings.Repeat("k", 30_000)
	for name, tc := range map[string]struct {
		args, want string
		status     int
	}{
		"a million-digit number": {`{"city":"Paris","budget":` + huge + `}`, "arguments.budget: number 1000000000", http.StatusBadRequest},
		"a huge key twice":       {`{"city":"Paris","` + key + `":1,"` + key + `":2}`, `have the key \"kkkk`, http.StatusBadRequest},
		// A tool error, from the generated decoding of the argument.
		"an integer with a 60 KB fraction": {`{"city":"Paris","budget":1.` + strings.Repeat("0", 60_000) + `1}`, "must be an integer, got 1.000", http.StatusOK},
	} {
		status, body := post(t, srv.URL, `{"name":"plan_trip","arguments":`+tc.args+`,`+meta2026+`}`)
		assert.Less(t, len(body), 4096, "%s: a %d-byte response", name, len(body))
		assert.Equal(t, tc.status, status, name)
		assert.Contains(t, string(body), tc.want, name)
		assert.Contains(t, string(body), " bytes)", name)
	}
	assert.Zero(t, trip.Count())
}
