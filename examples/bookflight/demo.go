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
// one they decline and one they cancel. For each step it prints one or two
// plain sentences and the message, compactly (the form's schema once, the
// state shortened); with wire it prints every tools/call and its result in
// full JSON as well. The server's round log goes to log.
func demo(w io.Writer, keys *runtime.KeyRing, wire bool, log *slog.Logger) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	server := newServer(runtime.Options{Keys: keys}, nil, bookFlightArgsHandler{}, log)
	h := mcpsdk.NewHTTPHandler(server, nil)
	go func() { errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, nil, func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-errc:
		return err
	}
	endpoint := "http://" + addr.String() + "/mcp"
	fmt.Fprintf(w, "bookflight serves the tool book_flight at %s (MCP 2026-07-28, stateless HTTP).\n", endpoint)

	seen := &wireLog{w: w, print: wire, next: http.DefaultTransport}
	httpClient := &http.Client{Transport: seen}
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
	for i, user := range []*mcp.ElicitResult{
		{Action: "accept", Content: map[string]any{"date": "2026-12-24", "window": "morning", "passengers": 2}},
		{Action: "decline"},
		{Action: "cancel"},
	} {
		fmt.Fprintf(w, "\n=== Call %d: the user will %s ===\n", i+1, user.Action)
		fmt.Fprintf(w, "1. The model calls book_flight with %s: it did not say on which day.\n", compact(args))
		fmt.Fprintf(w, "   client -> server  tools/call book_flight arguments=%s\n", compact(args))
		first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: args})
		if err != nil {
			return err
		}
		if !first.NeedsInput() {
			return fmt.Errorf("expected an input-required result")
		}
		fmt.Fprintln(w, "2. The tool lacks a date, so instead of a result it returns an input-required result:")
		fmt.Fprintln(w, "   a form for the user, and a sealed requestState (encrypted; the client cannot read it) to send back.")
		for key, ir := range first.InputRequests {
			ep, ok := ir.(*mcp.ElicitParams)
			if !ok {
				return fmt.Errorf("input request %q is %T, not a form", key, ir)
			}
			form := "the same form as in call 1"
			if i == 0 {
				// As sent: properties in the struct's field order, which
				// the client's decoding into a map would sort.
				sent, err := seen.requestedSchema(key)
				if err != nil {
					return err
				}
				form = "form " + sent
			}
			fmt.Fprintf(w, "   server -> client  input required: %q under key %q, %s,\n", ep.Message, key, form)
		}
		fmt.Fprintf(w, "                     requestState=%s\n", short(first.RequestState))
		switch user.Action {
		case "accept":
			fmt.Fprintf(w, "3. The client shows the form; the user fills it in and accepts: %s.\n", compact(user.Content))
		default:
			fmt.Fprintf(w, "3. The client shows the form; the user chooses %s.\n", user.Action)
		}
		fmt.Fprintln(w, "4. The client calls the tool again with the same arguments, the answer and the state, unchanged.")
		fmt.Fprintln(w, "   Nothing was kept on the server: any instance holding the same key can finish the call.")
		fmt.Fprintf(w, "   client -> server  tools/call book_flight arguments=%s inputResponses={\"book_flight\":%s} requestState=%s\n",
			compact(args), compact(user), short(first.RequestState))
		final, err := cs.CallTool(ctx, &mcp.CallToolParams{
			Name: "book_flight", Arguments: args,
			InputResponses: mcp.InputResponseMap{"book_flight": user},
			RequestState:   first.RequestState,
		})
		if err != nil {
			return err
		}
		text := final.Content[0].(*mcp.TextContent).Text
		fmt.Fprintf(w, "5. The server opens the state, checks that it belongs to this call, and runs the %s branch.\n", user.Action)
		fmt.Fprintf(w, "   server -> client  result: %q\n", text)
	}
	return nil
}

// compact is v as one line of JSON.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// short shortens a requestState for printing: its start and end, and its
// length.
func short(state string) string {
	if len(state) <= 24 {
		return state
	}
	return fmt.Sprintf("%s…%s (%d characters)", state[:12], state[len(state)-6:], len(state))
}

// wireLog keeps the JSON-RPC messages of the last tools/call response, and
// with print set prints every tools/call request and its response in full.
type wireLog struct {
	w     io.Writer
	print bool
	next  http.RoundTripper
	last  [][]byte
}

// requestedSchema returns, compacted and byte for byte as the server wrote
// it, the requestedSchema of the input request under key in the last
// tools/call response.
func (l *wireLog) requestedSchema(key string) (string, error) {
	for _, msg := range l.last {
		var m struct {
			Result struct {
				InputRequests map[string]struct {
					Params struct {
						RequestedSchema json.RawMessage `json:"requestedSchema"`
					} `json:"params"`
				} `json:"inputRequests"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &m) != nil {
			continue
		}
		if ir, ok := m.Result.InputRequests[key]; ok && len(ir.Params.RequestedSchema) > 0 {
			var out bytes.Buffer
			if err := json.Compact(&out, ir.Params.RequestedSchema); err != nil {
				return "", err
			}
			return out.String(), nil
		}
	}
	return "", fmt.Errorf("no requestedSchema under %q in the last response", key)
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
	if l.print {
		fmt.Fprintf(l.w, "client -> server:\n%s\n", indent(body))
	}
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
	l.last = l.last[:0]
	for _, line := range strings.Split(string(rb), "\n") {
		msg, ok := strings.CutPrefix(line, "data: ")
		if !ok && !strings.HasPrefix(line, "{") {
			continue
		}
		if !ok {
			msg = line
		}
		l.last = append(l.last, []byte(msg))
		if l.print {
			fmt.Fprintf(l.w, "server -> client:\n%s\n", indent([]byte(msg)))
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
