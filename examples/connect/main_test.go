package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	rdevauth "github.com/mcpgen/mcpgen/runtime/devauth"
)

// The tests in this file serve connect over real HTTP on loopback (the MCP
// endpoint behind the development bearer tokens, the page, the development
// sign-in, on one mux) and drive it with go-sdk's client, which retries by
// itself; its elicitation handler plays the user with a browser (an HTTP
// client with a cookie jar): sign in, read the page's form, post the key.
// Every byte on the MCP wire and every log record is kept, and searched for
// the API keys.

// connectServer is one connect instance over HTTP: its options (keys,
// page URL), its vault, and its log.
type connectServer struct {
	opts     runtime.Options
	endpoint string
	vault    *KeyVault
	logs     *syncBuffer
}

// syncBuffer is a bytes.Buffer safe for concurrent writes (the log).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startConnect starts an instance with fresh keys and its own in-memory
// store.
func startConnect(t *testing.T) *connectServer {
	t.Helper()
	return startConnectWith(t, runtime.Options{Keys: runtime.EphemeralKeyRing(), Store: runtime.NewMemoryStore()})
}

// startConnectWith starts an instance on opts (keys, store), its vault in
// the store's Redis when it is the Redis store.
func startConnectWith(t *testing.T, opts runtime.Options) *connectServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	opts.PageURL, err = pageURLFor(ln.Addr(), "")
	require.NoError(t, err)
	s := &connectServer{opts: opts, endpoint: "http://" + ln.Addr().String() + "/mcp", vault: vaultFor(opts, redisClient(opts)), logs: &syncBuffer{}}
	a := newApp(opts, newFakeContacts(), s.vault, slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- serve(ctx, ln, a) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-errc)
	})
	return s
}

// wire records the bodies of every MCP request and response a client
// sends and receives.
type wire struct {
	mu   sync.Mutex
	b    bytes.Buffer
	next http.RoundTripper
}

func (w *wire) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		w.write(body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := w.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	w.write(body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, err
}

func (w *wire) write(p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	w.b.WriteByte('\n')
}

func (w *wire) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// user answers the URL-mode requests of one client: each call gets the
// request's params; asked keeps them all.
type user struct {
	mu     sync.Mutex
	asked  []*mcp.ElicitParams
	answer func(er *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

// client is a go-sdk client session and what it sent and received.
type client struct {
	cs   *mcp.ClientSession
	wire *wire
	user *user
}

// connect opens a 2026-07-28 client session sending token, declaring
// URL-mode elicitation, whose handler is u's.
func connect(t *testing.T, s *connectServer, token string, u *user) *client {
	t.Helper()
	w := &wire{next: rdevauth.Bearer{Token: token}}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			u.mu.Lock()
			u.asked = append(u.asked, req.Params)
			u.mu.Unlock()
			return u.answer(req.Params)
		},
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
		}},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.endpoint, HTTPClient: &http.Client{Transport: w}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return &client{cs: cs, wire: w, user: u}
}

// importContacts calls import_contacts and returns its text, failing on a
// tool error.
func importContacts(t *testing.T, c *client) string {
	t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "import_contacts"})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	require.False(t, res.IsError, "tool error: %s", tc.Text)
	return tc.Text
}

// enterKey is what a user does with a link: open it in b (signing in when
// asked), and post key in the page's form; it returns the page the post
// got, which must be 200. It runs in the client's elicitation handler, not
// the test's goroutine, so it returns errors instead of failing the test.
func enterKey(b *browser, link, key string) (*visit, error) {
	v, err := b.Open(link)
	if err != nil {
		return nil, err
	}
	if v.Status != http.StatusOK || v.Form == nil || v.Form.Values.Get("csrf_token") == "" || !v.Form.Values.Has("api_key") {
		return nil, fmt.Errorf("%s: HTTP %d, not the key's form: %s", link, v.Status, v.Body)
	}
	v.Form.Values.Set("api_key", key)
	if v, err = b.Submit(v.Form); err != nil {
		return nil, err
	}
	if v.Status != http.StatusOK {
		return nil, fmt.Errorf("%s: posting the key: HTTP %d: %s", link, v.Status, v.Body)
	}
	return v, nil
}

// gives answers every request by entering keys in turn in b and accepting.
func gives(b *browser, keys ...string) *user {
	return &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		if len(keys) == 0 {
			return nil, errors.New("asked once more than expected")
		}
		key := keys[0]
		keys = keys[1:]
		if _, err := enterKey(b, er.URL, key); err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
}

