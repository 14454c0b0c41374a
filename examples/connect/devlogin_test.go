package main

import (
	"context"
	"log/slog"
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

func TestSignInReturnsOnlyUnderThePagePrefix(t *testing.T) {
	d := newDevLogin(runtime.EphemeralKeyRing(), "/connect/", false)
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
	d := newDevLogin(keys, "/connect/", false)
	post := func(user, password, next string) *httptest.ResponseRecorder {
		form := url.Values{"username": {user}, "password": {password}, "next": {next}}
		r := httptest.NewRequest(http.MethodPost, devLoginPath, strings.NewReader(form.Encode()))
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
	other := newDevLogin(runtime.EphemeralKeyRing(), "/connect/", false)
	forged := other.keys.Seal([]byte(devSessionPrefix + "alice\x00" + "9999999999"))
	expired := keys.Seal([]byte(devSessionPrefix + "alice\x00" + "1"))
	for _, bad := range []*http.Cookie{nil, {Name: devCookie, Value: "alice"}, {Name: devCookie, Value: forged}, {Name: devCookie, Value: expired}} {
		user, ok, w := page(bad)
		assert.False(t, ok)
		assert.Empty(t, user)
		assert.Equal(t, http.StatusSeeOther, w.Code)
		assert.Equal(t, "/login?next=%2Fconnect%2Fx", w.Header().Get("Location"))
	}
	d.now = func() time.Time { return time.Now().Add(devSessionTTL + time.Minute) }
	_, ok, _ = page(c)
	assert.False(t, ok, "a session ends after devSessionTTL")
}

func TestVaultKeepsKeysSealedPerUser(t *testing.T) {
	ctx := context.Background()
	opts := runtime.Options{Keys: runtime.EphemeralKeyRing()}
	v := vaultFor(opts, nil)
	require.NoError(t, v.Put(ctx, "alice", "ck-alice-123"))
	key, ok, err := v.Get(ctx, "alice")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "ck-alice-123", key)
	m := v.kv.(*memKV)
	assert.NotContains(t, m.m["alice"], "ck-alice-123", "stored sealed")

	// alice's sealed key copied under bob's name does not open.
	m.m["bob"] = m.m["alice"]
	_, ok, err = v.Get(ctx, "bob")
	require.NoError(t, err)
	assert.False(t, ok)

	require.NoError(t, v.Delete(ctx, "alice"))
	_, ok, err = v.Get(ctx, "alice")
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestFakeContactsRefusesWithAReason(t *testing.T) {
	f := newFakeContacts()
	list, err := f.Contacts(context.Background(), "ck-alice-123")
	require.NoError(t, err)
	assert.Len(t, list, 3)
	list, err = f.Contacts(context.Background(), "ck-bob-456")
	require.NoError(t, err)
	assert.Len(t, list, 1)
	for _, bad := range []string{"ck-alice-999", "alice-123", ""} {
		_, err := f.Contacts(context.Background(), bad)
		assert.ErrorIs(t, err, ErrKeyRefused)
		if bad != "" {
			assert.NotContains(t, err.Error(), bad, "the reason never holds the key")
		}
	}
}

func TestPageURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/connect/",
		"0.0.0.0:8080":   "http://localhost:8080/connect/",
		"[::]:8080":      "http://localhost:8080/connect/",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		require.NoError(t, err)
		got, err := pageURLFor(a, "")
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	a, _ := net.ResolveTCPAddr("tcp", "127.0.0.1:1")
	got, err := pageURLFor(a, "https://mcp.example.com/keys/")
	require.NoError(t, err)
	assert.Equal(t, "https://mcp.example.com/keys/", got)
	for _, bad := range []string{"mcp.example.com/keys/", "https://mcp.example.com/keys", "ftp://x/y/", "https://x/y/?a=1"} {
		_, err := pageURLFor(a, bad)
		assert.Error(t, err, bad)
	}
}

// Behind a proxy (MCPGEN_PAGE_URL), the sign-in's posts come from the page
// URL's origin with another Host: accepted; from any other site: refused.
func TestSignInTrustsOnlyThePageOrigin(t *testing.T) {
	opts := runtime.Options{Keys: runtime.EphemeralKeyRing(), PageURL: "https://mcp.example.com/keys/"}
	a := newApp(opts, newFakeContacts(), vaultFor(opts, nil), slog.New(slog.DiscardHandler))
	for origin, want := range map[string]int{
		"https://mcp.example.com":  http.StatusSeeOther,
		"https://evil.example.com": http.StatusForbidden,
	} {
		form := url.Values{"username": {"alice"}, "password": {"alice-password"}, "next": {"/keys/abcdefghijklmnopqrstuv"}}
		r := httptest.NewRequest(http.MethodPost, "http://10.0.0.7:8080"+devLoginPath, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", origin)
		r.Header.Set("Sec-Fetch-Site", "cross-site")
		w := httptest.NewRecorder()
		a.ServeHTTP(w, r)
		assert.Equal(t, want, w.Code, origin)
		if want == http.StatusSeeOther {
			require.Len(t, w.Result().Cookies(), 1)
			assert.True(t, w.Result().Cookies()[0].Secure, "an https page URL makes the cookie Secure")
		}
	}
}
