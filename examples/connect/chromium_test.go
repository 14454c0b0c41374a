package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/examples/internal/browsertest"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// The tests in this file play alice with a real headless Chromium
// (examples/internal/browsertest): the client's elicitation handler hands the page's
// URL to the test's goroutine, which opens it in Chromium, signs in on the
// development sign-in page, enters the key and submits, and only then lets
// the handler answer. Each page is kept as a screenshot.

// TestMain shares one Chromium among the tests.
func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }

// byPage is a user whose answers come from the test's goroutine: each
// URL-mode request's URL is sent on urls, and the handler answers the
// action then received on actions.
type byPage struct {
	urls    chan string
	actions chan string
}

func newByPage() *byPage {
	return &byPage{urls: make(chan string, 1), actions: make(chan string, 1)}
}

func (b *byPage) user() *user {
	return &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		b.urls <- er.URL
		return &mcp.ElicitResult{Action: <-b.actions}, nil
	}}
}

// next returns the next URL the client was asked to open.
func (b *byPage) next(t *testing.T) string {
	t.Helper()
	select {
	case u := <-b.urls:
		return u
	case <-time.After(browsertest.Timeout):
		t.Fatal("the client was not asked to open a page")
		return ""
	}
}

// enterKeyInChromium opens link in p, signs in as alice (the sign-in page
// comes back to the link), enters key on the page and submits it, with a
// screenshot of each page when shots is set.
func enterKeyInChromium(t *testing.T, p *browsertest.Page, link, key string, shots bool) {
	t.Helper()
	shot := func(name string) {
		if shots {
			p.Screenshot(name)
		}
	}
	require.Equal(t, http.StatusOK, p.Open(link))
	if p.Has(`input[name="username"]`) {
		require.Equal(t, "Sign in (development)", p.Heading())
		shot("sign-in")
		p.Fill("username", "alice")
		p.Fill("password", "alice-password")
		require.Equal(t, http.StatusOK, p.Submit())
	}
	require.Equal(t, link, p.Location(), "back on the page after signing in")
	require.True(t, p.Has(`input[name="api_key"]`), "the key's form")
	assert.Contains(t, p.Text(".signed"), "Signed in as alice")
	assert.Equal(t, "0", p.Eval(`String(performance.getEntriesByType("resource").length)`), "the page loads nothing else")
	shot("key-form")
	p.Fill("api_key", key)
	require.Equal(t, http.StatusOK, p.Submit())
	assert.Equal(t, "Received", p.Heading())
	assert.NotContains(t, p.Eval(`document.documentElement.outerHTML`), key)
	shot("received")
}

// callAsync calls import_contacts on c in another goroutine; the returned
// func waits for its text.
func callAsync(t *testing.T, c *client) func() string {
	type out struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "import_contacts"})
		done <- out{res, err}
	}()
	return func() string {
		t.Helper()
		select {
		case o := <-done:
			require.NoError(t, o.err)
			require.Len(t, o.res.Content, 1)
			tc, ok := o.res.Content[0].(*mcp.TextContent)
			require.True(t, ok)
			require.False(t, o.res.IsError, tc.Text)
			return tc.Text
		case <-time.After(30 * time.Second):
			t.Fatal("import_contacts did not return")
			return ""
		}
	}
}

func TestChromiumGoSDKClient(t *testing.T) {
	b := browsertest.Start(t)
	s := startConnect(t)
	u := newByPage()
	alice := connect(t, s, "alice-token", u.user())
	wait := callAsync(t, alice)
	link := u.next(t)
	assert.Regexp(t, "^"+s.opts.PageURL+"[A-Za-z0-9_-]{22}$", link)
	enterKeyInChromium(t, b.NewPage(), link, alicesKey, true)
	u.actions <- "accept"
	assert.Equal(t, "Imported 3 contacts for alice.", wait())
	assert.Equal(t, alicesKey, kept(t, s, "alice"))
	noKeyAnywhere(t, s, alice, alicesKey)
}

