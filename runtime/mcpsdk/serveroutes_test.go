package mcpsdk_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// Serve with routes of one's own: the endpoint where it was mounted,
// the added route beside it, nothing else; a clean shutdown.
func TestServeServesRoutes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := mcpsdk.NewHTTPHandler(server(keys(), &fixture.TripRecorder{}, &fixture.PicksRecorder{}), nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, mux, func(a net.Addr) { addrc <- a.String() })
	}()
	base := "http://" + <-addrc
	status, body := send(t, http.MethodPost, base+"/mcp", toolsList2026, headers2026)
	assert.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, `"tools"`)
	resp, err := http.Get(base + "/healthz")
	require.NoError(t, err)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "ok", string(got))
	resp, err = http.Get(base + "/other")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	cancel()
	require.NoError(t, <-errc)
}
