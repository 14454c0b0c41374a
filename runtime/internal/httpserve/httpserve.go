// Package httpserve runs an MCP HTTP handler on a TCP address for
// runtime/mcpsdk's Serve, and holds what the adapters'
// handlers share (runtime/mcpsdk, runtime/mcpgo): the Origin guard, the body
// deadline, the client's address.
package httpserve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Path is where [At] mounts the Streamable HTTP endpoint.
const Path = "/mcp"

// At returns a mux that serves h at [Path] and nothing else (404).
func At(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	return mux
}

// Defaults of the *http.Server that Serve builds when it is given none.
const (
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout = 10 * time.Second
	// BodyTimeout bounds reading a request's body, from the end of its
	// headers to its end; a connection whose body stalls longer is closed.
	// It is set per request (http.ResponseController) and lifted once the
	// body has been read, so that the response streams of older clients'
	// sessions (SSE, open for as long as the session) are never cut: a
	// global ReadTimeout or WriteTimeout would cut them.
	BodyTimeout = 30 * time.Second
	// IdleTimeout closes a keep-alive connection that carries no request
	// for this long.
	IdleTimeout = 2 * time.Minute
	// MaxHeaderBytes bounds a request's header block.
	MaxHeaderBytes = 64 << 10
)

// Serve listens on addr and serves h (the whole server: [At] mounts one
// endpoint at [Path]; a mux of one's own, the endpoint and other routes)
// until ctx is done, then shuts
// down gracefully, giving open requests 5 seconds to finish. srv, when
// non-nil, is the server to run, with its own timeouts and limits (its
// Handler is replaced); when nil, a server with the defaults above is used.
// Either way every request's body must arrive within [BodyTimeout]. If ready
// is non-nil it receives the bound address before serving starts (useful
// with port 0). Each of onShutdown runs when shutdown starts (to end
// long-lived streams, which would otherwise hold it up). It returns the
// listen or serve error, or the shutdown error when requests were still
// open after the grace period; nil after a clean shutdown.
func Serve(ctx context.Context, addr string, h http.Handler, srv *http.Server, ready func(net.Addr), onShutdown ...func()) error {
	return serve(ctx, addr, h, srv, BodyTimeout, ready, onShutdown...)
}

func serve(ctx context.Context, addr string, h http.Handler, srv *http.Server, body time.Duration, ready func(net.Addr), onShutdown ...func()) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if srv == nil {
		srv = &http.Server{ReadHeaderTimeout: ReadHeaderTimeout, IdleTimeout: IdleTimeout, MaxHeaderBytes: MaxHeaderBytes}
	}
	// A GET is a standalone SSE stream (MCP 2025-11-25 and 2026-07-28,
	// basic/transports, Streamable HTTP): it carries no work to finish, only
	// waits, so it ends when shutdown starts instead of holding it up for
	// the whole grace period (a client may open one as it closes).
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	srv.Handler = bodyDeadline(endOnShutdown(h, streams), body)
	srv.RegisterOnShutdown(endStreams)
	srv.RegisterOnShutdown(trackNew(srv))
	for _, f := range onShutdown {
		srv.RegisterOnShutdown(f)
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return fmt.Errorf("mcpgen: HTTP shutdown: %w", err)
		}
		return nil
	}
}

// trackNew follows srv's connections that have not yet delivered a request
// (http.StateNew, keeping any ConnState hook srv already has) and returns the
// function that closes them. A client's transport may dial a connection it
// then never uses (net/http's Transport dials while waiting for an idle one);
// Shutdown treats such a connection as busy for 5 seconds, the whole grace
// period, and would fail. Closing it when shutdown starts loses nothing: no
// request on it has been read, so none has run.
func trackNew(srv *http.Server) func() {
	var mu sync.Mutex
	fresh := map[net.Conn]struct{}{}
	next := srv.ConnState
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		mu.Lock()
		if st == http.StateNew {
			fresh[c] = struct{}{}
		} else {
			delete(fresh, c)
		}
		mu.Unlock()
		if next != nil {
			next(c, st)
		}
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		for c := range fresh {
			c.Close()
		}
	}
}

// endOnShutdown ends the context of every GET request when streams is done.
func endOnShutdown(h http.Handler, streams context.Context) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			stop := context.AfterFunc(streams, cancel)
			defer stop()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	})
}

// bodyTimeout is the deadline [BodyDeadline] sets: [BodyTimeout], shorter
// in tests.
var bodyTimeout = BodyTimeout

// BodyDeadline gives r's body the deadline [Serve] applies: it must arrive
// within [BodyTimeout] from now, else the handler's read fails and the
// connection is closed. The MCP handlers and the URL-mode page call it
// first, so that a handler mounted on a server of the user's own (which has
// no ReadTimeout, as the response streams of older clients' sessions
// require) is not held open by a stalled body either. It sets r.Body.
func BodyDeadline(w http.ResponseWriter, r *http.Request) { setBodyDeadline(w, r, bodyTimeout) }

// setBodyDeadline sets the connection's read deadline d from now when r has
// a body, and wraps r.Body so that the deadline is lifted when the body
// reaches its end: a stalled body fails the read while a long response
// stream is not cut.
func setBodyDeadline(w http.ResponseWriter, r *http.Request, d time.Duration) {
	if d > 0 && r.Body != nil && r.Body != http.NoBody {
		if _, done := r.Body.(*deadlineBody); done {
			return // Serve set it already
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(d)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
	}
}

// bodyDeadline is h with setBodyDeadline(d) on every request.
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setBodyDeadline(w, r, d)
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline once the body has been read.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}
