package callclient

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// silent listens on a loopback port, accepts connections and never
// answers; it returns the endpoint and a channel closed at the first
// connection it accepts.
func silent(t *testing.T) (endpoint string, accepted <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var conns []net.Conn
	done := make(chan struct{})
	first := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if conns = append(conns, c); len(conns) == 1 {
				close(first)
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/mcp", first
}

// A server that accepts and never answers, over HTTP or stdio: -timeout
// ends the wait, naming the request and the bound.
func TestTimeout(t *testing.T) {
	endpoint, _ := silent(t)
	for _, args := range [][]string{{endpoint}, {"--", "sleep", "100"}} {
		where := strings.Join(args, " ")
		if args[0] == "--" {
			where = "sleep 100"
		}
		start := time.Now()
		code, _, errs := call(t, append([]string{"-timeout", "1s"}, args...)...)
		assert.Equal(t, 1, code, errs)
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.Contains(t, errs, "mcpgen-call: server/discover at "+where+": not done within -timeout 1s (it bounds the whole call, but for the time spent in forms; -timeout 0 waits forever)\n")
	}
}

// -timeout bounds -open-cmd too (it is the client's own program, not a
// person at a form): a URL-mode page whose -open-cmd never ends, while the
// 2025-11-25 tools/call waits for its result or between 2026-07-28 rounds.
// (A person's time in a form is not bounded: internal/callclient/tmux/run.)
func TestTimeoutBoundsOpenCmd(t *testing.T) {
	connect := startConnect(t)
	stuck := writeFile(t, "#!/bin/sh\nexec sleep 100\n")
	require.NoError(t, os.Chmod(stuck, 0o700))
	for _, era := range eras {
		code, _, errs := call(t, "-protocol", era, "-timeout", "1s", "-open-cmd", stuck, "-decline",
			"-H", "Authorization: Bearer bob-token", connect, "import_contacts", "{}")
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, errs, "not done within -timeout 1s", era)
	}
}

// -wire shows the exchange that failed: the tools/call and the server's
// -32602 with its HTTP status; an HTTP 401 with its body.
func TestWireShowsFailures(t *testing.T) {
	code, _, errs := call(t, "-wire", "-H", "Authorization: Bearer alice-token", billing, "no_such", "{}")
	assert.Equal(t, 1, code)
	assert.Regexp(t, `(?m)^sent: \{"jsonrpc":"2.0","id":2,"method":"tools/call".*"name":"no_such"`, errs)
	assert.Regexp(t, `(?m)^received: HTTP 400 Bad Request: \{"jsonrpc":"2.0","id":2,"error":\{"code":-32602,"message":"unknown tool \\"no_such\\""`, errs)

	code, _, errs = call(t, "-wire", "-H", "Authorization: Bearer nobody", billing)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `(?m)^sent: \{"jsonrpc":"2.0","id":1,"method":"server/discover"`, errs)
	assert.Regexp(t, `(?m)^received: HTTP 401 Unauthorized: \S`, errs)
	assert.NotContains(t, errs, `"method":"initialize"`)
}

// An HTTP 401 on server/discover, or no server at all, is reported as
// such, naming the request and the URL: no fallback to initialize. A
// server that does not know server/discover (here a path that is not an
// MCP endpoint, HTTP 404) gets the fallback, and its report says both.
func TestDiscoverFailures(t *testing.T) {
	code, _, errs := call(t, billing)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `^mcpgen-call: server/discover at `+billing+`: HTTP 401 Unauthorized: .+ \(set -H 'Authorization: Bearer …'\)\n$`, errs)

	code, _, errs = call(t, "-H", "Authorization: Bearer nobody", billing)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `^mcpgen-call: server/discover at `+billing+`: HTTP 401 Unauthorized: .+ \(the server refused the Authorization header sent\)\n$`, errs)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	code, _, errs = call(t, closed)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `^mcpgen-call: server/discover at `+closed+`: dial tcp .*connection refused\n$`, errs)

	notMCP := strings.TrimSuffix(bookflight, "/mcp") + "/nope"
	code, _, errs = call(t, notMCP)
	assert.Equal(t, 1, code)
	assert.Equal(t, "mcpgen-call: initialize at "+notMCP+": HTTP 404 Not Found: 404 page not found (after server/discover: HTTP 404 Not Found: 404 page not found)\n", errs)
}

