package page_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/internal/pagetest"
	"github.com/mcpgen/mcpgen/runtime/page"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// env is one server: flows with a store and a key ring, and the page
// handler mounted under /elicit/, identifying the browser's user by the
// X-Test-User header (a test's stand-in for a session cookie).
type env struct {
	t     *testing.T
	o     *runtime.Options
	srv   *httptest.Server
	store *runtime.MemoryStore
	// waits is the page store as the flows see it (Options.PageStore),
	// which tells which requests are waiting for a page.
	waits *pagetest.Waiting
	// checks counts AskOptions.Check calls; refuse, when set, is its error.
	checks   atomic.Int32
	refuse   error
	notified []string
	log      syncBuffer // every record of the flows' and the page's loggers
}

// syncBuffer is a bytes.Buffer safe for the handlers' goroutines.
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

// flowsOnly is e.store as a flow store alone: the engine and the page
// reach pages through Options.PageStore only.
type flowsOnly struct{ runtime.Store }

func newEnv(t *testing.T) *env {
	e := &env{t: t, store: runtime.NewMemoryStore()}
	mux := http.NewServeMux()
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	logger := slog.New(slog.NewJSONHandler(&e.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.waits = pagetest.NewWaiting(e.store)
	e.o = &runtime.Options{Keys: runtime.EphemeralKeyRing(), Store: flowsOnly{e.store}, PageStore: e.waits, PageURL: e.srv.URL + "/elicit/",
		PageWait: 50 * time.Millisecond, Logger: logger}
	mux.Handle("/elicit/", page.Handler(e.o, page.Options{Title: "Test", Logger: logger, Identify: func(w http.ResponseWriter, r *http.Request) (string, bool) {
		u := r.Header.Get("X-Test-User")
		if u == "" {
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return "", false
		}
		return u, true
	}}))
	return e
}

// call runs one request of an exchange named "import" for principal that
// asks fixture.Key on the page and answers with the key's length.
func (e *env) call(principal, version, state string, responses map[string]protocol.InputResponse) (*runtime.Response, error) {
	req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`), RequestState: state,
		InputResponses: responses, FormElicitation: true, URLElicitation: true, Principal: principal, ProtocolVersion: version}
	req.NotifyElicitationComplete = func(_ context.Context, id string) error {
		e.notified = append(e.notified, id)
		return nil
	}
	x, err := runtime.NewExchange("import", e.o, req)
	if err != nil {
		return nil, err
	}
	// A context of the request's own, by which pagetest.Waiting tells
	// requests apart.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return x.Run(ctx, func(ctx context.Context) (*runtime.Response, error) {
		var q fixture.Key
		action, err := runtime.Ask(ctx, "key", &q, &runtime.AskOptions{Check: func(context.Context) error {
			e.checks.Add(1)
			if e.refuse != nil && q.Key == "wrong-key" {
				return e.refuse
			}
			return nil
		}})
		if err != nil {
			return nil, err
		}
		if action != runtime.Accept {
			return &runtime.Response{Result: runtime.Textf("no key: %s", action)}, nil
		}
		return &runtime.Response{Result: runtime.Textf("imported with a key of %d characters", len(q.Key))}, nil
	})
}

// urlRequest returns the one URL-mode request of an input-required response.
func urlRequest(t *testing.T, resp *runtime.Response) (key string, ir *protocol.ElicitRequest) {
	t.Helper()
	require.Nil(t, resp.Result, "want an input-required result")
	require.Len(t, resp.InputRequests, 1)
	for k, v := range resp.InputRequests {
		ir, ok := v.(*protocol.ElicitRequest)
		require.True(t, ok)
		require.Equal(t, "url", ir.Mode)
		return k, ir
	}
	return "", nil
}

// browse sends one browser request to the page as user ("" for none).
func (e *env) browse(method, pageURL, user string, form url.Values) (int, string) {
	e.t.Helper()
	code, body, err := pagetest.Do(method, pageURL, asUser(user), form)
	require.NoError(e.t, err)
	return code, body
}

// asUser is the header by which the test's Identify hook knows user.
func asUser(user string) http.Header {
	if user == "" {
		return nil
	}
	return http.Header{"X-Test-User": {user}}
}

// complete opens pageURL as user and posts key with the form's CSRF token.
func (e *env) complete(pageURL, user, key string) (int, string) {
	e.t.Helper()
	code, body, err := pagetest.Submit(pageURL, asUser(user), url.Values{"key": {key}})
	require.NoError(e.t, err)
	return code, body
}

func TestPageFullFlow(t *testing.T) {
	e := newEnv(t)
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	key, ir := urlRequest(t, r1)
	assert.Equal(t, "key", key)
	id := strings.TrimPrefix(ir.URL, e.o.PageURL)
	assert.Regexp(t, `^[A-Za-z0-9_-]{22}$`, id, "the URL is the page URL and an opaque id, nothing else")
	assert.Equal(t, id, ir.ElicitationID)
	assert.Equal(t, "Enter the key of your contacts service.", ir.Message)

	// The page's response headers forbid framing, referrers, caching and
	// anything but its own style.
	req, _ := http.NewRequest(http.MethodGet, ir.URL, nil)
	req.Header.Set("X-Test-User", "alice")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'")
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
	assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))

	const secret = "ck-alice-123"
	code, body := e.complete(ir.URL, "alice", secret)
	require.Equal(t, http.StatusOK, code, body)
	assert.NotContains(t, body, secret)

	r2, err := e.call("alice", "", r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	require.NotNil(t, r2.Result)
	assert.Equal(t, "imported with a key of 12 characters", r2.Result.Text)
	assert.EqualValues(t, 1, e.checks.Load())
	for _, s := range []string{r1.RequestState, ir.URL, ir.Message} {
		assert.NotContains(t, s, secret)
	}
	_, _, err = e.store.Page(context.Background(), id)
	assert.ErrorIs(t, err, runtime.ErrNoPage, "the answer is dropped once the call completed")
	logs := e.log.String()
	assert.Contains(t, logs, `"outcome":"completed"`, "the page and the flow log what happened")
	assert.NotContains(t, logs, secret, "and never the key")

	// The completed link, opened again: refused, nothing changed.
	code, _ = e.browse(http.MethodGet, ir.URL, "alice", nil)
	assert.Contains(t, []int{http.StatusNotFound, http.StatusConflict}, code)
}

func TestPageRefusals(t *testing.T) {
	e := newEnv(t)
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	_, ir := urlRequest(t, r1)
	id := strings.TrimPrefix(ir.URL, e.o.PageURL)

	code, body := e.browse(http.MethodGet, ir.URL, "bob", nil)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, body, "another account")
	assert.NotContains(t, body, "csrf_token", "bob is not shown the form")
	code, _ = e.browse(http.MethodPost, ir.URL, "bob", url.Values{"key": {"ck-bob-456"}})
	assert.Equal(t, http.StatusForbidden, code)

	code, body = e.browse(http.MethodPost, ir.URL, "alice", url.Values{"key": {"ck-alice-123"}})
	assert.Equal(t, http.StatusForbidden, code, "a post without the CSRF token")
	assert.Contains(t, body, "security token")

	// Bob's CSRF token (from a page of his own) does not complete alice's.
	rb, err := e.call("bob", "", "", nil)
	require.NoError(t, err)
	_, irb := urlRequest(t, rb)
	_, bobPage := e.browse(http.MethodGet, irb.URL, "bob", nil)
	code, _ = e.browse(http.MethodPost, ir.URL, "alice", url.Values{"csrf_token": {pagetest.CSRFToken(bobPage)}, "key": {"ck-alice-123"}})
	assert.Equal(t, http.StatusForbidden, code)

	// A cross-site post is refused before anything is read.
	req, _ := http.NewRequest(http.MethodPost, ir.URL, strings.NewReader("key=x"))
	req.Header.Set("X-Test-User", "alice")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	// An answer that breaks the question's rules: the form again, with the
	// reason, and nothing stored.
	code, body = e.complete(ir.URL, "alice", "short")
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, body, "Please check")
	assert.NotContains(t, body, `value="short"`)

	code, _ = e.browse(http.MethodGet, e.o.PageURL+"not-an-id", "alice", nil)
	assert.Equal(t, http.StatusNotFound, code)
	code, _ = e.browse(http.MethodGet, e.o.PageURL+strings.Repeat("A", 22), "alice", nil)
	assert.Equal(t, http.StatusNotFound, code)
	code, _ = e.browse(http.MethodGet, ir.URL, "", nil)
	assert.Equal(t, http.StatusUnauthorized, code, "the Identify hook answers for an unknown user")

	_, answer, err := e.store.Page(context.Background(), id)
	require.NoError(t, err)
	assert.Nil(t, answer, "no refused request stored anything")

	// Completed once; a second completion is refused.
	code, _ = e.complete(ir.URL, "alice", "ck-alice-123")
	require.Equal(t, http.StatusOK, code)
	code, body = e.browse(http.MethodGet, ir.URL, "alice", nil)
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "already completed")
}

func TestPageExpired(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.o.Now = func() time.Time { return now }
	e.o.TTL = time.Minute
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	_, ir := urlRequest(t, r1)
	now = now.Add(2 * time.Minute)
	code, body := e.browse(http.MethodGet, ir.URL, "alice", nil)
	assert.Equal(t, http.StatusGone, code)
	assert.Contains(t, body, "expired")
}

func TestPageWaitsAreNotRounds(t *testing.T) {
	e := newEnv(t)
	r, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	key, first := urlRequest(t, r)
	// Far more retries than MaxRounds (3) while the user has not completed
	// the page: each asks the same URL again.
	for range 6 {
		r, err = e.call("alice", "", r.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
		require.NoError(t, err)
		var ir *protocol.ElicitRequest
		key, ir = urlRequest(t, r)
		assert.Equal(t, first.URL, ir.URL)
	}
	code, _ := e.complete(first.URL, "alice", "ck-alice-123")
	require.Equal(t, http.StatusOK, code)
	r, err = e.call("alice", "", r.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	require.NotNil(t, r.Result)
	assert.Equal(t, "imported with a key of 12 characters", r.Result.Text)
}

func TestPageDeclineAndCancel(t *testing.T) {
	for _, action := range []runtime.Action{runtime.Decline, runtime.Cancel} {
		e := newEnv(t)
		r1, err := e.call("alice", "", "", nil)
		require.NoError(t, err)
		key, ir := urlRequest(t, r1)
		r2, err := e.call("alice", "", r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: action}})
		require.NoError(t, err)
		require.NotNil(t, r2.Result)
		assert.Equal(t, "no key: "+string(action), r2.Result.Text)
		code, _ := e.browse(http.MethodGet, ir.URL, "alice", nil)
		assert.Equal(t, http.StatusNotFound, code, "a refused page is dropped")
	}
}

func TestPageCheckAsksAgainWithReason(t *testing.T) {
	e := newEnv(t)
	e.refuse = errors.New("the contacts service refused this key (unknown key)")
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	key, ir := urlRequest(t, r1)
	code, _ := e.complete(ir.URL, "alice", "wrong-key")
	require.Equal(t, http.StatusOK, code)
	r2, err := e.call("alice", "", r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	key2, ir2 := urlRequest(t, r2)
	assert.NotEqual(t, ir.URL, ir2.URL, "a refused answer is asked on a new page")
	assert.Contains(t, ir2.Message, "the contacts service refused this key (unknown key)")
	code, _ = e.complete(ir2.URL, "alice", "ck-alice-123")
	require.Equal(t, http.StatusOK, code)
	r3, err := e.call("alice", "", r2.RequestState, map[string]protocol.InputResponse{key2: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	require.NotNil(t, r3.Result)
	assert.Equal(t, "imported with a key of 12 characters", r3.Result.Text)
}

func TestPageNeedsURLCapability(t *testing.T) {
	e := newEnv(t)
	req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`), FormElicitation: true, Principal: "alice"}
	x, err := runtime.NewExchange("import", e.o, req)
	require.NoError(t, err)
	_, err = x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
		var q fixture.Key
		_, err := runtime.Ask(ctx, "key", &q, nil)
		return nil, err
	})
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.EqualValues(t, protocol.CodeMissingCapability, pe.Code)
	assert.Equal(t, map[string]any{"requiredCapabilities": map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}}, pe.Data)
	assert.Equal(t, 0, e.store.Len(), "no page is made for a client that cannot open it")
}

