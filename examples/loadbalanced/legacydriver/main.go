// Command legacydriver drives book_flight through a load balancer the way
// most MCP clients still do: go-sdk's client forced to protocol 2025-11-25
// (ClientSessionOptions.ProtocolVersion), one Streamable HTTP session each
// (Mcp-Session-Id), the server asking through elicitation/create on the
// tools/call's own response stream (MCP 2025-11-25, basic/transports).
// examples/loadbalanced/run-haproxy runs it beside the stateless driver.
//
// Each session initializes, then makes -calls tool calls; each call is asked
// for the date once and accepts with the session's own date and passenger
// count, and the booking text must name exactly those. Every request of a
// session must reach the instance that holds it, so the balancer must be
// sticky on Mcp-Session-Id.
//
// Usage:
//
//	legacydriver -url http://127.0.0.1:8080/mcp [-sessions 100] [-calls 2] [-concurrency 100]
//
// It prints one line, "sessions=N completed=C calls=K errors=E elapsed=D",
// then up to ten errors, and exits 1 when any session failed, 2 on usage
// errors.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("legacydriver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("url", "", "MCP endpoint behind the load balancer, e.g. http://127.0.0.1:8080/mcp")
	sessions := fs.Int("sessions", 100, "number of sessions")
	calls := fs.Int("calls", 2, "tool calls per session, each with one accepted elicitation")
	concurrency := fs.Int("concurrency", 0, "sessions open at once (default: all)")
	version := fs.String("protocol", "2025-11-25", "protocol version the client asks for at initialize")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *endpoint == "" || *sessions < 1 || *calls < 1 || *concurrency < 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "legacydriver: need -url, -sessions >= 1, -calls >= 1 and no other arguments")
		fs.Usage()
		return 2
	}
	if *concurrency == 0 {
		*concurrency = *sessions
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	start := time.Now()
	var completed, made atomic.Int64
	var mu sync.Mutex
	var errs []error
	sem := make(chan struct{}, *concurrency)
	var wg sync.WaitGroup
	for i := 0; i < *sessions; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := session(ctx, *endpoint, *version, i, *calls, &made); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("session %d: %w", i, err))
				mu.Unlock()
				return
			}
			completed.Add(1)
		}()
	}
	wg.Wait()
	fmt.Fprintf(stdout, "sessions=%d completed=%d calls=%d errors=%d elapsed=%s\n",
		*sessions, completed.Load(), made.Load(), len(errs), time.Since(start).Round(time.Millisecond))
	for i, err := range errs {
		if i == 10 {
			fmt.Fprintf(stdout, "… and %d more\n", len(errs)-10)
			break
		}
		fmt.Fprintln(stdout, "error:", err)
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// session opens one 2025-11-25 session and makes calls tool calls on it, each
// answered (through the server's elicitation/create) with the session's own
// date and passenger count.
func session(ctx context.Context, endpoint, version string, i, calls int, made *atomic.Int64) error {
	date := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%700).Format(time.DateOnly)
	passengers := 1 + i%9
	var asked atomic.Int32
	c := mcp.NewClient(&mcp.Implementation{Name: "loadbalanced-legacydriver", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": date, "passengers": passengers}}, nil
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		return fmt.Errorf("negotiated %s, want %s", got, version)
	}
	if cs.ID() == "" {
		return fmt.Errorf("no session id")
	}
	for k := 0; k < calls; k++ {
		origin, destination := fmt.Sprintf("L%03d", i%1000), fmt.Sprintf("K%03d", (i*7+k)%1000)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book_flight",
			Arguments: map[string]any{"origin": origin, "destination": destination}})
		if err != nil {
			return fmt.Errorf("call %d: %w", k, err)
		}
		made.Add(1)
		want := fmt.Sprintf("Booked %d passenger%s from %s to %s on %s.", passengers, plural(passengers), origin, destination, date)
		if got := text(res); res.IsError || got != want {
			return fmt.Errorf("call %d: got (isError %v) %q, want %q", k, res.IsError, got, want)
		}
		if n := asked.Load(); n != int32(k+1) {
			return fmt.Errorf("call %d: asked %d times in all, want %d", k, n, k+1)
		}
	}
	return nil
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// plural is "s" unless n is 1, as the bookflight server writes its result.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
