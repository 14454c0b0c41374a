package pagebrowser

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/examples/internal/browsertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/page"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The same flows as runtime/page's page_test.go, with the page opened,
// filled and sent by a real headless Chromium, and a real sign-in: a
// session cookie set by a login form, read by the Identify hook. Each page
// the browser shows is kept as a screenshot.

// passwords are the test sign-in's accounts.
var passwords = map[string]string{"alice": "alice-password", "bob": "bob-password"}

// newBrowserEnv is a server whose page has a cookie sign-in: Identify reads the
// session cookie, and sends a browser without one to /login, which comes
// back to the page once the user signed in.
func newBrowserEnv(t *testing.T) *env {
	e := &env{t: t, store: runtime.NewMemoryStore()}
	var mu sync.Mutex
	sessions := map[string]string{}
	mux := http.NewServeMux()
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	e.o = &runtime.Options{Keys: runtime.EphemeralKeyRing(), Store: e.store, PageURL: e.srv.URL + "/elicit/", PageWait: 50 * time.Millisecond}
	mux.Handle("/elicit/", page.Handler(e.o, page.Options{Title: "Contacts", Identify: func(w http.ResponseWriter, r *http.Request) (string, bool) {
		if c, err := r.Cookie("session"); err == nil {
			mu.Lock()
			user := sessions[c.Value]
			mu.Unlock()
			if user != "" {
				return user, true
			}
		}
		http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.Path), http.StatusSeeOther)
		return "", false
	}}))
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		next := r.FormValue("next")
		if !strings.HasPrefix(next, "/elicit/") {
			next = "/elicit/"
		}
		if r.Method == http.MethodPost {
			user := r.PostFormValue("username")
			if pw, ok := passwords[user]; ok && pw == r.PostFormValue("password") {
				var b [16]byte
				_, _ = rand.Read(b[:])
				token := base64.RawURLEncoding.EncodeToString(b[:])
				mu.Lock()
				sessions[token] = user
				mu.Unlock()
				http.SetCookie(w, &http.Cookie{Name: "session", Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
				http.Redirect(w, r, next, http.StatusSeeOther)
				return
			}
		}
		page.Render(w, http.StatusOK, "Sign in", template.HTML(`<form method="post" action="/login">`+
			`<input type="hidden" name="next" value="`+template.HTMLEscapeString(next)+`">`+
			`<div class="field"><label for="u">Username</label><input id="u" name="username" type="text"></div>`+
			`<div class="field"><label for="p">Password</label><input id="p" name="password" type="password"></div>`+
			`<button type="submit">Sign in</button></form>`))
	})
	return e
}

// signIn opens pageURL in p, is sent to the sign-in page, signs in as user
// and returns the status of the page it comes back to.
func signIn(t *testing.T, p *browsertest.Page, pageURL, user string) int {
	t.Helper()
	require.Equal(t, http.StatusOK, p.Open(pageURL))
	require.Equal(t, "Sign in", p.Heading(), "a browser without a session is sent to sign in")
	p.Fill("username", user)
	p.Fill("password", passwords[user])
	return p.Submit()
}

// pageOf starts alice's call and returns its URL-mode request.
func pageOf(t *testing.T, e *env) (*runtime.Response, string, *protocol.ElicitRequest) {
	t.Helper()
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	key, ir := urlRequest(t, r1)
	return r1, key, ir
}

// stored reports whether the page of ir holds an answer.
func stored(t *testing.T, e *env, ir *protocol.ElicitRequest) bool {
	t.Helper()
	_, answer, err := e.store.Page(context.Background(), strings.TrimPrefix(ir.URL, e.o.PageURL))
	require.NoError(t, err)
	return answer != nil
}

