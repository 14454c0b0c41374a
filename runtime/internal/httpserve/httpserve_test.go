package httpserve

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeMountsHandlerAndStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "mcp") })
	go func() { errc <- Serve(ctx, "127.0.0.1:0", At(h), nil, func(a net.Addr) { addrc <- a }) }()
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
	err = Serve(context.Background(), ln.Addr().String(), http.NotFoundHandler(), nil, func(net.Addr) { called = true })
	require.Error(t, err, "the address is taken")
	assert.False(t, called, "ready is not called when listening fails")
}

// start runs serve on a free loopback port with the body deadline body and
// returns the address.
func start(t *testing.T, h http.Handler, srv *http.Server, body time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() { errc <- serve(ctx, "127.0.0.1:0", At(h), srv, body, func(a net.Addr) { addrc <- a }) }()
	addr := (<-addrc).String()
	t.Cleanup(func() { cancel(); <-errc })
	return addr
}

// A client that sends its headers and then stalls in the body has its
// connection closed once the body deadline passes.
func TestStalledBodyIsClosed(t *testing.T) {
	read := make(chan error, 1)
	addr := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		read <- err
	}), nil, 300*time.Millisecond)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	began := time.Now()
	_, err = io.WriteString(conn, "POST "+Path+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err = io.Copy(io.Discard, conn) // until the server closes the connection
	require.NoError(t, err, "the server closed the connection (EOF), the client did not time out")
	took := time.Since(began)
	assert.GreaterOrEqual(t, took, 300*time.Millisecond)
	assert.Less(t, took, 3*time.Second)
	var ne net.Error
	assert.ErrorAs(t, <-read, &ne, "the handler's read of the stalled body failed")
}

// The body deadline is lifted once the body is read: a response that
// streams for longer (an older client's session stream), and a GET stream
// without a body, are not cut.
func TestLongStreamsAreNotCut(t *testing.T) {
	addr := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		for i := 0; i < 8; i++ {
			_, _ = io.WriteString(w, "data: tick\n\n")
			_ = http.NewResponseController(w).Flush()
			time.Sleep(100 * time.Millisecond)
		}
	}), nil, 200*time.Millisecond)
	for _, method := range []string{http.MethodPost, http.MethodGet} {
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader(`{"jsonrpc":"2.0"}`)
		}
		req, err := http.NewRequest(method, "http://"+addr+Path, body)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err, method)
		assert.Equal(t, 8, strings.Count(string(b), "tick"), "%s: the whole 800 ms stream arrived", method)
	}
}

// Without a server of the caller's, headers are bounded by MaxHeaderBytes;
// a caller's own *http.Server brings its own limits.
func TestServerDefaultsAndOwnServer(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "mcp") })
	get := func(addr string, header int) int {
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+Path, nil)
		require.NoError(t, err)
		req.Header.Set("X-Big", strings.Repeat("a", header))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	addr := start(t, ok, nil, BodyTimeout)
	assert.Equal(t, http.StatusOK, get(addr, 1000))
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, get(addr, 2*MaxHeaderBytes))

	own := &http.Server{MaxHeaderBytes: 1 << 20, ReadHeaderTimeout: time.Second}
	addr = start(t, ok, own, BodyTimeout)
	assert.Equal(t, http.StatusOK, get(addr, 2*MaxHeaderBytes), "the caller's server, with its own limit")
	assert.NotNil(t, own.Handler, "Serve mounted its handler on the caller's server")
}

// A connection dialled and never used (net/http's Transport dials ahead)
// does not hold the shutdown for its grace period; the server's own
// ConnState hook still sees every change.
func TestShutdownClosesConnectionsThatSentNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	states := make(chan http.ConnState, 16)
	srv := &http.Server{ConnState: func(_ net.Conn, st http.ConnState) { states <- st }}
	go func() {
		errc <- Serve(ctx, "127.0.0.1:0", http.NotFoundHandler(), srv, func(a net.Addr) { addrc <- a })
	}()
	conn, err := net.Dial("tcp", (<-addrc).String())
	require.NoError(t, err)
	defer conn.Close()
	assert.Equal(t, http.StateNew, <-states, "the server's own hook is kept")

	cancel()
	require.NoError(t, <-errc, "an unused connection is closed, not waited for")
	assert.Equal(t, http.StateClosed, <-states)
	_, err = conn.Read(make([]byte, 1))
	assert.Error(t, err, "the server closed the connection")
}
