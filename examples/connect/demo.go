package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
)

// demo serves connect on a free loopback port and drives it with go-sdk
// clients (MCP 2026-07-28) as alice and bob, printing each case. Each
// client's elicitation handler plays the user: it "opens" the URL-mode
// link with a browser (an HTTP client with a cookie jar): signs in on the
// development sign-in page, reads the page's form and posts the API key, or
// declines or cancels without opening it.
func demo(w io.Writer, keys *runtime.KeyRing) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	opts := runtime.Options{Keys: keys}
	if opts.PageURL, err = pageURLFor(ln.Addr(), ""); err != nil {
		return err
	}
	a := newApp(opts, newFakeContacts(), vaultFor(opts, nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
	errc := make(chan error, 1)
	go func() { errc <- serve(ctx, ln, a) }()
	defer func() { cancel(); <-errc }()
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	fmt.Fprintf(w, "connect serving %s (bearer tokens alice-token, bob-token), its page at %s\n", endpoint, opts.PageURL)

	aliceBrowser, bobBrowser := newBrowser("alice", "alice-password"), newBrowser("bob", "bob-password")
	// user is what each client's elicitation handler does with a URL-mode
	// request; each case sets it.
	var user func(er *mcp.ElicitParams) (*mcp.ElicitResult, error)
	handler := func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		er := req.Params
		fmt.Fprintf(w, "    asked (%s mode): %s\n", er.Mode, strings.Join(strings.Fields(er.Message), " "))
		fmt.Fprintf(w, "    link: %s\n", er.URL)
		return user(er)
	}
	alice, err := demoClient(ctx, endpoint, "alice-token", handler)
	if err != nil {
		return err
	}
	defer alice.Close()
	bob, err := demoClient(ctx, endpoint, "bob-token", handler)
	if err != nil {
		return err
	}
	defer bob.Close()
	importAs := func(cs *mcp.ClientSession) error {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "import_contacts"})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "--> %s\n", demoText(res))
		return nil
	}
	// enter opens the link in b, shows what it says, and posts key.
	enter := func(b *browser, link, key string) error {
		v, err := b.Open(link)
		if err != nil {
			return err
		}
		if v.Form == nil || v.Form.Values.Get("csrf_token") == "" {
			return fmt.Errorf("%s: no form on the page (HTTP %d)", link, v.Status)
		}
		fmt.Fprintf(w, "    browser: signed in as %s; the page asks for %q\n", b.user, formFields(v.Form))
		v.Form.Values.Set("api_key", key)
		v, err = b.Submit(v.Form)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "    browser: posts a key: HTTP %d %q\n", v.Status, v.Heading)
		return nil
	}
	accepted := &mcp.ElicitResult{Action: "accept"}

	fmt.Fprintln(w, "\n=== alice imports; she declines to give a key")
	user = func(*mcp.ElicitParams) (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: "decline"}, nil }
	if err := importAs(alice); err != nil {
		return err
	}

	fmt.Fprintln(w, "\n=== alice imports; she dismisses the request")
	user = func(*mcp.ElicitParams) (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: "cancel"}, nil }
	if err := importAs(alice); err != nil {
		return err
	}

	fmt.Fprintln(w, "\n=== alice imports; she mistypes her key, then enters ck-alice-123")
	keys2 := []string{"ck-alice-999", "ck-alice-123"}
	user = func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		key := keys2[0]
		keys2 = keys2[1:]
		return accepted, enter(aliceBrowser, er.URL, key)
	}
	if err := importAs(alice); err != nil {
		return err
	}

	fmt.Fprintln(w, "\n=== alice imports again: the server kept her key, nothing is asked")
	user = func(*mcp.ElicitParams) (*mcp.ElicitResult, error) { return nil, errors.New("asked again") }
	if err := importAs(alice); err != nil {
		return err
	}

	fmt.Fprintln(w, "\n=== bob imports; his link opened in alice's browser, a post without the CSRF token, his own key, the link reopened")
	user = func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		v, err := aliceBrowser.Open(er.URL)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "    alice's browser opens it: HTTP %d %q\n", v.Status, v.Heading)
		v, err = bobBrowser.Open(er.URL)
		if err != nil {
			return nil, err
		}
		if v.Form == nil {
			return nil, fmt.Errorf("no form for bob (HTTP %d)", v.Status)
		}
		forged := &htmlForm{Action: v.Form.Action, Values: map[string][]string{"api_key": {"ck-bob-456"}}}
		if v, err = bobBrowser.Submit(forged); err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "    bob's browser posts without csrf_token: HTTP %d %q\n", v.Status, v.Heading)
		if err := enter(bobBrowser, er.URL, "ck-bob-456"); err != nil {
			return nil, err
		}
		if v, err = bobBrowser.Open(er.URL); err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "    bob's browser reopens the link: HTTP %d %q\n", v.Status, v.Heading)
		return accepted, nil
	}
	if err := importAs(bob); err != nil {
		return err
	}

	fmt.Fprintln(w, "\n=== a client with an unknown token")
	resp, err := devauth.Client("mallory-token").Post(endpoint, "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		return err
	}
	resp.Body.Close()
	fmt.Fprintf(w, "--> HTTP %s\n", resp.Status)
	return nil
}

// demoClient connects a 2026-07-28 client that declares URL-mode
// elicitation and answers input requests with handler, retrying by itself
// (go-sdk's multi-round-trip), sending token.
func demoClient(ctx context.Context, endpoint, token string,
	handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "demo", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: handler,
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
		}},
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
	if res.IsError {
		return "tool error: " + strings.Join(parts, "")
	}
	return strings.Join(parts, "")
}

// formFields lists the names of f's inputs the user fills (not the hidden
// CSRF token).
func formFields(f *htmlForm) string {
	var names []string
	for name := range f.Values {
		if name != "csrf_token" {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}