func TestPageLegacySessionHearsCompletion(t *testing.T) {
	e := newEnv(t)
	r1, err := e.call("alice", protocol.Version20251125, "", nil)
	require.NoError(t, err)
	key, ir := urlRequest(t, r1)
	completed := make(chan bool, 1)
	go func() {
		// Once the retry below waits for the page, the user completes it.
		if !e.waits.Await(1, 10*time.Second) {
			completed <- false
			return
		}
		code, _ := e.complete(ir.URL, "alice", "ck-alice-123")
		completed <- code == http.StatusOK
	}()
	// The bridged retry waits (well past PageWait) for the page.
	r2, err := e.call("alice", protocol.Version20251125, r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	require.NotNil(t, r2.Result)
	assert.Equal(t, "imported with a key of 12 characters", r2.Result.Text)
	assert.Equal(t, []string{ir.ElicitationID}, e.notified)
	assert.True(t, <-completed, "the page was completed while the retry waited for it")
}

// A 2025-11-25 client without URL mode has no -32021 in its era: it gets the
// tool error that says what it lacks, and no page is made.
func TestPageLegacyClientWithoutURLGetsToolError(t *testing.T) {
	e := newEnv(t)
	req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`), FormElicitation: true, Principal: "alice",
		ProtocolVersion: protocol.Version20251125}
	x, err := runtime.NewExchange("import", e.o, req)
	require.NoError(t, err)
	resp, err := x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
		var q fixture.Key
		_, err := runtime.Ask(ctx, "key", &q, nil)
		return nil, err
	})
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, "URL-mode elicitation")
	assert.Equal(t, 0, e.store.Len())
}

// A call without an authenticated user cannot be asked on a page: the page
// could not tell whether whoever opens it started the call.
func TestPageNeedsAPrincipal(t *testing.T) {
	e := newEnv(t)
	r, err := e.call("", "", "", nil)
	require.NoError(t, err)
	require.NotNil(t, r.Result)
	assert.True(t, r.Result.IsError)
	assert.Contains(t, r.Result.Text, "no authenticated user")
	assert.Equal(t, 0, e.store.Len())
}

// A post that is not UTF-8 (no browser sends one) is refused and nothing is
// stored: encoding/json would have stored U+FFFD for each invalid byte,
// another value than the one checked.
func TestPageRefusesInvalidUTF8(t *testing.T) {
	e := newEnv(t)
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	_, ir := urlRequest(t, r1)
	id := strings.TrimPrefix(ir.URL, e.o.PageURL)
	_, page := e.browse(http.MethodGet, ir.URL, "alice", nil)
	csrf := pagetest.CSRFToken(page)

	for _, form := range []url.Values{
		{"csrf_token": {csrf}, "key": {"ck-alice-\xff\xfe123"}},
		{"csrf_token": {csrf}, "key": {"ck-alice-123"}, "\xff": {"x"}},
	} {
		code, body := e.browse(http.MethodPost, ir.URL, "alice", form)
		assert.Equal(t, http.StatusBadRequest, code)
		assert.Contains(t, body, "not UTF-8")
		_, answer, err := e.store.Page(context.Background(), id)
		require.NoError(t, err)
		assert.Nil(t, answer, "nothing stored")
	}
	code, _ := e.browse(http.MethodPost, ir.URL, "alice", url.Values{"csrf_token": {csrf}, "key": {"ck-alice-123 ✓"}})
	assert.Equal(t, http.StatusOK, code, "UTF-8 beyond ASCII is fine")
}

// A record moved to another page's id by someone who can write to the store
// (but has not the keys) does not open there: alice's record put under the
// id of bob's page would show alice her own request's form, and bob's flow,
// which reads the answer of that id, would get what she enters.
func TestPageRecordIsBoundToItsID(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ra, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	_, ira := urlRequest(t, ra)
	aliceRecord, _, err := e.store.Page(ctx, strings.TrimPrefix(ira.URL, e.o.PageURL))
	require.NoError(t, err)
	rb, err := e.call("bob", "", "", nil)
	require.NoError(t, err)
	keyB, irb := urlRequest(t, rb)
	bobID := strings.TrimPrefix(irb.URL, e.o.PageURL)
	require.NoError(t, e.store.DeletePage(ctx, bobID))
	require.NoError(t, e.store.PutPage(ctx, bobID, aliceRecord, time.Now().Add(time.Hour)))

	code, body := e.browse(http.MethodGet, irb.URL, "alice", nil)
	assert.Equal(t, http.StatusNotFound, code, "alice is not shown a form on bob's page")
	assert.NotContains(t, body, "csrf_token")
	_, answer, err := e.store.Page(ctx, bobID)
	require.NoError(t, err)
	assert.Nil(t, answer)

	r2, err := e.call("bob", "", rb.RequestState, map[string]protocol.InputResponse{keyB: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	assert.Nil(t, r2.Result, "bob's flow has no answer: it asks again")
}

// Duplicates of a retry that waits for the page (a client that sent it
// again) wait the same way, holding nothing, instead of being refused as
// busy: once the user completes the page, one runs the branch and the
// others get its recorded result.
func TestPageWaitingDuplicates(t *testing.T) {
	e := newEnv(t)
	e.o.PageWait = 5 * time.Second
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	key, ir := urlRequest(t, r1)
	results := make(chan *runtime.Response, 3)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			r, err := e.call("alice", "", r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
			results <- r
			errs <- err
		}()
	}
	require.True(t, e.waits.Await(3, 10*time.Second), "the three duplicates wait for the page")
	code, _ := e.complete(ir.URL, "alice", "ck-alice-123")
	require.Equal(t, http.StatusOK, code)
	for range 3 {
		require.NoError(t, <-errs)
		r := <-results
		require.NotNil(t, r.Result)
		assert.Equal(t, "imported with a key of 12 characters", r.Result.Text)
	}
	assert.EqualValues(t, 1, e.checks.Load(), "the branch ran once")
}

// A page's post is held to the limits of a client's answers: a value over
// Options.MaxStringBytes is refused with 413 and nothing is stored.
func TestPageLimits(t *testing.T) {
	e := newEnv(t)
	e.o.MaxStringBytes = 64
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	_, ir := urlRequest(t, r1)
	code, body := e.complete(ir.URL, "alice", strings.Repeat("k", 65))
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	assert.Contains(t, body, "65 bytes")
	_, answer, err := e.store.Page(context.Background(), strings.TrimPrefix(ir.URL, e.o.PageURL))
	require.NoError(t, err)
	assert.Nil(t, answer)
	code, _ = e.complete(ir.URL, "alice", strings.Repeat("k", 64))
	assert.Equal(t, http.StatusOK, code)
}

// One user cannot fill the store with pages: beyond MaxPagesPerPrincipal open
// pages, a first call that would ask on a new page is a tool error saying
// so, and stores nothing; other users are not affected; a page counts no
// more once its call completed, or once its flow expired.
func TestPagesPerPrincipalAreBounded(t *testing.T) {
	e := newEnv(t)
	e.o.MaxPagesPerPrincipal = 3
	now := time.Now()
	e.o.Now = func() time.Time { return now }
	var first *runtime.Response
	for i := range 3 {
		r, err := e.call("alice", "", "", nil)
		require.NoError(t, err)
		urlRequest(t, r)
		if i == 0 {
			first = r
		}
	}
	held := e.store.Len()
	r, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	require.NotNil(t, r.Result, "a tool error, not a fourth page")
	assert.True(t, r.Result.IsError)
	assert.Contains(t, r.Result.Text, "3 pages asked of this user are still open")
	assert.Contains(t, r.Result.Text, "call again after "+now.Add(runtime.DefaultTTL).UTC().Format("15:04:05 UTC"))
	assert.Equal(t, held, e.store.Len(), "nothing stored for the refused call")

	r, err = e.call("bob", "", "", nil)
	require.NoError(t, err)
	urlRequest(t, r) // bob has pages of his own

	// alice completes her first call: its page no longer counts.
	key, ir := urlRequest(t, first)
	code, body := e.complete(ir.URL, "alice", "ck-alice-123")
	require.Equal(t, http.StatusOK, code, body)
	done, err := e.call("alice", "", first.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.NoError(t, err)
	require.NotNil(t, done.Result)
	require.False(t, done.Result.IsError, done.Result.Text)
	r, err = e.call("alice", "", "", nil)
	require.NoError(t, err)
	urlRequest(t, r)
	r, err = e.call("alice", "", "", nil)
	require.NoError(t, err)
	require.NotNil(t, r.Result)
	assert.True(t, r.Result.IsError, "three open again")

	// Once their flows expired, alice's pages count no more.
	now = now.Add(runtime.DefaultTTL + time.Second)
	r, err = e.call("alice", "", "", nil)
	require.NoError(t, err)
	urlRequest(t, r)
}

// A URL-mode question's page applies the tags' rules alone: Ask refuses the
// run-time ones rather than let an answer through unchecked.
func TestPageRefusesRunTimeRules(t *testing.T) {
	e := newEnv(t)
	for name, opts := range map[string]*runtime.AskOptions{
		"Equal":    {Equal: map[string]string{"key": "ck-must-be-this"}},
		"Defaults": {Defaults: map[string]any{"key": "ck-default"}},
		"Choices":  {Choices: map[string][]runtime.Choice{"key": {{Value: "a"}}}},
	} {
		req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`), FormElicitation: true,
			URLElicitation: true, Principal: "alice", ProtocolVersion: protocol.VersionMRTR}
		x, err := runtime.NewExchange("import", e.o, req)
		require.NoError(t, err)
		_, err = x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
			var q fixture.Key
			if _, err := runtime.Ask(ctx, "key", &q, opts); err != nil {
				return nil, err
			}
			return &runtime.Response{Result: runtime.Text("asked")}, nil
		})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "applies no AskOptions.Choices, Equal, Defaults or Descriptions", name)
	}
	assert.Zero(t, e.store.Len(), "no page was stored")
}

