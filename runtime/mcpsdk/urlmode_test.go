package mcpsdk_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/internal/pagetest"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/page"
)

const urlSecret = "ck-alice-123"

// urlServer serves, on one loopback address, a tool "import" that asks
// fixture.Key on the page (a URL-mode question) and the page itself under
// /elicit/, identifying the browser's user by the X-Test-User header. Every
// call's principal is alice.
func urlServer(t *testing.T) (endpoint string, o *runtime.Options) {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing(), PageURL: srv.URL + "/elicit/", PageWait: time.Second},
		Principal: func(context.Context, *mcp.RequestExtra) string { return "alice" }}
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcpsdk.AddExchangeTool(s, &mcp.Tool{Name: "import", Description: "imports with a key asked on the page"}, opts,
		func(ctx context.Context, _ *runtime.Exchange) (*runtime.Response, error) {
			var q fixture.Key
			action, err := runtime.Ask(ctx, "key", &q, nil)
			if err != nil {
				return nil, err
			}
			if action != runtime.Accept {
				return &runtime.Response{Result: runtime.Textf("no key: %s", action)}, nil
			}
			return &runtime.Response{Result: runtime.Textf("imported with a key of %d characters", len(q.Key))}, nil
		})
	mux.Handle("/mcp", mcpsdk.NewHTTPHandler(s, nil))
	mux.Handle("/elicit/", page.Handler(&opts.Flow, page.Options{Identify: func(w http.ResponseWriter, r *http.Request) (string, bool) {
		u := r.Header.Get("X-Test-User")
		if u == "" {
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return "", false
		}
		return u, true
	}}))
	return srv.URL + "/mcp", &opts.Flow
}

// fillPage does what alice does in her browser: open the page, enter the key, submit.
func fillPage(pageURL string) error {
	status, _, err := pagetest.Submit(pageURL, http.Header{"X-Test-User": {"alice"}}, url.Values{"key": {urlSecret}})
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("post: HTTP %d", status)
	}
	return err
}

var urlCaps = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
	Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}}

// A 2026-07-28 client (go-sdk's, driving the rounds itself) is sent an
// elicitation/create in URL mode with an opaque page URL and an
// elicitationId; its retry after the page was completed gets the result,
// and nothing the client saw holds the key.
func TestURLModeStateless(t *testing.T) {
	endpoint, o := urlServer(t)
	var seen []*mcp.ElicitParams
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{Capabilities: urlCaps,
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			seen = append(seen, req.Params)
			if err := fillPage(req.Params.URL); err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: "accept"}, nil
		}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "import", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, "imported with a key of 12 characters", text(res))
	require.Len(t, seen, 1)
	assert.Equal(t, "url", seen[0].Mode)
	assert.Regexp(t, "^"+regexp.QuoteMeta(o.PageURL)+`[A-Za-z0-9_-]{22}$`, seen[0].URL)
	assert.Equal(t, seen[0].URL, o.PageURL+seen[0].ElicitationID)
	assert.NotContains(t, text(res), urlSecret)
}

// A client whose capabilities lack url is refused with -32021 naming the
// capability it needs (MCP 2026-07-28, basic/index).
func TestURLModeNeedsTheCapability(t *testing.T) {
	endpoint, _ := urlServer(t)
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not asked")
		}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "import", Arguments: map[string]any{}})
	je := requireCode(t, err, -32021)
	assert.Contains(t, string(je.Data), `"url"`)

	// On the wire: HTTP 400 and data.requiredCapabilities.
	status, body := send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"import","arguments":{},`+
		meta2026+`}}`, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "import"})
	assert.Equal(t, http.StatusBadRequest, status, body)
	e, _ := rpcResponse(t, []byte(body))["error"].(map[string]any)
	require.NotNil(t, e, body)
	assert.EqualValues(t, -32021, e["code"])
	assert.Equal(t, map[string]any{"requiredCapabilities": map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}}, e["data"])
}

// A 2025-11-25 client on a session: go-sdk's bridge sends the URL request
// with its elicitationId; the user completes the page later; the session's
// client hears notifications/elicitation/complete for that id, then gets the
// result of the same tools/call.
func TestURLModeLegacySessionHearsCompletion(t *testing.T) {
	endpoint, o := urlServer(t)
	waits := pagetest.NewWaiting(runtime.NewMemoryStore())
	o.PageStore = waits
	var mu sync.Mutex
	var asked, completed []string
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{Capabilities: urlCaps,
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			asked = append(asked, req.Params.ElicitationID)
			mu.Unlock()
			go func() {
				// The user fills the page once the call waits for it.
				if !waits.Await(1, 10*time.Second) {
					t.Errorf("the call never waited for its page")
				}
				_ = fillPage(req.Params.URL)
			}()
			return &mcp.ElicitResult{Action: "accept"}, nil // "I opened the link"
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			mu.Lock()
			completed = append(completed, req.Params.ElicitationID)
			mu.Unlock()
		}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	require.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "import", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, "imported with a key of 12 characters", text(res))
	// The client handles notifications apart from results: the
	// notification may be handled just after the result arrives.
	assert.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(completed) == 1
	}, 5*time.Second, 10*time.Millisecond, "notifications/elicitation/complete")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, asked, 1)
	assert.NotEmpty(t, asked[0])
	assert.Equal(t, asked, completed)
}
