package devauth

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
)

func newTestSignIn(t *testing.T, keys *runtime.KeyRing) *SignIn {
	t.Helper()
	s, err := NewSignIn(keys, "http://127.0.0.1:8080/connect/")
	require.NoError(t, err)
	return s
}

func TestSignInReturnsOnlyUnderThePagePrefix(t *testing.T) {
	d := newTestSignIn(t, runtime.EphemeralKeyRing())
	for next, want := range map[string]string{
		"/connect/abcdefghijklmnopqrstuv": "/connect/abcdefghijklmnopqrstuv",
		"/connect/":                       "/connect/",
		"":                                "",
		"/login":                          "",
		"//evil.example/connect/x":        "",
		"https://evil.example/connect/x":  "",
		"/connect/../mcp":                 "",
		"/connect/x?y=1":                  "",
		"/connect/x#y":                    "",
		`/connect/\evil`:                  "",
		"/connectx":                       "",
	} {
		assert.Equal(t, want, d.localNext(next), "next=%q", next)
	}
}

func TestSignInSetsASealedSessionCookie(t *testing.T) {
	keys := runtime.EphemeralKeyRing()
	d := newTestSignIn(t, keys)
	post := func(user, password, next string) *httptest.ResponseRecorder {
		form := url.Values{"username": {user}, "password": {password}, "next": {next}}
		r := httptest.NewRequest(http.MethodPost, SignInPath, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		return w
	}
	w := post("alice", "bob-password", "/connect/x")
	assert.Equal(t, http.StatusUnauthorized, w.Code)
	assert.Empty(t, w.Result().Cookies())
	assert.Equal(t, "default-src 'none'", strings.Split(w.Header().Get("Content-Security-Policy"), ";")[0], "rendered by page.Render")

	w = post("alice", "alice-password", "/connect/x")
	assert.Equal(t, http.StatusSeeOther, w.Code)
	assert.Equal(t, "/connect/x", w.Header().Get("Location"))
	cookies := w.Result().Cookies()
	require.Len(t, cookies, 1)
	c := cookies[0]
	assert.True(t, c.HttpOnly)
	assert.False(t, c.Secure, "an http page URL over plain HTTP")
	assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
	assert.Equal(t, "/", c.Path)
	assert.NotContains(t, c.Value, "alice")

	page := func(c *http.Cookie) (string, bool, *httptest.ResponseRecorder) {
		r := httptest.NewRequest(http.MethodGet, "/connect/x", nil)
		if c != nil {
			r.AddCookie(c)
		}
		w := httptest.NewRecorder()
		user, ok := d.Identify(w, r)
		return user, ok, w
	}
	user, ok, _ := page(c)
	assert.True(t, ok)
	assert.Equal(t, "alice", user)

	// No cookie, a forged one, one sealed by other keys, an expired one:
	// redirected to the sign-in page, back to the page.
	other := newTestSignIn(t, runtime.EphemeralKeyRing())
	forged := other.keys.Seal([]byte(sessionPrefix + "alice\x00" + "9999999999"))
	expired := keys.Seal([]byte(sessionPrefix + "alice\x00" + "1"))
	for _, bad := range []*http.Cookie{nil, {Name: sessionCookie, Value: "alice"}, {Name: sessionCookie, Value: forged}, {Name: sessionCookie, Value: expired}} {
		user, ok, w := page(bad)
		assert.False(t, ok)
		assert.Empty(t, user)
		assert.Equal(t, http.StatusSeeOther, w.Code)
		assert.Equal(t, "/login?next=%2Fconnect%2Fx", w.Header().Get("Location"))
	}
	d.now = func() time.Time { return time.Now().Add(SessionTTL + time.Minute) }
	_, ok, _ = page(c)
	assert.False(t, ok, "a session ends after SessionTTL")
}

// A page URL the sign-in cannot return under is refused at construction.
func TestNewSignInRefusesBadPageURLs(t *testing.T) {
	for _, bad := range []string{"", "/connect", "//h/x/", "ftp://h/x/", "http://h/x", "http://h/x/?a=1", "http:///x/"} {
		_, err := NewSignIn(runtime.EphemeralKeyRing(), bad)
		assert.Error(t, err, bad)
	}
	_, err := NewSignIn(nil, "http://127.0.0.1/x/")
	assert.Error(t, err)
}

// On a non-loopback address, as the development tokens: 403 for the form
// and for a page's Identify, unless AnyAddr.
func TestSignInRefusesNonLoopback(t *testing.T) {
	t.Setenv(EnvAnyAddr, "")
	s := newTestSignIn(t, runtime.EphemeralKeyRing())
	on := func(addr string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, SignInPath, nil)
		local, err := net.ResolveTCPAddr("tcp", addr)
		require.NoError(t, err)
		return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, on("10.0.0.7:8080"))
	assert.Equal(t, http.StatusForbidden, w.Code)
	assert.Contains(t, w.Body.String(), "refusing to serve development sign-in")
	w = httptest.NewRecorder()
	_, ok := s.Identify(w, on("10.0.0.7:8080"))
	assert.False(t, ok)
	assert.Equal(t, http.StatusForbidden, w.Code)

	w = httptest.NewRecorder()
	s.ServeHTTP(w, on("127.0.0.1:8080"))
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), "Development sign-in")
	s.AnyAddr = true
	w = httptest.NewRecorder()
	s.ServeHTTP(w, on("10.0.0.7:8080"))
	assert.Equal(t, http.StatusOK, w.Code)
}

// A path alone: the sign-in returns under it.
func TestNewSignInPathOnly(t *testing.T) {
	s, err := NewSignIn(runtime.EphemeralKeyRing(), "/elicit/")
	require.NoError(t, err)
	assert.Equal(t, "/elicit/x", s.localNext("/elicit/x"))
	assert.Equal(t, "", s.localNext("/connect/x"))
}
