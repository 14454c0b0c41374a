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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	rdevauth "github.com/mcpgen/mcpgen/runtime/devauth"
)

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
		r := httptest.NewRequest(http.MethodPost, "http://10.0.0.7:8080"+rdevauth.SignInPath, strings.NewReader(form.Encode()))
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