func TestBrowserAliceCompletesHerPage(t *testing.T) {
	b := browsertest.Start(t)
	e := newBrowserEnv(t)
	r1, key, ir := pageOf(t, e)
	p := b.NewPage()

	require.Equal(t, http.StatusOK, p.Open(ir.URL))
	require.Equal(t, "Sign in", p.Heading())
	p.Screenshot("sign-in")
	p.Fill("username", "alice")
	p.Fill("password", "alice-password")
	require.Equal(t, http.StatusOK, p.Submit())
	assert.Equal(t, ir.URL, p.Location(), "the sign-in comes back to the page")
	assert.Equal(t, "Contacts", p.Heading())
	assert.Equal(t, ir.Message, p.Text("#message"))
	assert.Contains(t, p.Text(".signed"), "Signed in as alice")
	// The page's style ran (its nonce matched the policy), and the page
	// loaded nothing else: no script, image, font or style sheet.
	assert.Equal(t, "544px", p.Eval(`getComputedStyle(document.body).maxWidth`))
	assert.Equal(t, "0", p.Eval(`String(performance.getEntriesByType("resource").length)`))
	p.Screenshot("key-form")

	const secret = "ck-alice-123"
	p.Fill("key", secret)
	p.Fill("label", "work")
	require.Equal(t, http.StatusOK, p.Submit())
	assert.Equal(t, "Received", p.Heading())
	assert.NotContains(t, p.Eval(`document.documentElement.outerHTML`), secret)
	p.Screenshot("received")

	// The link, opened again before the call resumed: already completed.
	assert.Equal(t, http.StatusConflict, p.Open(ir.URL))
	assert.Equal(t, "Already completed", p.Heading())
	assert.False(t, p.Has("form"))
	p.Screenshot("reopened")

	r2, err := e.call("alice", "", r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	require.NotNil(t, r2.Result)
	assert.Equal(t, "imported with a key of 12 characters", r2.Result.Text)
	for _, s := range []string{r1.RequestState, r2.RequestState, ir.URL, ir.Message, r2.Result.Text} {
		assert.NotContains(t, s, secret)
	}

	// Once the call has its answer the page is gone.
	assert.Equal(t, http.StatusNotFound, p.Open(ir.URL))
	assert.Equal(t, "Link not valid", p.Heading())
	p.Screenshot("after-call")
}

func TestBrowserOtherUserIsRefused(t *testing.T) {
	b := browsertest.Start(t)
	e := newBrowserEnv(t)
	_, _, ir := pageOf(t, e)
	bob := b.NewPage()
	assert.Equal(t, http.StatusForbidden, signIn(t, bob, ir.URL, "bob"))
	assert.Equal(t, "Not your request", bob.Heading())
	assert.Contains(t, bob.Text("#message"), "another account")
	assert.False(t, bob.Has("form"), "bob is not shown the form")
	bob.Screenshot("bob-on-alice-page")
	assert.False(t, stored(t, e, ir), "nothing is stored")

	// Alice, in her own browser, still completes it.
	alice := b.NewPage()
	require.Equal(t, http.StatusOK, signIn(t, alice, ir.URL, "alice"))
	alice.Fill("key", "ck-alice-123")
	assert.Equal(t, http.StatusOK, alice.Submit())
	assert.True(t, stored(t, e, ir))
}

func TestBrowserExpiredLink(t *testing.T) {
	b := browsertest.Start(t)
	e := newBrowserEnv(t)
	var mu sync.Mutex
	now := time.Now()
	e.o.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	e.o.TTL = time.Minute
	_, _, ir := pageOf(t, e)
	p := b.NewPage()
	require.Equal(t, http.StatusOK, signIn(t, p, ir.URL, "alice"))
	p.Fill("key", "ck-alice-123")
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	assert.Equal(t, http.StatusGone, p.Submit(), "a form sent after its page expired")
	assert.Equal(t, "Link expired", p.Heading())
	p.Screenshot("expired-post")
	assert.Equal(t, http.StatusGone, p.Open(ir.URL))
	assert.False(t, p.Has("form"))
	p.Screenshot("expired")
	assert.False(t, stored(t, e, ir))
}

func TestBrowserPostWithoutCSRFToken(t *testing.T) {
	b := browsertest.Start(t)
	e := newBrowserEnv(t)
	_, _, ir := pageOf(t, e)
	p := b.NewPage()
	require.Equal(t, http.StatusOK, signIn(t, p, ir.URL, "alice"))
	// The page's CSP forbids inline script; DevTools' evaluation is not
	// the page's, so it can take the token out of the form.
	p.Eval(`document.querySelector('input[name="csrf_token"]').remove(), ""`)
	require.False(t, p.Has(`input[name="csrf_token"]`))
	p.Fill("key", "ck-alice-123")
	assert.Equal(t, http.StatusForbidden, p.Submit())
	assert.Equal(t, "Form not verified", p.Heading())
	assert.Contains(t, p.Text("#message"), "security token")
	p.Screenshot("no-csrf-token")
	assert.False(t, stored(t, e, ir), "nothing is stored")

	// A wrong token is refused the same way.
	require.Equal(t, http.StatusOK, p.Open(ir.URL))
	p.Eval(`document.querySelector('input[name="csrf_token"]').value = "AAAA", ""`)
	p.Fill("key", "ck-alice-123")
	assert.Equal(t, http.StatusForbidden, p.Submit())
	assert.False(t, stored(t, e, ir))
}

func TestBrowserPageIsNotFramed(t *testing.T) {
	b := browsertest.Start(t)
	e := newBrowserEnv(t)
	_, _, ir := pageOf(t, e)
	// Another site (another origin: a second server) that frames the page,
	// and, as a control, a page of its own that may be framed.
	framer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/plain" {
			_, _ = w.Write([]byte(`<!doctype html><title>plain</title><p>a page that may be framed</p>`))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>framer</title><h1>Another site</h1>` +
			`<iframe src="/plain" width="600" height="60"></iframe><br>` +
			`<iframe src="` + template.HTMLEscapeString(ir.URL) + `" width="600" height="300"></iframe>`))
	}))
	t.Cleanup(framer.Close)
	p := b.NewPage()
	require.Equal(t, http.StatusOK, signIn(t, p, ir.URL, "alice"), "signed in: the frame would show the form")

	h := p.Headers(ir.URL)
	assert.Contains(t, h["content-security-policy"], "frame-ancestors 'none'")
	assert.Equal(t, "DENY", h["x-frame-options"])
	assert.Equal(t, "no-referrer", h["referrer-policy"])

	// The tab's load event waits for its frames, loaded or refused.
	require.Equal(t, http.StatusOK, p.Open(framer.URL))
	frames := p.Frames()
	require.Len(t, frames, 2)
	assert.Equal(t, framer.URL+"/plain", frames[0].URL, "the control frame is shown")
	assert.Empty(t, frames[0].Unreachable)
	assert.NotEqual(t, ir.URL, frames[1].URL, "the page is not shown in a frame")
	assert.Equal(t, ir.URL, frames[1].Unreachable, "Chromium refused to frame the page")
	p.Screenshot("framed")
}