// What allows the fallback to initialize: the server's word on the method
// or the version, never authentication or an unreachable server.
func TestFallbackAllowed(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&jsonrpc.Error{Code: -32601, Message: "method not found"}, true},
		{&httpError{Status: 400, Line: "400 Bad Request"}, true},
		{&httpError{Status: 405, Line: "405 Method Not Allowed"}, true},
		{&httpError{Status: 401, Line: "401 Unauthorized"}, false},
		{&httpError{Status: 403, Line: "403 Forbidden"}, false},
		{&httpError{Status: 500, Line: "500 Internal Server Error"}, false},
		{&url.Error{Op: "Post", URL: "http://x", Err: syscall.ECONNREFUSED}, false},
		{context.DeadlineExceeded, false},
	} {
		assert.Equal(t, tc.want, fallbackAllowed(errors.Join(errors.New("sending"), tc.err)), "%v", tc.err)
	}
}

// Ctrl-C in a form (a key in the raw terminal) interrupts the run, naming
// the form; Esc passes to the form, whose Quit it is (cancel).
func TestCtrlCInFormInterrupts(t *testing.T) {
	var c caller
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	c.ctx, c.cancel = ctx, cancel
	defer c.showing("Which day?")()
	esc := tea.KeyMsg{Type: tea.KeyEsc}
	assert.Equal(t, esc, c.interruptKeys(nil, esc))
	assert.NoError(t, ctx.Err())
	assert.Nil(t, c.interruptKeys(nil, tea.KeyMsg{Type: tea.KeyCtrlC}))
	var ierr *interruptError
	require.ErrorAs(t, context.Cause(ctx), &ierr)
	assert.EqualError(t, ierr, `interrupted (Ctrl-C) in the form "Which day?": nothing was answered`)
}

// SIGINT while waiting for the server: exit status 130, and it says so.
func TestInterruptExitStatus(t *testing.T) {
	endpoint, accepted := silent(t)
	type result struct {
		code int
		errs string
	}
	done := make(chan result)
	go func() {
		code, _, errs := call(t, "-timeout", "0", endpoint)
		done <- result{code, errs}
	}()
	select {
	case <-accepted: // Main installs its handler before it connects
	case r := <-done:
		t.Fatalf("mcpgen-call ended before it connected: exit %d\n%s", r.code, r.errs)
	}
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGINT))
	select {
	case r := <-done:
		assert.Equal(t, ExitInterrupted, r.code)
		assert.Equal(t, "mcpgen-call: interrupted (Ctrl-C)\n", r.errs)
	case <-time.After(10 * time.Second):
		t.Fatal("mcpgen-call did not end on SIGINT")
	}
}

// Scripted answers the server never asked for are an error, naming them.
func TestUnusedAnswers(t *testing.T) {
	full := `{"origin":"CDG","destination":"JFK","date":"2026-09-01","window":"evening","passengers":2}`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-answers", writeFile(t, `["decline","cancel"]`), bookflight, "book_flight", bookArgs},
			"mcpgen-call: 1 scripted answer was not used (the server asked 1 form): answer 2 (cancel)\n"},
		{[]string{"-decline", "-accept", `{"date":"2026-09-01"}`, bookflight, "book_flight", bookArgs},
			"mcpgen-call: 1 scripted answer was not used (the server asked 1 form): answer 2 (accept {\"date\":\"2026-09-01\"})\n"},
		{[]string{"-accept", `{}`, "-cancel", bookflight, "book_flight", full},
			"mcpgen-call: 2 scripted answers were not used (the server asked no forms): answer 1 (accept {}), answer 2 (cancel)\n"},
		{[]string{"-decline", bookflight},
			"mcpgen-call: 1 scripted answer was not used (the server asked no forms): answer 1 (decline)\n"},
	} {
		code, _, errs := call(t, tc.args...)
		assert.Equal(t, 1, code, tc.args)
		assert.True(t, strings.HasSuffix(errs, tc.want), "%v: %s", tc.args, errs)
	}
}

// A scripted answer with a value the form's format refuses is sent as
// given: the server asks again (for that field) with its reason, which the
// script sees; with no answer left, the call fails with that reason; with
// one, it goes on.
func TestScriptedAnswerReasked(t *testing.T) {
	code, out, errs := call(t, "-accept", `{"date":"2026-02-30"}`, bookflight, "book_flight", bookArgs)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, "\nPlease check: date: must be a date as YYYY-MM-DD")
	assert.Contains(t, errs, `mcpgen-call: the server asked a form the answers do not cover: "Which day should the flight leave, and how many people are flying?\n\nPlease check: date: must be a date as YYYY-MM-DD`)

	code, out, errs = call(t, "-accept", `{"date":"2026-02-30"}`, "-accept", `{"date":"2026-02-03"}`, bookflight, "book_flight", bookArgs)
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "Booked 1 passenger from CDG to JFK on 2026-02-03.\n", out)
	assert.Contains(t, errs, "\nPlease check: date: must be a date as YYYY-MM-DD")
}