// never fails when asked.
func never() *user {
	return &user{answer: func(*mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return nil, errors.New("the user was asked, but the server holds the key")
	}}
}

var (
	alicesKey = "ck-alice-123"
	bobsKey   = "ck-bob-456"
	stateRE   = regexp.MustCompile(`"requestState":"([A-Za-z0-9_-]+)"`)
)

// noKeyAnywhere checks that none of keys appears on c's MCP wire (tool
// results, messages, every requestState as sent and as opened with the
// server's key ring) or in s's log; that c saw at least one requestState.
func noKeyAnywhere(t *testing.T, s *connectServer, c *client, keys ...string) {
	t.Helper()
	assert.Contains(t, s.logs.String(), "outcome=completed", "the log is captured")
	onWire := c.wire.String()
	states := stateRE.FindAllStringSubmatch(onWire, -1)
	assert.NotEmpty(t, states, "no requestState on the wire")
	for _, key := range keys {
		assert.NotContains(t, onWire, key, "the MCP wire")
		assert.NotContains(t, s.logs.String(), key, "the log")
		for _, m := range states {
			pt, err := s.opts.Keys.Open(m[1], 0)
			require.NoError(t, err)
			assert.NotContains(t, string(pt), key, "a requestState")
		}
	}
}

// kept returns the key the vault holds for user, or "".
func kept(t *testing.T, s *connectServer, user string) string {
	t.Helper()
	key, _, err := s.vault.Get(context.Background(), user)
	require.NoError(t, err)
	return key
}

func TestAliceImportsWithHerKeyOnce(t *testing.T) {
	s := startConnect(t)
	b := newBrowser("alice", "alice-password")
	alice := connect(t, s, "alice-token", gives(b, alicesKey))
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, alice))
	require.Len(t, alice.user.asked, 1)
	er := alice.user.asked[0]
	assert.Equal(t, "url", er.Mode)
	assert.Equal(t, askKeyMessage, er.Message)
	assert.Regexp(t, "^"+regexp.QuoteMeta(s.opts.PageURL)+"[A-Za-z0-9_-]{22}$", er.URL, "the page URL and an opaque id, nothing else")
	assert.Equal(t, alicesKey, kept(t, s, "alice"))
	assert.Empty(t, kept(t, s, "bob"))

	// A second call asks nothing: the key is kept.
	again := connect(t, s, "alice-token", never())
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, again))
	noKeyAnywhere(t, s, alice, alicesKey)
	assert.NotContains(t, again.wire.String(), alicesKey)
}

func TestThePageNeedsSignInFirst(t *testing.T) {
	s := startConnect(t)
	var signIn *visit
	u := &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(er.URL)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
		link, err := url.Parse(er.URL)
		if err != nil {
			return nil, err
		}
		assert.Equal(t, rdevauth.SignInPath+"?next="+url.QueryEscape(link.Path), resp.Header.Get("Location"))
		b := newBrowser("alice", "wrong-password")
		if signIn, err = b.Open(er.URL); err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}}
	alice := connect(t, s, "alice-token", u)
	assert.Equal(t, "Import cancelled: nothing imported.", importContacts(t, alice))
	require.NotNil(t, signIn)
	assert.Equal(t, http.StatusUnauthorized, signIn.Status)
	assert.Equal(t, rdevauth.SignInPath, signIn.URL.Path)
	assert.Contains(t, signIn.Body, "Unknown user or wrong password.")
	assert.Empty(t, kept(t, s, "alice"))
}

func TestBobImportsHisOneContact(t *testing.T) {
	s := startConnect(t)
	bob := connect(t, s, "bob-token", gives(newBrowser("bob", "bob-password"), bobsKey))
	assert.Equal(t, "Imported 1 contact for bob.", importContacts(t, bob))
	assert.Equal(t, bobsKey, kept(t, s, "bob"))
	assert.Empty(t, kept(t, s, "alice"))
	noKeyAnywhere(t, s, bob, bobsKey)
}

func TestDeclineAndCancelImportNothing(t *testing.T) {
	s := startConnect(t)
	for action, want := range map[string]string{
		"decline": "No API key given: nothing imported.",
		"cancel":  "Import cancelled: nothing imported.",
	} {
		u := &user{answer: func(*mcp.ElicitParams) (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: action}, nil }}
		alice := connect(t, s, "alice-token", u)
		assert.Equal(t, want, importContacts(t, alice))
		assert.Len(t, u.asked, 1, action)
	}
	assert.Empty(t, kept(t, s, "alice"))
}

