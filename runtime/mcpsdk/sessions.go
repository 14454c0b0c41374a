package mcpsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// session is what a [Handler] keeps of one session it opened for a client
// of a protocol before 2026-07-28: who owns it, its calls in flight, and the
// answers its calls wait for, so that a call whose client went away, and a
// session that is closed, stop waiting at once.
type session struct {
	ss        *mcp.ServerSession
	principal string // its quota's key (see principalOf)
	userID    string // TokenInfo.UserID at initialize, which go-sdk requires of every later request

	mu      sync.Mutex
	closing bool
	open    int               // its HTTP requests being served (see begin)
	last    time.Time         // when the last of them began
	calls   int               // the calls of its open POSTs
	posts   map[uintptr]*post // its open POSTs that carry calls, by their header map (see headerKey)
	waits   map[*wait]struct{}
}

// post is one open HTTP POST of a session that carries calls: go-sdk sends
// the requests a call makes of the client (elicitation/create)
// down that POST's response stream, and with no event store configured a
// stream that breaks cannot be resumed, so a client that went away cannot
// answer them.
type post struct{ gone bool }

// wait is one request the server sent the client and awaits the answer of.
type wait struct {
	method string
	post   *post // the POST whose stream carried it; nil when unknown
	cancel context.CancelCauseFunc
}

// unanswered is the error of a server-to-client request (elicitation/create,
// sampling/createMessage, roots/list) that will get no answer: the client's
// stream went away, the session closed, or HTTPOptions.AnswerTimeout passed.
// A tools/call that was waiting for it ends in a tool error saying so, and
// its branch does not run.
type unanswered struct{ method, why string }

func (u *unanswered) Error() string {
	return "mcpgen: the client's answer to " + u.method + " never came: " + u.why + "; nothing ran, call the tool again"
}

// schemaMismatch starts the error go-sdk v1.8.0's ServerSession.Elicit
// returns when its own check of the client's accepted answer against the
// requestedSchema refused it (mcp/server.go, ServerSession.Elicit): the
// server never sees the answer, only this error.
const schemaMismatch = "elicitation result content does not match requested schema: "

// refusedReason words go-sdk's reason for refusing an answer ("validating
// root: validating /properties/nights: maximum: 99/1 is greater than 9")
// by field and rule alone ("nights breaks its maximum rule"): go-sdk's
// words quote the value the user typed, which the form's message and a
// tool result would show. A reason not about one field is kept, cut to 200
// bytes.
func refusedReason(why string) string {
	why = strings.TrimPrefix(why, "validating root: ")
	if rest, ok := strings.CutPrefix(why, "validating /properties/"); ok {
		field, tail, _ := strings.Cut(rest, ": ")
		keyword, _, _ := strings.Cut(tail, ":")
		return field + " breaks its " + keyword + " rule"
	}
	if len(why) > 200 {
		why = strings.ToValidUTF8(why[:200], "") + "…"
	}
	return why
}

// callKey is the context key of the *call a session's request runs in.
type callKey struct{}

// call links a request that a session's client made to the session and to
// the POST that carried it.
type call struct {
	h *Handler
	s *session
	p *post
}

// headerKey identifies the HTTP request that carried a message: go-sdk hands
// every message of a POST the POST's own header map (RequestExtra.Header),
// so the map's address links a call to its POST while the POST is open.
func headerKey(h http.Header) uintptr {
	return reflect.ValueOf(h).Pointer()
}

// openPost admits a POST that carries n calls, unless the session is
// closing (refused 404) or its calls in flight would exceed max (max <= 0:
// no bound; refused 429); refused is 0 when it is admitted.
func (s *session) openPost(r *http.Request, n, max int) (p *post, refused int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return nil, http.StatusNotFound
	case max > 0 && s.calls+n > max:
		return nil, http.StatusTooManyRequests
	}
	s.calls += n
	p = &post{}
	s.posts[headerKey(r.Header)] = p
	return p, 0
}

// closePost ends a POST opened by openPost: the answers its calls still
// wait for will never come (its stream is gone), so those waits end now.
// It reports whether there were any: the client went away while it was
// asked a question.
func (s *session) closePost(r *http.Request, p *post, n int) (abandoned bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls -= n
	delete(s.posts, headerKey(r.Header))
	p.gone = true
	for w := range s.waits {
		if w.post == p {
			w.cancel(&unanswered{method: w.method, why: "the client's HTTP request that carried the question went away " +
				"(its stream cannot be resumed)"})
			abandoned = true
		}
	}
	return abandoned
}

// begin and end bracket each HTTP request of the session the handler
// serves.
func (s *session) begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open++
	s.last = time.Now()
}

func (s *session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open--
}

// quiet reports when the session's last request began, and whether it has
// no call in flight and no question pending (an open GET stream does not
// count: it carries no call).
func (s *session) quiet() (lastUse time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.calls == 0 && len(s.waits) == 0 && !s.closing
}

// idleSince reports whether no request of the session is open and none
// began after t.
func (s *session) idleSince(t time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open == 0 && !s.last.After(t)
}

// postOf returns the open POST whose header map is h, or nil.
func (s *session) postOf(h http.Header) *post {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts[headerKey(h)]
}

// addWait records w, or returns why its answer cannot come.
func (s *session) addWait(w *wait) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return &unanswered{method: w.method, why: "the session is closed"}
	case w.post != nil && w.post.gone:
		return &unanswered{method: w.method, why: "the client's HTTP request that carried the call went away"}
	}
	s.waits[w] = struct{}{}
	return nil
}

func (s *session) removeWait(w *wait) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.waits, w)
}

