package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/devauth"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// A package whose pay tool chooses among the caller's own accounts (as
// examples/billing's pay_invoice does) and whose connect tool asks a
// URL-mode question.
const (
	payAndConnect = `package main

// PayArgs are the arguments of the pay tool.
//
//mcpgen:tool pay Pay an invoice from one of the caller's accounts.
type PayArgs struct {
	Invoice string ` + "`" + `json:"invoice"` + "`" + `
	Account string ` + "`" + `json:"account,omitempty" elicit:"choices,title=Account"` + "`" + `
}

// ConnectArgs are the arguments of the connect tool.
//
//mcpgen:tool connect Connect the caller's service account.
type ConnectArgs struct{}

// APIKey is asked on the server's own page.
//
//mcpgen:question url
//mcpgen:message Enter your API key.
type APIKey struct {
	Key string ` + "`" + `json:"api_key" elicit:"title=API key"` + "`" + `
}
`
	payHandler = `package main

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

var accounts = map[string][]runtime.Choice{
	"alice": {{Value: "chk-1", Title: "Checking"}, {Value: "sav-2", Title: "Savings"}},
	"bob":   {{Value: "chk-9", Title: "Checking"}},
}

type payArgsHandler struct{}

func (payArgsHandler) AccountChoices(ctx context.Context, _ *PayArgs) ([]runtime.Choice, error) {
	return accounts[runtime.Principal(ctx)], nil
}

func (payArgsHandler) Accept(ctx context.Context, a *PayArgs) (*runtime.Result, error) {
	return runtime.Textf("%s paid %s from %s", runtime.Principal(ctx), a.Invoice, a.Account), nil
}

func (payArgsHandler) Decline(context.Context, *PayArgs, []string) (*runtime.Result, error) {
	return runtime.Text("declined"), nil
}

func (payArgsHandler) Cancel(context.Context, *PayArgs) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}
`
	connectHandler = `package main

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

type connectArgsHandler struct{}

func (connectArgsHandler) Accept(ctx context.Context, _ *ConnectArgs) (*runtime.Result, error) {
	var q APIKey
	action, err := runtime.Ask(ctx, "api_key", &q, nil)
	if err != nil || action != runtime.Accept {
		return runtime.Text("no key"), err
	}
	return runtime.Textf("%s connected with a key of %d characters", runtime.Principal(ctx), len(q.Key)), nil
}

func (connectArgsHandler) Decline(context.Context, *ConnectArgs, []string) (*runtime.Result, error) {
	return runtime.Text("declined"), nil
}

func (connectArgsHandler) Cancel(context.Context, *ConnectArgs) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}
`
)

