package redisstore_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/internal/pagetest"
	"github.com/mcpgen/mcpgen/runtime/page"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Two instances share the key ring and one Redis, nothing else: the page
// is served by one, every retry lands on the other, and the branch gets the
// key the user entered on the first; once the call completed the page is
// gone from Redis.
func TestURLModeAcrossInstances(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	keys := runtime.EphemeralKeyRing()
	instance := func() *runtime.Options {
		s, _ := newStore(t, srv, nil)
		return &runtime.Options{Keys: keys, Store: s, PageWait: 100 * time.Millisecond}
	}
	a, b := instance(), instance()
	pages := httptest.NewServer(page.Handler(a, page.Options{Identify: func(http.ResponseWriter, *http.Request) (string, bool) {
		return "alice", true
	}}))
	t.Cleanup(pages.Close)
	a.PageURL, b.PageURL = pages.URL+"/elicit/", pages.URL+"/elicit/"

	call := func(o *runtime.Options, state string, responses map[string]protocol.InputResponse) *runtime.Response {
		t.Helper()
		x, err := runtime.NewExchange("import", o, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`),
			RequestState: state, InputResponses: responses, URLElicitation: true, Principal: "alice"})
		require.NoError(t, err)
		resp, err := x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
			var q fixture.Key
			if _, err := runtime.Ask(ctx, "key", &q, nil); err != nil {
				return nil, err
			}
			return &runtime.Response{Result: runtime.Textf("key of %d characters", len(q.Key))}, nil
		})
		require.NoError(t, err)
		return resp
	}
	r1 := call(b, "", nil)
	var pageURL, key string
	for k, ir := range r1.InputRequests {
		key, pageURL = k, ir.(*protocol.ElicitRequest).URL
	}
	accepted := map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}}

	// Not completed yet: instance b asks the same page again.
	r2 := call(b, r1.RequestState, accepted)
	require.Nil(t, r2.Result)
	for k, ir := range r2.InputRequests {
		key = k
		assert.Equal(t, pageURL, ir.(*protocol.ElicitRequest).URL)
	}

	// The user completes it on instance a's page.
	status, body, err := pagetest.Submit(pageURL, nil, url.Values{"key": {"ck-alice-123"}})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status, body)

	r3 := call(b, r2.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NotNil(t, r3.Result)
	assert.Equal(t, "key of 12 characters", r3.Result.Text)
	_, _, err = b.FlowPageStore().Page(context.Background(), strings.TrimPrefix(pageURL, b.PageURL))
	assert.ErrorIs(t, err, runtime.ErrNoPage)
}

// The limit of open pages per user, across two instances on one Redis (each
// its own client, so its own count): every call asks on instance a and
// completes on instance b, which deletes its page; a, at the limit, finds
// them gone in Redis and goes on asking.
func TestPageLimitAcrossInstances(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	keys := runtime.EphemeralKeyRing()
	now := time.Now()
	clock := func() time.Time { return now }
	instance := func() *runtime.Options {
		s, _ := newStore(t, srv, nil)
		return &runtime.Options{Keys: keys, Store: s, MaxPagesPerPrincipal: 3, Now: clock}
	}
	a, b := instance(), instance()
	pages := httptest.NewServer(page.Handler(a, page.Options{Identify: func(http.ResponseWriter, *http.Request) (string, bool) {
		return "alice", true
	}}))
	t.Cleanup(pages.Close)
	a.PageURL, b.PageURL = pages.URL+"/elicit/", pages.URL+"/elicit/"
	call := func(o *runtime.Options, state string, responses map[string]protocol.InputResponse) *runtime.Response {
		t.Helper()
		x, err := runtime.NewExchange("import", o, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`),
			RequestState: state, InputResponses: responses, URLElicitation: true, Principal: "alice"})
		require.NoError(t, err)
		resp, err := x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
			var q fixture.Key
			if _, err := runtime.Ask(ctx, "key", &q, nil); err != nil {
				return nil, err
			}
			return &runtime.Response{Result: runtime.Text("imported")}, nil
		})
		require.NoError(t, err)
		return resp
	}
	for i := range 6 {
		r := call(a, "", nil)
		require.Nil(t, r.Result, "call %d on a, after %d completed on b", i, i)
		var key, pageURL string
		for k, ir := range r.InputRequests {
			key, pageURL = k, ir.(*protocol.ElicitRequest).URL
		}
		status, body, err := pagetest.Submit(pageURL, nil, url.Values{"key": {"ck-alice-123"}})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, status, body)
		done := call(b, r.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
		require.NotNil(t, done.Result)
		require.Equal(t, "imported", done.Result.Text)
		now = now.Add(11 * time.Second) // past the once-a-second look at the store, and a page's settling
	}
}
