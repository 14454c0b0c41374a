// Package httpserve runs an MCP HTTP handler on a TCP address for the
// adapters' ServeHTTP (runtime/mcpsdk, runtime/mcpgo), so that both listen,
// time out and shut down the same way.
package httpserve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Path is where Serve mounts the handler (the Streamable HTTP endpoint).
const Path = "/mcp"

// Serve listens on addr and serves h at [Path] until ctx is done, then shuts
// down gracefully, giving open requests 5 seconds to finish. If ready is
// non-nil it receives the bound address before serving starts (useful with
// port 0). Each of onShutdown runs when shutdown starts (to end long-lived
// streams, which would otherwise hold it up). It returns the listen or serve error, or the shutdown error when
// requests were still open after the grace period; nil after a clean shutdown.
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr), onShutdown ...func()) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
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
