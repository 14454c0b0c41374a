package preview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/annotate"
)

// WriteDir writes the page into dir as index.html (creating dir) and
// returns the file's path.
func WriteDir(dir string, html []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "index.html")
	return path, os.WriteFile(path, html, 0o644)
}

// Loopback returns an error unless addr (host:port) is a loopback address
// (127.0.0.0/8, ::1 or localhost): the page shows the package's forms and
// fallback texts, for its developer only.
func Loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-serve %q: %v (give host:port, e.g. 127.0.0.1:8090)", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-serve %q: not a loopback address; the preview serves only this machine (use 127.0.0.1:PORT)", addr)
}

// loopbackHost returns an error unless host, a request's Host header (with
// or without a port), names a loopback address or localhost.
func loopbackHost(host string) error {
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "0")
	}
	return Loopback(host)
}

// Serve serves the page on addr, a loopback address, until ctx ends: each
// request of / loads the packages again, so a reload shows the code as it
// is now (a page of the diagnostics when mcpgen has some). ready, when not
// nil, is called with the listener's address once it listens.
func Serve(ctx context.Context, addr string, opts Options, ready func(addr string)) error {
	if err := Loopback(addr); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	var mu sync.Mutex // one load at a time: a load runs the go command
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/index.html" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "mcpgen preview: only GET", http.StatusMethodNotAllowed)
			return
		}
		if loopbackHost(r.Host) != nil {
			// A page of another site that resolved its name to this
			// machine (DNS rebinding) must not read the preview.
			http.Error(w, "mcpgen preview: Host must name this machine (127.0.0.1, ::1 or localhost)", http.StatusForbidden)
			return
		}
		mu.Lock()
		html, diags, err := Generate(opts)
		mu.Unlock()
		if err != nil || len(diags) > 0 {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			writeProblems(w, opts.Dir, diags, err)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		_, _ = w.Write(html)
	})}
	if ready != nil {
		ready(ln.Addr().String())
	}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// writeProblems writes diagnostics, relative to dir, or err, one a line.
func writeProblems(w io.Writer, dir string, diags []annotate.Diagnostic, err error) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for _, d := range diags {
		fmt.Fprintln(w, d.Format(dir))
	}
	if err != nil {
		fmt.Fprintln(w, "mcpgen preview:", err)
	}
}
