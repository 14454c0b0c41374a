package mcpgo_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/mcpgo"
)

// The mcp-go endpoint validates Origin as the go-sdk one does (MCP
// 2025-11-25, basic/transports: a foreign Origin is answered with 403): a
// web page on another site cannot drive a local server through the user's
// browser. No Origin, the server's own host and an allowed origin are
// served.
func TestOriginValidated(t *testing.T) {
	s := mgserver.NewMCPServer("fixture", "1", mgserver.WithToolCapabilities(false))
	for _, c := range []struct {
		name    string
		h       http.Handler
		origin  string
		allowed bool
	}{
		{"no origin", mcpgo.NewHTTPHandler(s, nil), "", true},
		{"foreign", mcpgo.NewHTTPHandler(s, nil), "http://evil.example", false},
		{"own host", mcpgo.NewHTTPHandler(s, nil), "http://{host}", true},
		{"listed", mcpgo.NewHTTPHandler(s, &mcpgo.HTTPOptions{AllowedOrigins: []string{"https://app.example"}}), "https://app.example", true},
		{"not listed", mcpgo.NewHTTPHandler(s, &mcpgo.HTTPOptions{AllowedOrigins: []string{"https://app.example"}}), "https://other.example", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if c.origin != "" {
				req.Header.Set("Origin", strings.ReplaceAll(c.origin, "{host}", strings.TrimPrefix(srv.URL, "http://")))
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if c.allowed {
				assert.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
				return
			}
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s", body)
			assert.Contains(t, string(body), "is not allowed")
			assert.Contains(t, string(body), "mcpgo.HTTPOptions.AllowedOrigins")
		})
	}
}