// keysOnB is the page store of a second instance: the same store behind
// another value, so that its page count is its own.
type keysOnB struct{ runtime.PageStore }

// Behind a load balancer the instance that asked for a page is often not
// the one that completes the call: a page deleted there counts no more here,
// once the user reaches the limit.
func TestPagesCompletedOnAnotherInstanceCountNoMore(t *testing.T) {
	e := newEnv(t)
	e.o.MaxPagesPerPrincipal = 3
	now := time.Now()
	e.o.Now = func() time.Time { return now } // both instances' clock
	a, b := e.o, *e.o
	b.PageStore = &keysOnB{e.store}
	for i := range 7 {
		e.o = a
		r, err := e.call("alice", "", "", nil)
		require.NoError(t, err)
		require.Nil(t, r.Result, "call %d on A after %d completed on B", i, i)
		key, ir := urlRequest(t, r)
		code, body := e.complete(ir.URL, "alice", "ck-alice-123")
		require.Equal(t, http.StatusOK, code, body)
		e.o = &b
		done, err := e.call("alice", "", r.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
		require.NoError(t, err)
		require.NotNil(t, done.Result)
		require.False(t, done.Result.IsError, done.Result.Text)
		now = now.Add(11 * time.Second) // past the once-a-second look, and the pages' settling
	}
}

// A call that ends without its branch (the round limit, after answers the
// check refused each time), or whose question changed since its page was
// asked, leaves no page behind: nothing stays in the store and nothing
// counts against the user.
func TestPagesOfEndedOrChangedQuestionsAreDropped(t *testing.T) {
	e := newEnv(t)
	e.o.MaxPagesPerPrincipal = 3
	e.refuse = errors.New("the service refused this key")
	for i := range 4 {
		r, err := e.call("alice", "", "", nil)
		require.NoError(t, err)
		var asked []string
		for round := 0; r.Result == nil; round++ {
			require.Less(t, round, 10, "call %d never ended", i)
			key, ir := urlRequest(t, r)
			asked = append(asked, strings.TrimPrefix(ir.URL, e.o.PageURL))
			code, body := e.complete(ir.URL, "alice", "wrong-key")
			require.Equal(t, http.StatusOK, code, body)
			r, err = e.call("alice", "", r.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
			require.NoError(t, err)
		}
		assert.True(t, r.Result.IsError, "call %d: %s", i, r.Result.Text)
		assert.NotContains(t, r.Result.Text, "pages asked of this user are still open", "call %d", i)
		for _, id := range asked {
			_, _, err := e.store.Page(context.Background(), id)
			assert.ErrorIs(t, err, runtime.ErrNoPage, "call %d left a page in the store", i)
		}
	}

	// The question's message changes from one request to the next: the
	// completed page of the first is replaced, and deleted.
	n := 0
	call := func(state string, responses map[string]protocol.InputResponse) *runtime.Response {
		req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`), RequestState: state,
			InputResponses: responses, FormElicitation: true, URLElicitation: true, Principal: "bob", ProtocolVersion: protocol.VersionMRTR}
		x, err := runtime.NewExchange("import", e.o, req)
		require.NoError(t, err)
		resp, err := x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
			n++
			var q fixture.Key
			if _, err := runtime.Ask(ctx, "key", &q, &runtime.AskOptions{Message: fmt.Sprintf("Enter the key (request %d)", n)}); err != nil {
				return nil, err
			}
			return &runtime.Response{Result: runtime.Text("done")}, nil
		})
		require.NoError(t, err)
		return resp
	}
	r1 := call("", nil)
	key, ir := urlRequest(t, r1)
	code, body := e.complete(ir.URL, "bob", "ck-bob-456")
	require.Equal(t, http.StatusOK, code, body)
	r2 := call(r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	_, ir2 := urlRequest(t, r2)
	require.NotEqual(t, ir.URL, ir2.URL, "asked on a new page")
	_, _, err := e.store.Page(context.Background(), strings.TrimPrefix(ir.URL, e.o.PageURL))
	assert.ErrorIs(t, err, runtime.ErrNoPage, "the replaced page, and the answer on it, are deleted")
	_, _, err = e.store.Page(context.Background(), strings.TrimPrefix(ir2.URL, e.o.PageURL))
	assert.NoError(t, err, "the new page is there")
}

// slowPut holds the first PutPage until release is closed.
type slowPut struct {
	runtime.PageStore
	held    atomic.Bool
	arrived chan struct{}
	release chan struct{}
}

func (s *slowPut) PutPage(ctx context.Context, id string, record []byte, expires time.Time) error {
	if s.held.CompareAndSwap(false, true) {
		close(s.arrived)
		<-s.release
	}
	return s.PageStore.PutPage(ctx, id, record, expires)
}

// A page counted but not yet in the store (its call still writing it) is
// not taken for one deleted elsewhere: a second call of the same user at
// the limit is refused, not given a page beyond it.
func TestPageOnItsWayCounts(t *testing.T) {
	e := newEnv(t)
	e.o.MaxPagesPerPrincipal = 1
	slow := &slowPut{PageStore: e.store, arrived: make(chan struct{}), release: make(chan struct{})}
	e.o.PageStore = slow
	first := make(chan *runtime.Response, 1)
	go func() {
		r, err := e.call("alice", "", "", nil)
		assert.NoError(t, err)
		first <- r
	}()
	<-slow.arrived
	release := sync.OnceFunc(func() { close(slow.release) })
	t.Cleanup(release) // a failing test does not leave the first call waiting
	r, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	require.NotNil(t, r.Result, "the second call is refused while the first one's page is on its way")
	assert.Contains(t, r.Result.Text, "1 pages asked of this user are still open")
	release()
	urlRequest(t, <-first)
}

// forgetful is a store that, once forget is set, answers every claim as a
// store that lost its memory (runtime.ErrEpoch: a restart, a failover).
type forgetful struct {
	runtime.Store
	forget atomic.Bool
}

func (s *forgetful) Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error) {
	if s.forget.Load() {
		return nil, runtime.ErrEpoch
	}
	return s.Store.Claim(ctx, flow, token, epoch, lease)
}

// A retry the store can no longer honour (it may have forgotten the flow)
// ends the call: its page, with the answer on it, is deleted, and counts no
// more against the user.
func TestForgottenFlowDropsItsPage(t *testing.T) {
	e := newEnv(t)
	e.o.MaxPagesPerPrincipal = 1
	store := &forgetful{Store: e.store}
	e.o.Store = store
	r1, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	key, ir := urlRequest(t, r1)
	code, body := e.complete(ir.URL, "alice", "ck-alice-123")
	require.Equal(t, http.StatusOK, code, body)
	store.forget.Store(true)
	_, err = e.call("alice", "", r1.RequestState, map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: runtime.Accept}})
	require.ErrorContains(t, err, "start the call again")
	_, _, err = e.store.Page(context.Background(), strings.TrimPrefix(ir.URL, e.o.PageURL))
	assert.ErrorIs(t, err, runtime.ErrNoPage, "the page and its answer are gone")
	store.forget.Store(false)
	r2, err := e.call("alice", "", "", nil)
	require.NoError(t, err)
	urlRequest(t, r2) // not refused by the limit
}