// The main mcpgen init writes for a package with a URL-mode question, built
// and run as a newcomer would: over stdio a call gets MCPGEN_PRINCIPAL as
// its principal, so a tool that offers the caller's own accounts asks alice
// among hers and picks bob's only one without asking; over HTTP the page is
// mounted with the development sign-in (a link opened without a session
// goes to /login; signed in, the page takes the key and the retry
// completes), a non-loopback address is refused before anything is served,
// and MCPGEN_INSTANCE prefixes an older client's session id.
func TestInitStdioPrincipalAndURLPage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	dir := newModule(t, map[string]string{
		"tools.go":               payAndConnect,
		"payargs_handler.go":     payHandler,
		"connectargs_handler.go": connectHandler,
	})
	code, _, stderr := mcpgen(t) // the generated files
	require.Equal(t, 0, code, stderr)
	code, _, stderr = mcpgen(t, "init")
	require.Equal(t, 0, code, stderr)
	main, err := os.ReadFile(filepath.Join(dir, "main.go"))
	require.NoError(t, err)
	assert.Contains(t, string(main), "URL-mode questions (APIKey)")
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := commandIn(t, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build of the main mcpgen init wrote: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	t.Run("stdio", func(t *testing.T) {
		for _, c := range []struct {
			principal string
			asked     int
			want      string
		}{
			{"alice", 1, "alice paid INV-1 from sav-2"},
			{"bob", 0, "bob paid INV-1 from chk-9"},
		} {
			cmd := exec.Command(bin, "-stdio")
			cmd.Env = append(os.Environ(), mcpsdk.EnvPrincipal+"="+c.principal, "MCPGEN_STATE_KEYS=", "MCPGEN_REDIS_URL=")
			var asked []map[string]any
			cl := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					schema, _ := r.Params.RequestedSchema.(map[string]any)
					asked = append(asked, schema)
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"account": "sav-2"}}, nil
				},
			})
			cs, err := cl.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			require.NoError(t, err)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"invoice": "INV-1"}})
			require.NoError(t, err)
			require.Len(t, res.Content, 1)
			assert.Equal(t, c.want, res.Content[0].(*mcp.TextContent).Text, c.principal)
			require.Len(t, asked, c.asked, c.principal)
			if c.asked > 0 {
				assert.Contains(t, fmt.Sprint(asked[0]), "chk-1", "alice's own accounts offered")
				assert.NotContains(t, fmt.Sprint(asked[0]), "chk-9", "not bob's")
			}
			require.NoError(t, cs.Close())
		}
	})

	t.Run("http", func(t *testing.T) {
		out, err := exec.Command(bin, "-http", "0.0.0.0:0").CombinedOutput()
		assert.Error(t, err)
		assert.Contains(t, string(out), "refusing to serve development bearer tokens")

		srv := exec.Command(bin, "-http", "127.0.0.1:0")
		srv.Env = append(os.Environ(), "MCPGEN_STATE_KEYS=", "MCPGEN_REDIS_URL=", "MCPGEN_PAGE_URL=", mcpsdk.EnvInstance+"=s7")
		logs, err := srv.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, srv.Start())
		t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
		lines := bufio.NewScanner(logs)
		var endpoint, page, seen string
		for endpoint == "" && lines.Scan() {
			seen += lines.Text() + "\n"
			if m := regexp.MustCompile(`url=(http://\S+/mcp) page=(http://\S+/elicit/)`).FindStringSubmatch(lines.Text()); m != nil {
				endpoint, page = m[1], m[2]
			}
		}
		require.NotEmpty(t, endpoint, "no url and page logged:\n%s", seen)
		go func() { _, _ = io.Copy(io.Discard, logs) }()

		jar, err := cookiejar.New(nil)
		require.NoError(t, err)
		browser := &http.Client{Jar: jar}
		var opened []string
		cl := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				opened = append(opened, r.Params.URL)
				return &mcp.ElicitResult{Action: "accept"}, enterKey(browser, r.Params.URL)
			},
			Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		})
		cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: devauth.Client("alice-token")}, nil)
		require.NoError(t, err)
		defer cs.Close()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "connect", Arguments: map[string]any{}})
		require.NoError(t, err)
		require.Len(t, res.Content, 1)
		assert.Equal(t, "alice connected with a key of 9 characters", res.Content[0].(*mcp.TextContent).Text)
		require.Len(t, opened, 1)
		assert.True(t, strings.HasPrefix(opened[0], page), "%s is a page under %s", opened[0], page)

		// MCPGEN_INSTANCE names the instance in an older client's session id
		// (for stock nginx).
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(init))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := devauth.Client("bob-token").Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Regexp(t, `^s7\.[A-Z2-7]{26}$`, resp.Header.Get("Mcp-Session-Id"))

		// The sign-in page says what it is.
		resp, err = http.Get(strings.TrimSuffix(page, "/elicit/") + devauth.SignInPath)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, string(body), "Development sign-in")
	})
}

var csrfRE = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// enterKey plays the user with a browser: open link (the page redirects to
// the development sign-in, which comes back), then post a key in the page's
// form.
func enterKey(b *http.Client, link string) error {
	resp, err := b.Get(link)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.Request.URL.Path != devauth.SignInPath {
		return fmt.Errorf("%s: not sent to the sign-in first, but to %s", link, resp.Request.URL)
	}
	next := resp.Request.URL.Query().Get("next")
	resp, err = b.PostForm(resp.Request.URL.Scheme+"://"+resp.Request.URL.Host+devauth.SignInPath,
		url.Values{"username": {"alice"}, "password": {"alice-password"}, "next": {next}})
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := csrfRE.FindSubmatch(body)
	if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(string(body), `name="api_key"`) {
		return fmt.Errorf("%s: signed in, HTTP %d, not the key's form: %s", link, resp.StatusCode, body)
	}
	resp, err = b.PostForm(link, url.Values{"csrf_token": {string(m[1])}, "api_key": {"ck-123456"}})
	if err != nil {
		return err
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: posting the key: HTTP %d: %s", link, resp.StatusCode, body)
	}
	return nil
}
