package mcpsdk_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// instance serves the fixture's tools with session ids of InstanceSessionIDs(name).
func instance(t *testing.T, name string) (*httptest.Server, *mcpsdk.Handler) {
	t.Helper()
	ids, err := mcpsdk.InstanceSessionIDs(name)
	require.NoError(t, err)
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, &mcp.ServerOptions{GetSessionID: ids})
	mcpsdk.AddTool(s, fixture.NewTripFlow(&fixture.TripRecorder{}), keys())
	h := mcpsdk.NewHTTPHandler(s, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

// sessionPost posts a tools/list on session sid and returns the status and body.
func sessionPost(t *testing.T, url, sid string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Session ids name their instance ("s1.<26 base32 characters>"), so a
// balancer can route on the prefix; the session works under that id, and
// the prefix opens nothing: the id on another instance, or its random part
// under another prefix, is 404 "session not found".
func TestInstanceSessionIDs(t *testing.T) {
	s1, h1 := instance(t, "s1")
	s2, _ := instance(t, "s2")

	cs, err := legacyHTTP(t, s1.URL, "2025-11-25", always(&mcp.ElicitResult{Action: "accept", Content: good}))
	require.NoError(t, err)
	sid := cs.ID()
	assert.Regexp(t, `^s1\.[A-Z2-7]{26}$`, sid)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	assert.Contains(t, text(res), `"meal":"veg"`)
	assert.Equal(t, 1, h1.Sessions(), "the handler tracks the session under its prefixed id")

	random := strings.TrimPrefix(sid, "s1.")
	for _, c := range []struct{ url, sid, why string }{
		{s2.URL, sid, "the id on an instance that does not hold it"},
		{s2.URL, "s2." + random, "its random part under the other instance's prefix"},
		{s1.URL, "s2." + random, "the same, on the instance that holds it"},
		{s1.URL, random, "its random part alone"},
	} {
		status, body := sessionPost(t, c.url, c.sid)
		assert.Equal(t, http.StatusNotFound, status, c.why)
		assert.Contains(t, body, "session not found", c.why)
	}
	status, body := sessionPost(t, s1.URL, sid)
	assert.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, "plan_trip")
}

func TestInstanceSessionIDsNames(t *testing.T) {
	ids, err := mcpsdk.InstanceSessionIDs("")
	require.NoError(t, err)
	assert.Regexp(t, `^[A-Z2-7]{26}$`, ids(), "no instance: go-sdk's default ids")
	ids, err = mcpsdk.InstanceSessionIDs("eu-west_2")
	require.NoError(t, err)
	a, b := ids(), ids()
	assert.Regexp(t, `^eu-west_2\.[A-Z2-7]{26}$`, a)
	assert.NotEqual(t, a, b)
	for _, bad := range []string{"s.1", "s 1", "s1/", "é", strings.Repeat("a", 33), "a\n"} {
		_, err := mcpsdk.InstanceSessionIDs(bad)
		require.Error(t, err, "%q", bad)
		assert.Contains(t, err.Error(), "instance name")
		assert.Contains(t, err.Error(), mcpsdk.EnvInstance)
	}
}
