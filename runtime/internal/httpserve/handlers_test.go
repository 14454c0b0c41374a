package httpserve_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/page"
)

// The MCP handlers and the URL-mode page bound a request's body themselves:
// mounted on a server of one's own with no timeout at all, a client that
// sends its headers and stalls in the body has its connection closed once
// the body deadline passes, as under Serve.
func TestHandlersBoundStalledBodies(t *testing.T) {
	defer httpserve.SetBodyTimeout(300 * time.Millisecond)()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	opts := &runtime.Options{Keys: runtime.EphemeralKeyRing()}
	handlers := map[string]http.Handler{
		"mcpsdk.NewHTTPHandler":           mcpsdk.NewHTTPHandler(s, nil),
		"mcpsdk.NewHTTPHandler stateless": mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1}),
		"mcpgo.NewHTTPHandler":            mcpgo.NewHTTPHandler(server.NewMCPServer("s", "1"), nil),
		"page.Handler": page.Handler(opts, page.Options{Identify: func(http.ResponseWriter, *http.Request) (string, bool) {
			return "alice", true
		}}),
	}
	for name, h := range handlers {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h) // net/http's defaults: no ReadTimeout, no deadline of Serve's
			defer srv.Close()
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			require.NoError(t, err)
			defer conn.Close()
			began := time.Now()
			_, err = io.WriteString(conn, "POST /mcp/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: "+strings.TrimPrefix(srv.URL, "http://")+
				"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
				"MCP-Protocol-Version: 2026-07-28\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
			require.NoError(t, err)
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
			_, err = io.Copy(io.Discard, conn) // until the server closes the connection
			require.NoError(t, err, "the server closed the connection (EOF); the client did not time out")
			assert.Less(t, time.Since(began), 5*time.Second)
		})
	}
}
