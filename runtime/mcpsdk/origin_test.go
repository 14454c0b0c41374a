package mcpsdk_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// send makes one raw request and returns its status and body; a response
// that is an event stream is read only until its headers (its body would
// not end).
func send(t testing.TB, method, url, body string, header map[string]string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if method == http.MethodGet && resp.StatusCode == http.StatusOK {
		return resp.StatusCode, ""
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const (
	toolsList2026 = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	initialize2025 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`
	toolsList2025 = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
)

var headers2026 = map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}

// with returns h with the extra headers kv (pairs).
func with(h map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// originTransport sets Origin on every request of a go-sdk client.
type originTransport struct{ origin string }

func (o originTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Origin", o.origin)
	return http.DefaultTransport.RoundTrip(r)
}

// A request whose Origin is foreign is refused with 403 before anything
// else, on both eras, on every method of a session, and on the stateless
// handler too (MCP 2025-11-25, basic/transports: servers MUST validate
// Origin); no Origin, the request's own host, and a listed origin pass.
func TestOriginIsValidated(t *testing.T) {
	s := server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{})
	for name, h := range map[string]http.Handler{
		"sessions":  mcpsdk.NewHTTPHandler(s, nil),
		"stateless": mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{MaxSessions: -1}),
		"listed":    mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{AllowedOrigins: []string{"https://app.example"}}),
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			self := "http://" + srv.Listener.Addr().String()
			foreign := []map[string]string{
				{"Origin": "http://evil.example"},
				{"Origin": "http://evil.example:" + srv.URL[strings.LastIndex(srv.URL, ":")+1:]},
				{"Origin": "null"},
				{"Sec-Fetch-Site": "cross-site"},
			}
			for _, f := range foreign {
				status, body := send(t, http.MethodPost, srv.URL, toolsList2026, with(headers2026, mapKV(f)...))
				assert.Equal(t, http.StatusForbidden, status, "2026-07-28 %v: %s", f, body)
				assert.Contains(t, body, "HTTPOptions.AllowedOrigins", "the text names the option")
				status, body = send(t, http.MethodPost, srv.URL, initialize2025, f)
				assert.Equal(t, http.StatusForbidden, status, "2025-11-25 initialize %v: %s", f, body)
			}
			for _, ok := range []map[string]string{nil, {"Origin": self}, {"Sec-Fetch-Site": "same-origin", "Origin": self}} {
				status, body := send(t, http.MethodPost, srv.URL, toolsList2026, with(headers2026, mapKV(ok)...))
				assert.Equal(t, http.StatusOK, status, "2026-07-28 %v: %s", ok, body)
			}
			status, body := send(t, http.MethodPost, srv.URL, toolsList2026, with(headers2026, "Origin", "https://app.example"))
			if name == "listed" {
				assert.Equal(t, http.StatusOK, status, body)
			} else {
				assert.Equal(t, http.StatusForbidden, status, body)
			}

			// Real go-sdk clients: a foreign Origin cannot connect in either
			// era; the request's own origin can.
			evil := &http.Client{Transport: originTransport{"http://evil.example"}}
			own := &http.Client{Transport: originTransport{self}}
			for _, version := range []string{"2025-11-25", "2026-07-28"} {
				c := mcp.NewClient(&mcp.Implementation{Name: "origin", Version: "1"}, nil)
				cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: evil},
					&mcp.ClientSessionOptions{ProtocolVersion: version})
				if assert.Error(t, err, version) {
					assert.Contains(t, err.Error(), "Forbidden", version)
				} else {
					cs.Close()
				}
				cs, err = c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: own},
					&mcp.ClientSessionOptions{ProtocolVersion: version})
				require.NoError(t, err, version)
				_, err = cs.ListTools(context.Background(), nil)
				require.NoError(t, err, version)
				cs.Close()
			}
		})
	}
}

// Every request of an open session is guarded too: POST, the GET of its
// event stream and DELETE; the refused DELETE leaves the session open.
func TestOriginIsValidatedOnSessionRequests(t *testing.T) {
	h := mcpsdk.NewHTTPHandler(server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{}), nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(initialize2025))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	session := map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25"}
	evil := with(session, "Origin", "http://evil.example")
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		status, body := send(t, method, srv.URL, toolsList2025, evil)
		assert.Equal(t, http.StatusForbidden, status, "%s: %s", method, body)
	}
	assert.Equal(t, 1, h.Sessions(), "the refused DELETE closed nothing")
	status, body := send(t, http.MethodPost, srv.URL, toolsList2025, session)
	assert.Equal(t, http.StatusOK, status, body)
	status, _ = send(t, http.MethodGet, srv.URL, "", with(session, "Origin", "http://"+srv.Listener.Addr().String()))
	assert.Equal(t, http.StatusOK, status)
	status, body = send(t, http.MethodDelete, srv.URL, "", session)
	assert.Equal(t, http.StatusNoContent, status, body)
}

// mapKV flattens m into key, value pairs.
func mapKV(m map[string]string) []string {
	var kv []string
	for k, v := range m {
		kv = append(kv, k, v)
	}
	return kv
}

// A malformed entry of AllowedOrigins is a programming error, reported at
// construction.
func TestAllowedOriginsMustBeOrigins(t *testing.T) {
	s := server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{})
	assert.PanicsWithValue(t, `mcpgen: mcpsdk.HTTPOptions.AllowedOrigins: invalid origin "https://app.example/path": path, query, and fragment are not allowed`, func() {
		mcpsdk.NewHTTPHandler(s, &mcpsdk.HTTPOptions{AllowedOrigins: []string{"https://app.example/path"}})
	})
}

// Serve serves a handler built with its own options: a listed origin
// is served, a foreign one refused.
func TestServeKeepsOptions(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := mcpsdk.NewHTTPHandler(server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{}),
		&mcpsdk.HTTPOptions{AllowedOrigins: []string{"https://app.example"}})
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, nil, func(a net.Addr) { addrc <- a.String() })
	}()
	url := "http://" + <-addrc + "/mcp"
	status, body := send(t, http.MethodPost, url, toolsList2026, with(headers2026, "Origin", "https://app.example"))
	assert.Equal(t, http.StatusOK, status, body)
	status, body = send(t, http.MethodPost, url, toolsList2026, with(headers2026, "Origin", "https://evil.example"))
	assert.Equal(t, http.StatusForbidden, status, body)
	cancel()
	require.NoError(t, <-errc)
}