// TestChromiumTSClient runs examples/connect/tsclient/tsclient.mjs, the
// official TypeScript client, pinned to 2026-07-28 and in its default
// (2025-11-25 session, with notifications/elicitation/complete), and
// completes the page it prints in Chromium. It runs when MCPGEN_TSCLIENT
// names a folder where @modelcontextprotocol/client 2.4.0 is installed:
// examples/connect/tsclient/run does that, and .ci/run runs it.
func TestChromiumTSClient(t *testing.T) {
	dir := os.Getenv("MCPGEN_TSCLIENT")
	if dir == "" {
		t.Skip("MCPGEN_TSCLIENT is not set; examples/connect/tsclient/run installs the TypeScript client and runs this test")
	}
	script, err := os.ReadFile(filepath.Join("tsclient", "tsclient.mjs"))
	require.NoError(t, err)
	// Node resolves imports next to the script: run a copy inside dir.
	run := filepath.Join(dir, "mcpgen-connect-tsclient.mjs")
	require.NoError(t, os.WriteFile(run, script, 0o644))
	for _, mode := range []string{"pinned", "default"} {
		t.Run(mode, func(t *testing.T) {
			b := browsertest.Start(t)
			s := startConnect(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", run, s.endpoint, mode)
			cmd.Dir = dir
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			var out []string
			lines := bufio.NewScanner(stdout)
			for lines.Scan() {
				line := lines.Text()
				out = append(out, line)
				if link, ok := strings.CutPrefix(line, "url "); ok {
					enterKeyInChromium(t, b.NewPage(), link, alicesKey, mode == "pinned")
					if mode == "pinned" {
						_, err := io.WriteString(stdin, "done\n")
						require.NoError(t, err)
					}
				}
			}
			err = cmd.Wait()
			require.NoError(t, err, "node: %s\n%s", strings.Join(out, "\n"), stderr.String())
			want := map[string]string{"pinned": "protocol 2026-07-28", "default": "protocol 2025-11-25"}[mode]
			assert.Contains(t, out, want)
			assert.Contains(t, out, "result Imported 3 contacts for alice.")
			assert.Contains(t, out, "tsclient connect: ok")
			assert.Equal(t, alicesKey, kept(t, s, "alice"))
			assert.NotContains(t, strings.Join(out, "\n")+stderr.String(), alicesKey, "the client never saw the key")
			assert.NotContains(t, s.logs.String(), alicesKey)
		})
	}
}

// roundRobin forwards each request to the next of its backends in turn,
// MCP requests and page requests each in their own turn, and records which
// backend served each request.
type roundRobin struct {
	backends []*httputil.ReverseProxy
	mcp      atomic.Int32
	page     atomic.Int32
	mu       sync.Mutex
	served   []string // "METHOD PATH -> i"
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := &rr.page
	what := r.Method + " " + r.URL.Path
	if r.URL.Path == "/mcp" {
		n = &rr.mcp
		if r.Body != nil {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"method":"tools/call"`)) {
				what = "tools/call"
			}
		}
	}
	i := int(n.Add(1)-1) % len(rr.backends)
	rr.mu.Lock()
	rr.served = append(rr.served, what+" -> "+string(rune('A'+i)))
	rr.mu.Unlock()
	rr.backends[i].ServeHTTP(w, r)
}

// servedBy returns which backends served the requests whose description
// starts with prefix, in order.
func (rr *roundRobin) servedBy(prefix string) []string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	var out []string
	for _, s := range rr.served {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s[strings.LastIndexByte(s, ' ')+1:])
		}
	}
	return out
}

// Two connect instances sharing MCPGEN_STATE_KEYS and MCPGEN_REDIS_URL (a
// real redis-server) behind a round-robin proxy: alice signs in on one,
// gets the page's form from one and posts it to the other, and the
// client's retry lands on another instance than its first call.
func TestChromiumRoundRobinRedis(t *testing.T) {
	b := browsertest.Start(t)
	rs := redistest.Start(t)
	t.Setenv("MCPGEN_REDIS_URL", rs.URL())
	t.Setenv("MCPGEN_STATE_KEYS", runtime.GenerateKey())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	rr := &roundRobin{}
	front := &httptest.Server{Listener: ln, Config: &http.Server{Handler: rr}}
	front.Start()
	t.Cleanup(front.Close)
	logs := &syncBuffer{}
	var keys *runtime.KeyRing
	var vault *KeyVault
	for range 2 {
		opts, closeStore, err := redisstore.OptionsFromEnv(context.Background(), nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = closeStore() })
		require.IsType(t, &redisstore.Store{}, opts.Store)
		opts.PageURL = front.URL + pagePath
		keys = opts.Keys
		vault = vaultFor(opts, redisClient(opts))
		a := newApp(opts, newFakeContacts(), vault, slog.New(slog.NewTextHandler(logs, nil)))
		srv := httptest.NewServer(a)
		t.Cleanup(srv.Close)
		target, _ := url.Parse(srv.URL)
		rr.backends = append(rr.backends, httputil.NewSingleHostReverseProxy(target))
	}
	s := &connectServer{opts: runtime.Options{Keys: keys, PageURL: front.URL + pagePath}, endpoint: front.URL + "/mcp", vault: vault, logs: logs}

	u := newByPage()
	alice := connect(t, s, "alice-token", u.user())
	wait := callAsync(t, alice)
	link := u.next(t)
	enterKeyInChromium(t, b.NewPage(), link, alicesKey, true)
	u.actions <- "accept"
	assert.Equal(t, "Imported 3 contacts for alice.", wait())
	assert.Equal(t, alicesKey, kept(t, s, "alice"), "the key is kept in Redis, for every instance")
	noKeyAnywhere(t, s, alice, alicesKey)

	id := strings.TrimPrefix(link, front.URL)
	page := rr.servedBy("GET " + id)
	post := rr.servedBy("POST " + id)
	require.NotEmpty(t, page)
	require.Len(t, post, 1)
	assert.NotEqual(t, page[len(page)-1], post[0], "the form was shown by one instance and posted to the other")
	calls := rr.servedBy("tools/call")
	require.GreaterOrEqual(t, len(calls), 2)
	assert.NotEqual(t, calls[0], calls[len(calls)-1], "the retry that got the result was served by another instance than the first call")
	t.Logf("served: %v", rr.served)
}
