package devauth

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// get sends GET url with c and returns the status and body.
func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The middleware lets alice and bob through with their user ids and an
// expiration (go-sdk's own check passes without AllowMissingExpiration), and
// answers anything else with 401.
func TestMiddleware(t *testing.T) {
	srv := httptest.NewServer(New().Middleware()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := auth.TokenInfoFromContext(r.Context())
		if time.Until(ti.Expiration) < 59*time.Minute {
			http.Error(w, "expiration "+ti.Expiration.String(), http.StatusInternalServerError)
			return
		}
		io.WriteString(w, ti.UserID)
	})))
	t.Cleanup(srv.Close)
	code, body := get(t, Client("alice-token"), srv.URL)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "alice", body)
	code, body = get(t, Client("bob-token"), srv.URL)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "bob", body)
	code, _ = get(t, Client("mallory-token"), srv.URL)
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _ = get(t, http.DefaultClient, srv.URL)
	assert.Equal(t, http.StatusUnauthorized, code)
}

func TestCheckAddr(t *testing.T) {
	t.Setenv(EnvAnyAddr, "")
	v := New()
	for _, ok := range []string{"127.0.0.1:8080", "127.0.0.2:0", "[::1]:8080", "localhost:8080", "[::ffff:127.0.0.1]:80"} {
		assert.NoError(t, v.CheckAddr(ok), ok)
	}
	for _, bad := range []string{":8080", "0.0.0.0:8080", "[::]:8080", "192.168.1.5:8080", "example.com:80"} {
		err := v.CheckAddr(bad)
		if assert.Error(t, err, bad) {
			assert.Contains(t, err.Error(), `"`+bad+`"`)
			assert.Contains(t, err.Error(), EnvAnyAddr+"=1")
		}
	}
	assert.NoError(t, (&Verifier{AnyAddr: true}).CheckAddr(":8080"))
	t.Setenv(EnvAnyAddr, "1")
	assert.NoError(t, v.CheckAddr("0.0.0.0:8080"))
}

// A request that arrived on a non-loopback local address is refused with
// 403 before its token is looked at, unless allowed.
func TestMiddlewareRefusesOtherAddresses(t *testing.T) {
	t.Setenv(EnvAnyAddr, "")
	reached := false
	h := New().Middleware()(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	serve := func(local string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/mcp", nil)
		r.Header.Set("Authorization", "Bearer alice-token")
		addr, err := net.ResolveTCPAddr("tcp", local)
		require.NoError(t, err)
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(addr)))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := serve("10.1.2.3:8080")
	assert.Equal(t, http.StatusForbidden, w.Code)
	assert.True(t, strings.Contains(w.Body.String(), EnvAnyAddr), w.Body.String())
	assert.False(t, reached)
	w = serve("127.0.0.1:8080")
	assert.Equal(t, http.StatusOK, w.Code)
	assert.True(t, reached)
	reached = false
	t.Setenv(EnvAnyAddr, "1")
	w = serve("10.1.2.3:8080")
	assert.Equal(t, http.StatusOK, w.Code)
	assert.True(t, reached)
}
