package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// demo serves book_flight on a free loopback port and drives it with a
// go-sdk client (MCP 2026-07-28) through three calls: one the user accepts,
// one they decline and one they cancel. It prints every tools/call and its
// result as they travel on the wire.
func demo(w io.Writer, keys *runtime.KeyRing) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	server := newServer(runtime.Options{Keys: keys}, bookFlightArgsHandler{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	go func() { errc <- mcpsdk.ServeHTTP(ctx, "127.0.0.1:0", server, func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-errc:
		return err
	}
	endpoint := "http://" + addr.String() + "/mcp"
	fmt.Fprintf(w, "bookflight serving %s\n", endpoint)

	httpClient := &http.Client{Transport: &wireLog{w: w, next: http.DefaultTransport}}
	client := mcp.NewClient(&mcp.Implementation{Name: "demo", Version: "1"}, &mcp.ClientOptions{
		// The demo drives the rounds itself so that each one shows.
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: httpClient}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()

	args := map[string]any{"origin": "CDG", "destination": "JFK"}
	for _, user := range []*mcp.ElicitResult{
		{Action: "accept", Content: map[string]any{"date": "2026-12-24", "window": "morning", "passengers": 2}},
		{Action: "decline"},
		{Action: "cancel"},
	} {
		fmt.Fprintf(w, "\n=== the model calls book_flight without a date; the user will %s ===\n", user.Action)
		first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: args})
		if err != nil {
			return err
		}
		if !first.NeedsInput() {
			return fmt.Errorf("expected an input-required result")
		}
		final, err := cs.CallTool(ctx, &mcp.CallToolParams{
			Name: "book_flight", Arguments: args,
			InputResponses: mcp.InputResponseMap{"book_flight": user},
			RequestState:   first.RequestState,
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "--> tool says: %s\n", final.Content[0].(*mcp.TextContent).Text)
	}
	return nil
}

// wireLog prints the JSON-RPC bodies of tools/call requests and their
// responses.
type wireLog struct {
	w    io.Writer
	next http.RoundTripper
}

func (l *wireLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Mcp-Method") != "tools/call" || req.Body == nil {
		return l.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	fmt.Fprintf(l.w, "client -> server:\n%s\n", indent(body))
	resp, err := l.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	rb, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(rb))
	for _, line := range strings.Split(string(rb), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			fmt.Fprintf(l.w, "server -> client:\n%s\n", indent([]byte(data)))
		} else if strings.HasPrefix(line, "{") {
			fmt.Fprintf(l.w, "server -> client:\n%s\n", indent([]byte(line)))
		}
	}
	return resp, nil
}

func indent(b []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, b, "  ", "  ") != nil {
		return "  " + string(b)
	}
	return "  " + out.String()
}
