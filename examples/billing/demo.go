package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// demo serves billing on a free loopback port, behind the development
// bearer tokens, and drives it with go-sdk clients (MCP 2026-07-28) as alice
// and bob, printing each case: what was asked, what was answered and what
// the tool said.
func demo(w io.Writer, keys *runtime.KeyRing) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	server := newServer(runtime.Options{Keys: keys}, newMemoryLedger(), nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h := mcpsdk.NewHTTPHandler(server, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", devauth.Middleware()(h))
	go func() { errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, mux, func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-errc:
		return err
	}
	endpoint := "http://" + addr.String() + "/mcp"
	fmt.Fprintf(w, "billing serving %s (bearer tokens alice-token, bob-token)\n", endpoint)
	alice, err := demoClient(ctx, endpoint, "alice-token")
	if err != nil {
		return err
	}
	defer alice.Close()
	bob, err := demoClient(ctx, endpoint, "bob-token")
	if err != nil {
		return err
	}
	defer bob.Close()

	pay := func(cs *mcp.ClientSession, args map[string]any, answer *mcp.ElicitResult, state string) (*mcp.CallToolResult, error) {
		p := &mcp.CallToolParams{Name: "pay_invoice", Arguments: args, RequestState: state}
		if answer != nil {
			p.InputResponses = mcp.InputResponseMap{"pay_invoice": answer}
		}
		return cs.CallTool(ctx, p)
	}
	// ask makes the first call and prints the question; it fails when the
	// call completed instead.
	ask := func(cs *mcp.ClientSession, args map[string]any) (*mcp.CallToolResult, error) {
		res, err := pay(cs, args, nil, "")
		if err != nil {
			return nil, err
		}
		if !res.NeedsInput() {
			return nil, fmt.Errorf("expected a question, got %q", demoText(res))
		}
		for key, ir := range res.InputRequests {
			er, _ := ir.(*mcp.ElicitParams)
			if er == nil {
				continue
			}
			fmt.Fprintf(w, "    asked (%s): %s\n", key, strings.ReplaceAll(er.Message, "\n", " "))
			fmt.Fprintf(w, "    options: %s\n", demoOptions(er))
		}
		return res, nil
	}
	inv1 := map[string]any{"invoice": "INV-1", "amount": 120.5}

	fmt.Fprintln(w, "\n=== alice pays INV-1 (120.50) without an account; she picks sav-002")
	first, err := ask(alice, inv1)
	if err != nil {
		return err
	}
	yes := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"account": "sav-002"}}
	res, err := pay(alice, inv1, yes, first.RequestState)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "--> %s\n", demoText(res))

	fmt.Fprintln(w, "\n=== the same accepted retry replayed 5 times")
	for range 5 {
		res, err := pay(alice, inv1, yes, first.RequestState)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "--> %s\n", demoText(res))
	}

	fmt.Fprintln(w, "\n=== bob retries alice's call with her requestState")
	_, err = pay(bob, inv1, yes, first.RequestState)
	fmt.Fprintf(w, "--> %s\n", demoError(err))

	fmt.Fprintln(w, "\n=== bob pays INV-2 (80) without an account: he has one, so he is not asked")
	res, err = pay(bob, map[string]any{"invoice": "INV-2", "amount": 80}, nil, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "--> %s\n", demoText(res))

	fmt.Fprintln(w, "\n=== alice pays INV-3 and answers bob's chk-900, then declines")
	inv3 := map[string]any{"invoice": "INV-3", "amount": 9.99}
	first, err = ask(alice, inv3)
	if err != nil {
		return err
	}
	res, err = pay(alice, inv3, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"account": "chk-900"}}, first.RequestState)
	if err != nil {
		return err
	}
	again := ""
	for key, ir := range res.InputRequests {
		if er, ok := ir.(*mcp.ElicitParams); ok {
			again = key
			fmt.Fprintf(w, "    asked again (%s): %s\n", key, strings.ReplaceAll(er.Message, "\n", " "))
		}
	}
	res, err = alice.CallTool(ctx, &mcp.CallToolParams{Name: "pay_invoice", Arguments: inv3,
		InputResponses: mcp.InputResponseMap{again: &mcp.ElicitResult{Action: "decline"}}, RequestState: res.RequestState})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "--> %s\n", demoText(res))

	fmt.Fprintln(w, "\n=== alice pays INV-4 and cancels the form")
	inv4 := map[string]any{"invoice": "INV-4", "amount": 5}
	first, err = ask(alice, inv4)
	if err != nil {
		return err
	}
	res, err = pay(alice, inv4, &mcp.ElicitResult{Action: "cancel"}, first.RequestState)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "--> %s\n", demoText(res))

	fmt.Fprintln(w, "\n=== alice passes bob's account as an argument")
	res, err = pay(alice, map[string]any{"invoice": "INV-5", "amount": 1, "account": "chk-900"}, nil, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "--> tool error %v: %s\n", res.IsError, demoText(res))

	fmt.Fprintln(w, "\n=== a client with an unknown token")
	resp, err := devauth.Client("mallory-token").Post(endpoint, "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		return err
	}
	resp.Body.Close()
	fmt.Fprintf(w, "--> HTTP %s\n", resp.Status)

	for _, who := range []struct {
		name string
		cs   *mcp.ClientSession
	}{{"alice", alice}, {"bob", bob}} {
		fmt.Fprintf(w, "\n=== %s calls charges\n", who.name)
		res, err := who.cs.CallTool(ctx, &mcp.CallToolParams{Name: "charges"})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "--> %s\n", strings.ReplaceAll(demoText(res), "\n", "\n--> "))
	}
	return nil
}

// demoClient connects a 2026-07-28 client that drives the rounds itself and
// sends token.
func demoClient(ctx context.Context, endpoint, token string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "demo", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: devauth.Client(token)}, nil)
}

func demoText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "")
}

// demoOptions lists the titled options of the account select.
func demoOptions(er *mcp.ElicitParams) string {
	schema, ok := er.RequestedSchema.(map[string]any)
	if !ok {
		return fmt.Sprintf("%v", er.RequestedSchema)
	}
	props, _ := schema["properties"].(map[string]any)
	account, _ := props["account"].(map[string]any)
	alts, _ := account["oneOf"].([]any)
	var out []string
	for _, a := range alts {
		m, _ := a.(map[string]any)
		out = append(out, fmt.Sprintf("%v %q", m["const"], m["title"]))
	}
	return strings.Join(out, ", ")
}

func demoError(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return fmt.Sprintf("JSON-RPC error %d: %s", je.Code, je.Message)
	}
	return fmt.Sprintf("%v", err)
}