func TestRefusedKeyIsAskedAgainWithTheReason(t *testing.T) {
	s := startConnect(t)
	alice := connect(t, s, "alice-token", gives(newBrowser("alice", "alice-password"), "ck-alice-999", alicesKey))
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, alice))
	require.Len(t, alice.user.asked, 2)
	again := alice.user.asked[1]
	assert.Equal(t, "url", again.Mode)
	assert.Contains(t, again.Message, "no account has this key")
	assert.Equal(t, alicesKey, kept(t, s, "alice"))
	noKeyAnywhere(t, s, alice, alicesKey, "ck-alice-999")
}

func TestBobOpeningAlicesLinkIs403AndStoresNothing(t *testing.T) {
	s := startConnect(t)
	aliceBrowser, bobBrowser := newBrowser("alice", "alice-password"), newBrowser("bob", "bob-password")
	u := &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		v, err := bobBrowser.Open(er.URL)
		if err != nil {
			return nil, err
		}
		assert.Equal(t, http.StatusForbidden, v.Status)
		assert.Equal(t, "Not your request", v.Heading)
		assert.Nil(t, v.Form)
		// A post by bob, however made, is refused as well.
		if v, err = bobBrowser.Submit(&htmlForm{Action: v.URL, Values: url.Values{"api_key": {bobsKey}}}); err != nil {
			return nil, err
		}
		assert.Equal(t, http.StatusForbidden, v.Status)
		assert.Equal(t, "Not your request", v.Heading)
		// The page was not completed: alice still gets her form.
		if _, err := enterKey(aliceBrowser, er.URL, alicesKey); err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
	alice := connect(t, s, "alice-token", u)
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, alice))
	assert.Empty(t, kept(t, s, "bob"))
	assert.NotContains(t, s.logs.String(), bobsKey)
}

func TestPostWithoutCSRFTokenIs403(t *testing.T) {
	s := startConnect(t)
	b := newBrowser("alice", "alice-password")
	u := &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		v, err := b.Open(er.URL)
		if err != nil {
			return nil, err
		}
		if v.Form == nil {
			return nil, fmt.Errorf("no form: HTTP %d", v.Status)
		}
		v.Form.Values.Del("csrf_token")
		v.Form.Values.Set("api_key", alicesKey)
		if v, err = b.Submit(v.Form); err != nil {
			return nil, err
		}
		assert.Equal(t, http.StatusForbidden, v.Status)
		assert.Equal(t, "Form not verified", v.Heading)
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}}
	alice := connect(t, s, "alice-token", u)
	assert.Equal(t, "Import cancelled: nothing imported.", importContacts(t, alice))
	assert.Empty(t, kept(t, s, "alice"))
}

func TestCompletedLinkReopenedIs409(t *testing.T) {
	s := startConnect(t)
	b := newBrowser("alice", "alice-password")
	u := &user{answer: func(er *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		if _, err := enterKey(b, er.URL, alicesKey); err != nil {
			return nil, err
		}
		link, err := url.Parse(er.URL)
		if err != nil {
			return nil, err
		}
		for _, open := range []func() (*visit, error){
			func() (*visit, error) { return b.Open(er.URL) },
			func() (*visit, error) {
				return b.Submit(&htmlForm{Action: link, Values: url.Values{"api_key": {bobsKey}}})
			},
		} {
			v, err := open()
			if err != nil {
				return nil, err
			}
			assert.Equal(t, http.StatusConflict, v.Status)
			assert.Equal(t, "Already completed", v.Heading)
		}
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
	alice := connect(t, s, "alice-token", u)
	assert.Equal(t, "Imported 3 contacts for alice.", importContacts(t, alice))
	assert.Equal(t, alicesKey, kept(t, s, "alice"))
}

func TestDemoNarratesTheFlow(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, demo(&out, runtime.EphemeralKeyRing()))
	got := out.String()
	for _, want := range []string{
		"--> No API key given: nothing imported.",
		"--> Import cancelled: nothing imported.",
		"no account has this key",
		"--> Imported 3 contacts for alice.",
		"--> Imported 1 contact for bob.",
		`alice's browser opens it: HTTP 403 "Not your request"`,
		`bob's browser posts without csrf_token: HTTP 403 "Form not verified"`,
		`bob's browser reopens the link: HTTP 409 "Already completed"`,
		"--> HTTP 401 Unauthorized",
	} {
		assert.Contains(t, got, want)
	}
	assert.Equal(t, 2, strings.Count(got, "--> Imported 3 contacts for alice."), "the second import asks nothing")
}
