// Package pagetest does in tests what a user does on the page of a
// URL-mode question (package runtime/page) without a browser: open it, read
// its form's CSRF token, post values with it; and, with Waiting, tells when
// the requests of a call wait for the page, for a test to complete it then.
// The browser tests (examples/internal/pagebrowser) do the same in Chromium.
package pagetest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// CSRFToken returns the CSRF token of the form in a page's body, "" when it
// shows no form.
func CSRFToken(body string) string {
	if m := csrfInput.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// Do sends one request to a page with header (the test's stand-in for a
// browser's session) and form as the url-encoded body when non-nil; it
// returns the status and the body.
func Do(method, pageURL string, header http.Header, form url.Values) (int, string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, pageURL, body)
	if err != nil {
		return 0, "", err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// Submit opens pageURL, reads its form's CSRF token and posts values with
// it, all with header; it returns the post's status and body. It fails when
// the page shows no form (naming the status it answered).
func Submit(pageURL string, header http.Header, values url.Values) (int, string, error) {
	status, body, err := Do(http.MethodGet, pageURL, header, nil)
	if err != nil {
		return 0, "", err
	}
	token := CSRFToken(body)
	if status != http.StatusOK || token == "" {
		return status, body, fmt.Errorf("pagetest: %s shows no form (HTTP %d)", pageURL, status)
	}
	form := url.Values{"csrf_token": {token}}
	for k, v := range values {
		form[k] = v
	}
	return Do(http.MethodPost, pageURL, header, form)
}

// Waiting is a page store that notes each request, by its context, that
// looked at a page and found it not completed yet: a retry waiting for the
// user's page looks at it until it is completed, so a test completes the
// page once its requests wait (Await) rather than after a pause. Requests
// are told apart by their contexts: give each its own.
type Waiting struct {
	engine.PageStore
	mu      sync.Mutex
	waiting map[context.Context]bool
	changed chan struct{} // closed, and replaced, when a request is added
}

// NewWaiting returns s as a Waiting page store.
func NewWaiting(s engine.PageStore) *Waiting {
	return &Waiting{PageStore: s, waiting: map[context.Context]bool{}, changed: make(chan struct{})}
}

// Page is the store's, noting a request that finds no answer.
func (w *Waiting) Page(ctx context.Context, id string) (record, answer []byte, err error) {
	record, answer, err = w.PageStore.Page(ctx, id)
	if err == nil && answer == nil {
		w.mu.Lock()
		if !w.waiting[ctx] {
			w.waiting[ctx] = true
			close(w.changed)
			w.changed = make(chan struct{})
		}
		w.mu.Unlock()
	}
	return record, answer, err
}

// Await reports whether n requests have looked at a page not completed yet
// (and so wait for it) before timeout.
func (w *Waiting) Await(n int, timeout time.Duration) bool {
	expired := time.After(timeout)
	for {
		w.mu.Lock()
		got, changed := len(w.waiting), w.changed
		w.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-changed:
		case <-expired:
			return false
		}
	}
}