// closeIfQuiet marks the session closing when it is quiet (no call in
// flight, no question pending: no wait to end), in the same step as it
// judges so, and reports whether it did: a POST that opens after it gets
// 404 (openPost).
func (s *session) closeIfQuiet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls != 0 || len(s.waits) != 0 || s.closing {
		return false
	}
	s.closing = true
	return true
}

// close marks the session closing and ends every wait for an answer, so that
// closing it (go-sdk waits for the calls in flight) does not wait for answers
// that will not come.
func (s *session) close(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing = true
	for w := range s.waits {
		w.cancel(&unanswered{method: w.method, why: why})
	}
}

// tooLarge ends every wait of the session for an answer: one of them was
// sent in a body the server refuses (why), and which one cannot be read.
func (s *session) tooLarge(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.waits {
		w.cancel(&unanswered{method: w.method, why: why})
	}
}

// ownedBy reports whether go-sdk would let r use the session: the same
// token user as at initialize, when there was one.
func (s *session) ownedBy(r *http.Request) bool {
	if s.userID == "" {
		return true
	}
	ti := auth.TokenInfoFromContext(r.Context())
	return ti != nil && ti.UserID == s.userID
}

// receive is the receiving middleware a [Handler] installs on its server: a
// request on one of its sessions runs with a *call in its context, for
// send; a tools/call whose question got no answer ends in a tool error.
func (h *Handler) receive(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || ss.ID() == "" { // stateless: 2026-07-28, or an older client without a session
			return next(ctx, method, req)
		}
		h.mu.Lock()
		s := h.sessions[ss.ID()]
		h.mu.Unlock()
		if s == nil || s.ss != ss {
			return next(ctx, method, req)
		}
		c := &call{h: h, s: s}
		if extra := req.GetExtra(); extra != nil && extra.Header != nil {
			c.p = s.postOf(extra.Header)
		}
		// A call whose question was never answered ends in the tool error
		// of unanswered (see toolErrorResult).
		return next(context.WithValue(ctx, callKey{}, c), method, req)
	}
}

// send is the sending middleware a [Handler] installs on its server: a
// request to the client made within a call on one of its sessions waits for
// its answer at most AnswerTimeout, and no longer than the POST that
// carried the call and the session last.
func (h *Handler) send(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		c, _ := ctx.Value(callKey{}).(*call)
		if c == nil || c.h != h || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		if h.answer > 0 {
			var stop context.CancelFunc
			ctx, stop = context.WithTimeoutCause(ctx, h.answer, &unanswered{method: method,
				why: fmt.Sprintf("none within %v (mcpsdk.HTTPOptions.AnswerTimeout)", h.answer)})
			defer stop()
		}
		w := &wait{method: method, post: c.p, cancel: cancel}
		if err := c.s.addWait(w); err != nil {
			return nil, err
		}
		defer c.s.removeWait(w)
		res, err := next(ctx, method, req)
		if err != nil && ctx.Err() != nil {
			var u *unanswered
			if cause := context.Cause(ctx); errors.As(cause, &u) {
				return nil, u
			}
		}
		return res, err
	}
}

// principalOf is the key of r's per-principal session quota, as messages
// name it: the principal HTTPOptions.Principal derives from the request (by
// default the bearer token's user), quoted, or for an anonymous request
// "the anonymous client at " and the client's address ([httpserve.ClientAddress]:
// its IP address, an IPv6 one by its /64 prefix; anonymous true).
func (h *Handler) principalOf(r *http.Request) (key string, anonymous bool) {
	extra := &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
	p := h.principal(r.Context(), extra)
	return protocol.Caller(p, httpserve.ClientAddress(r.RemoteAddr)), p == ""
}

// countCalls returns how many calls (JSON-RPC requests with an id) body
// holds: one message or a batch (MCP 2025-03-26). Responses (the client's
// answers) and notifications are not calls. A body that does not decode
// counts as one call, the most go-sdk would run of it.
func countCalls(body []byte) int {
	// Each message is read by go-sdk's own decoder (jsonrpc.DecodeMessage,
	// which matches "id" and "method" exactly, as go-sdk does when it
	// serves the message): encoding/json would match "ID" or "METHOD" too,
	// and a body with {"id":5,"ID":null,…} would be counted as no call
	// while go-sdk runs it.
	isCall := func(raw []byte) bool {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return true // go-sdk refuses it; counting it refuses nothing more
		}
		req, ok := msg.(*jsonrpc.Request)
		return ok && req.Method != "" && req.ID.IsValid()
	}
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) > 0 && b[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(b, &batch) != nil {
			return 1
		}
		n := 0
		for _, m := range batch {
			if isCall(m) {
				n++
			}
		}
		return n
	}
	if isCall(b) {
		return 1
	}
	return 0
}

// openWriter is the response writer of a session's initialize: at the
// response's first byte, when go-sdk has named the session in its
// Mcp-Session-Id header and before the client can use that id, it records
// the session with the handler.
type openWriter struct {
	http.ResponseWriter
	open func(id string) // records the session named id, once
	done bool
}

func (o *openWriter) record() {
	if !o.done {
		o.done = true
		if id := o.Header().Get(sessionIDHeader); id != "" {
			o.open(id)
		}
	}
}

func (o *openWriter) WriteHeader(code int) {
	o.record()
	o.ResponseWriter.WriteHeader(code)
}

func (o *openWriter) Write(b []byte) (int, error) {
	o.record()
	return o.ResponseWriter.Write(b)
}

// Flush records the session and flushes.
func (o *openWriter) Flush() {
	o.record()
	if f, ok := o.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (o *openWriter) Unwrap() http.ResponseWriter { return o.ResponseWriter }
