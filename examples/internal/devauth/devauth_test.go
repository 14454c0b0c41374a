package devauth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The middleware lets alice and bob through with their user ids and answers
// anything else with 401.
func TestMiddleware(t *testing.T) {
	srv := httptest.NewServer(Middleware()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, auth.TokenInfoFromContext(r.Context()).UserID)
	})))
	t.Cleanup(srv.Close)
	get := func(c *http.Client) (int, string) {
		resp, err := c.Get(srv.URL)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get(Client("alice-token"))
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "alice", body)
	code, body = get(Client("bob-token"))
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "bob", body)
	code, _ = get(Client("mallory-token"))
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _ = get(http.DefaultClient)
	assert.Equal(t, http.StatusUnauthorized, code)
}
