package httpserve

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeMountsHandlerAndStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "mcp") })
	go func() { errc <- Serve(ctx, "127.0.0.1:0", h, func(a net.Addr) { addrc <- a }) }()
	addr := <-addrc

	resp, err := http.Get("http://" + addr.String() + Path)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "mcp", string(body))

	resp, err = http.Get("http://" + addr.String() + "/other")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "only %s is served", Path)

	cancel()
	require.NoError(t, <-errc, "a clean shutdown returns nil")
	_, err = net.Dial("tcp", addr.String())
	assert.Error(t, err, "the listener is closed after shutdown")
}

func TestServeReportsListenError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	called := false
	err = Serve(context.Background(), ln.Addr().String(), http.NotFoundHandler(), func(net.Addr) { called = true })
	require.Error(t, err, "the address is taken")
	assert.False(t, called, "ready is not called when listening fails")
}
