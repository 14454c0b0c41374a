package mcpsdk

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Session bounds of [NewHTTPHandler] when [HTTPOptions] leaves them zero.
const (
	// DefaultSessionIdleTimeout closes a session that has received no HTTP
	// request for this long (10 minutes).
	DefaultSessionIdleTimeout = 10 * time.Minute
	// DefaultAbandonedSessionTimeout closes a session whose client went
	// away while it was asked a question and has sent nothing since, after
	// this long (30 seconds).
	DefaultAbandonedSessionTimeout = 30 * time.Second
	// DefaultMaxSessions is how many sessions one handler holds at once
	// (1000); a new one over the limit is refused with 503.
	DefaultMaxSessions = 1000
	// DefaultMaxSessionsPerPrincipal is how many of them one principal
	// holds at once (100); a new one over the limit is refused with 429.
	DefaultMaxSessionsPerPrincipal = 100
	// DefaultMaxCallsPerSession is how many calls one session has in flight
	// at once (16); a POST that would carry more is refused with 429.
	DefaultMaxCallsPerSession = 16
)

// Header names of MCP Streamable HTTP (MCP 2025-11-25, basic/transports:
// session management and the protocol version header).
const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
)

// HTTPOptions configure [NewHTTPHandler]: the origins it allows (every
// request), and the bounds of the sessions it keeps for clients of protocol
// versions before 2026-07-28 (MCP 2025-11-25, basic/transports, Streamable
// HTTP: session management), which 2026-07-28 requests, stateless, do not
// touch. Limits are refused with HTTP 503 when the server as a whole is
// full and HTTP 429 (RFC 6585, Too Many Requests) when one principal or one
// session is, each with a text naming the field to change.
type HTTPOptions struct {
	// SessionIdleTimeout closes a session that has received no HTTP request
	// for this long (an open GET stream does not count as activity). Zero
	// means DefaultSessionIdleTimeout (10 minutes); negative means never.
	SessionIdleTimeout time.Duration
	// MaxSessions is the most sessions held at once. An initialize that would
	// open one more is refused with HTTP 503 and a text saying so. Zero means
	// DefaultMaxSessions (1000); negative means no sessions at all, a
	// stateless endpoint: every request is served statelessly (MCP
	// 2026-07-28 only; basic/patterns/mrtr needs no session or sticky
	// routing), no middleware is added to the server beyond [Install]'s,
	// and older clients, whose elicitation capability was declared at an
	// initialize the server does not keep, cannot be asked anything (their
	// calls end in a tool error saying so).
	MaxSessions int
	// MaxSessionsPerPrincipal is the most sessions one principal holds at
	// once, so that one user cannot take every session. An initialize that
	// would open one more is refused with HTTP 429 (RFC 6585) and a text
	// naming the limit. The principal is what Principal returns for the
	// initialize request; an anonymous one ("") is counted by the client's
	// IP address (RemoteAddr: behind a reverse proxy, every anonymous client
	// shares the proxy's, so set Principal or raise this). An anonymous
	// address is also held to its fair share: it never holds more sessions
	// than remain free for every other client (an initialize from an
	// address holding as many as are free is refused with HTTP 429), so
	// one address takes at most half of MaxSessions, and N addresses
	// together leave about MaxSessions/(N+1) free for newcomers (10
	// addresses: 90 of 1000), where the bound alone let 10 take all. When
	// addresses have filled the server all the same (about 16 on the
	// defaults), an address holding no session still gets one: the
	// anonymous address holding the most loses its least recently used
	// quiet session (its next request gets 404, and its client opens
	// another). Sign-in is the real bound. Zero means
	// DefaultMaxSessionsPerPrincipal (100); negative means no bound, no fair
	// share and no reclaiming.
	MaxSessionsPerPrincipal int
	// MaxCallsPerSession is the most calls (JSON-RPC requests: tools/call,
	// tools/list, …) one session has in flight at once: a POST on the
	// session whose calls would exceed it is refused with HTTP 429 and a
	// text naming the limit, and runs nothing. The client's answers
	// (JSON-RPC responses) and notifications are never refused. Zero means
	// DefaultMaxCallsPerSession (16); negative means no bound.
	MaxCallsPerSession int
	// AnswerTimeout bounds how long a call on a session waits for the
	// client's answer to a request the server sent it (elicitation/create,
	// sampling/createMessage, roots/list, see runtime.Converse): after it, the
	// call ends (a tools/call in a tool error saying the answer never came;
	// its branch does not run). A call also stops waiting at once when the
	// client's POST that carried it goes away (its response stream, where
	// the question went, cannot be resumed) and when the session is closed
	// (DELETE, idle timeout, CloseSessions). Zero means SessionIdleTimeout
	// (DefaultSessionIdleTimeout when that is negative); negative means
	// no bound.
	AnswerTimeout time.Duration
	// AbandonedSessionTimeout closes a session sooner than its idle
	// timeout when its client went away while it was asked a question (the
	// POST that carried the question ended before the answer came) and
	// has had no request open since, for this long: such a session is
	// almost always gone, and until closed it counts towards MaxSessions
	// and MaxSessionsPerPrincipal, which a client that drops its questions
	// would otherwise fill for a whole idle timeout. A client that comes
	// back later gets HTTP 404 and initializes again. Zero means
	// DefaultAbandonedSessionTimeout (30 seconds); negative means only the
	// idle timeout closes it.
	AbandonedSessionTimeout time.Duration
	// Principal derives the principal of an initialize request for
	// MaxSessionsPerPrincipal, as Options.Principal does for calls (extra
	// holds the request's TokenInfo, from go-sdk's auth middleware, and its
	// header). Nil means DefaultPrincipal: the bearer token's user id.
	Principal func(ctx context.Context, extra *mcp.RequestExtra) string
	// AllowedOrigins lists the origins ("scheme://host[:port]", as a browser
	// sends them in the Origin header) allowed besides the request's own
	// host. A request whose Origin is neither the request's Host nor listed
	// is refused with HTTP 403 before anything else, on every method and
	// protocol version (MCP 2025-11-25, basic/transports, Streamable HTTP:
	// servers MUST validate Origin; it guards local servers against DNS
	// rebinding). A request without Origin (every non-browser client) is
	// allowed. "*" allows every origin. The check is net/http's
	// CrossOriginProtection, which also refuses a browser's
	// Sec-Fetch-Site: cross-site without an allowed Origin. NewHTTPHandler
	// panics on an entry that is not an origin.
	AllowedOrigins []string
}

// Handler is mcpgen's Streamable HTTP endpoint for a go-sdk server: it
// serves MCP 2026-07-28 requests statelessly (basic/patterns/mrtr needs no
// session, so any instance behind a load balancer can answer any retry),
// and opens go-sdk sessions for older clients, which declare their
// capabilities once at initialize and are asked on the call: every round's
// elicitation/create goes down the tools/call's own response stream and its
// answer goes back into the flow, until the call completes (MCP 2025-11-25,
// basic/transports, Streamable HTTP; runtime.Converse). Behind a load balancer, such sessions need stickiness on
// the Mcp-Session-Id header (see examples/loadbalanced/haproxy.cfg), or ids
// that name their instance for a balancer that routes on them
// ([InstanceSessionIDs], examples/loadbalanced/nginx.conf).
//
// Routing costs a 2026-07-28 request two header lookups: a request with an
// Mcp-Session-Id header goes to the session; one whose
// MCP-Protocol-Version header is 2026-07-28 or later is stateless; only a
// POST with neither has the head of its body (bounded by the SDK's limit)
// looked at, and an initialize of an older version in it opens a session.
// Every other request goes to the SDK's handlers unchanged, whose checks
// (Host against DNS rebinding, Content-Type, Accept, size) come first. Before
// all of that, a request whose Origin is not allowed is refused with 403 (see
// [HTTPOptions].AllowedOrigins). With [HTTPOptions].MaxSessions negative
// the handler is stateless: every request is served as a 2026-07-28 one.
//
// A tools/call, prompts/get or resources/read whose params do not decode
// (inputResponses that are not an object of results, a requestState that is
// not a string, an argument beyond a float64 such as 1e400, …) is answered
// with JSON-RPC -32602 invalid params and HTTP 400, as MCP 2026-07-28
// requires (basic/patterns/mrtr: malformed inputResponses are invalid
// params; basic/transports: -32602 is HTTP 400), its message naming the
// member at fault ("arguments.count: number 1e400 is out of range …"). The
// SDK's stateless header check refuses such params with -32020, which is
// rewritten after all of the SDK's transport checks have passed.
//
// Sessions are bounded in number (in all and per principal), in calls in
// flight, in idle time and in how long a call waits for the client's
// answer, and a call stops waiting as soon as the answer cannot come (the
// POST that carried it went away, or the session closed): see
// [HTTPOptions]. So a client that goes away with a question pending holds
// nothing beyond the idle timeout, and DELETE answers at once.
type Handler struct {
	origin       httpserve.OriginGuard
	server       *mcp.Server
	stateless    *mcp.StreamableHTTPHandler
	stateful     *mcp.StreamableHTTPHandler // nil: no sessions
	max          int
	slots        chan struct{} // one token per open or opening session
	perPrincipal int           // <= 0: no bound
	maxCalls     int           // <= 0: no bound
	answer       time.Duration // <= 0: no bound
	abandoned    time.Duration // <= 0: abandoned sessions wait for the idle timeout
	principal    func(context.Context, *mcp.RequestExtra) string

	mu         sync.Mutex
	sessions   map[string]*session
	principals map[string]int // open or opening sessions by principalOf
	held       int            // open or opening sessions: the sum of principals
	freed      chan struct{}  // a session's slot came back (see reclaim)
}

// allowedOriginsOption names the option that allows other origins, for the
// text of a 403.
const allowedOriginsOption = "mcpsdk.HTTPOptions.AllowedOrigins"

// NewHTTPHandler returns the Streamable HTTP endpoint for s described at
// [Handler], with the options of opts (nil: the defaults: no foreign
// origin; 10 minutes idle, 1000 sessions, 100 per principal, 16 calls in
// flight per session), and the middleware of [Install] on s. It is the
// one way to build mcpgen's HTTP endpoint for a go-sdk server: serve it with
// [Serve] (connection bounds, graceful shutdown), or mount it on a server
// of your own. Unless opts.MaxSessions is negative (a stateless endpoint),
// it adds a receiving and a sending middleware to s
// (mcp.Server.AddReceivingMiddleware, AddSendingMiddleware) that bound the
// waits for answers of the handler's own sessions; requests of other
// sessions and transports pass through them unchanged.
//
// Middleware (authentication, telemetry) wraps the handler: mount
// middleware(h) on your mux and serve the mux with [Serve], passing h
// itself too, so that its sessions are closed on shutdown.
func NewHTTPHandler(s *mcp.Server, opts *HTTPOptions) *Handler {
	install(s)
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.SessionIdleTimeout == 0 {
		o.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxSessionsPerPrincipal == 0 {
		o.MaxSessionsPerPrincipal = DefaultMaxSessionsPerPrincipal
	}
	if o.MaxCallsPerSession == 0 {
		o.MaxCallsPerSession = DefaultMaxCallsPerSession
	}
	if o.AnswerTimeout == 0 {
		o.AnswerTimeout = o.SessionIdleTimeout
		if o.AnswerTimeout < 0 {
			o.AnswerTimeout = DefaultSessionIdleTimeout
		}
	}
	if o.AbandonedSessionTimeout == 0 {
		o.AbandonedSessionTimeout = DefaultAbandonedSessionTimeout
	}
	if o.Principal == nil {
		o.Principal = DefaultPrincipal
	}
	h := &Handler{origin: httpserve.NewOriginGuard(allowedOriginsOption, o.AllowedOrigins), server: s, stateless: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}),
		perPrincipal: o.MaxSessionsPerPrincipal, maxCalls: o.MaxCallsPerSession, answer: o.AnswerTimeout, abandoned: o.AbandonedSessionTimeout,
		principal: o.Principal, sessions: map[string]*session{}, principals: map[string]int{}, freed: make(chan struct{}, 1)}
	if o.MaxSessions > 0 {
		so := &mcp.StreamableHTTPOptions{}
		if o.SessionIdleTimeout > 0 {
			so.SessionTimeout = o.SessionIdleTimeout
		}
		h.stateful = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, so)
		h.max = o.MaxSessions
		h.slots = make(chan struct{}, o.MaxSessions)
		s.AddReceivingMiddleware(h.receive)
		s.AddSendingMiddleware(h.send)
	}
	return h
}

// ServeHTTP routes r as described at [Handler].
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.origin.Allow(w, r) {
		return
	}
	httpserve.BodyDeadline(w, r)
	httpserve.MarkClient(r)
	if h.stateful == nil {
		serveStateless(h.stateless, w, r)
		return
	}
	if id := r.Header.Get(sessionIDHeader); id != "" {
		h.serveSession(w, r, id)
		return
	}
	if r.Method != http.MethodPost || r.Body == nil || r.Header.Get(protocolVersionHeader) >= protocol.VersionMRTR {
		serveStateless(h.stateless, w, r)
		return
	}
	head, ok := readHead(w, r)
	if !ok {
		return
	}
	if legacyInitialize(head) {
		h.openSession(w, r)
		return
	}
	serveStateless(h.stateless, w, r)
}

// openSession hands an initialize of a protocol before 2026-07-28 to the
// stateful handler when its principal and the handler have a session slot
// free, and tracks the session it opens until it closes (idle timeout,
// DELETE, or [Handler.CloseSessions]).
func (h *Handler) openSession(w http.ResponseWriter, r *http.Request) {
	principal, anonymous := h.principalOf(r)
	if anonymous && h.perPrincipal > 0 {
		h.reclaim(principal)
	}
	h.mu.Lock()
	held, free := h.principals[principal], h.max-h.held
	switch {
	case h.perPrincipal > 0 && held >= h.perPrincipal:
		h.mu.Unlock()
		http.Error(w, fmt.Sprintf("mcpgen: %s already holds its limit of %d MCP sessions on this server "+
			"(mcpsdk.HTTPOptions.MaxSessionsPerPrincipal); close one (DELETE), or connect with protocol 2026-07-28, which needs none",
			principal, h.perPrincipal), http.StatusTooManyRequests)
		return
	case h.perPrincipal > 0 && anonymous && held > 0 && held >= free:
		// The fair share of an address without sign-in: never more
		// sessions than are left for every other client.
		h.mu.Unlock()
		http.Error(w, fmt.Sprintf("mcpgen: %s already holds %d MCP sessions on this server, and only %d of its %d are free: "+
			"without sign-in an address never holds more sessions than remain for every other client (its fair share; "+
			"mcpsdk.HTTPOptions.MaxSessionsPerPrincipal); close one (DELETE), sign in, or connect with protocol 2026-07-28, which needs none",
			principal, held, max(free, 0), h.max), http.StatusTooManyRequests)
		return
	}
	h.principals[principal]++
	h.held++
	h.mu.Unlock()
	select {
	case h.slots <- struct{}{}:
	default:
		h.release(principal)
		http.Error(w, fmt.Sprintf("mcpgen: this server already holds its limit of %d MCP sessions "+
			"(clients of protocol versions before 2026-07-28 need one); retry later, or connect with protocol 2026-07-28, which needs none", h.max),
			http.StatusServiceUnavailable)
		return
	}
	var userID string
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		userID = ti.UserID
	}
	var opened *session
	ow := &openWriter{ResponseWriter: w, open: func(id string) {
		for ss := range h.server.Sessions() {
			if ss.ID() == id {
				opened = &session{ss: ss, principal: principal, userID: userID,
					posts: map[uintptr]*post{}, waits: map[*wait]struct{}{}}
				h.mu.Lock()
				h.sessions[id] = opened
				h.mu.Unlock()
				return
			}
		}
	}}
	h.stateful.ServeHTTP(ow, r)
	ow.record()
	if opened == nil { // initialize failed, or the session is already gone
		h.release(principal)
		<-h.slots
		return
	}
	go func() {
		_ = opened.ss.Wait()
		opened.close("the session is closed")
		h.mu.Lock()
		delete(h.sessions, opened.ss.ID())
		h.mu.Unlock()
		h.release(principal)
		<-h.slots
		select {
		case h.freed <- struct{}{}:
		default:
		}
	}()
}

// reclaimWait bounds how long an initialize waits for the slot of a
// session [Handler.reclaim] closed.
const reclaimWait = 2 * time.Second

// reclaim makes room for an initialize of newcomer, an anonymous address
// holding no session, on a server whose sessions are all held: of the
// anonymous addresses holding two sessions or more, the one holding the
// most that has a quiet session (no call in flight, no question pending)
// loses its least recently used quiet one (its client's next request gets
// 404 "session not found" and starts a new session, MCP 2025-11-25
// basic/transports). An address whose every session has a question
// pending is passed over for the next. So no number of addresses keeps a
// newcomer out while one of them holds more than one session it is not
// using; a signed-in principal's sessions are never closed. The session is
// judged quiet and marked closing in one step, so a call cannot slip in
// between: a call that arrives after gets 404. It waits at most
// reclaimWait for the slot to come back, and does nothing when the server
// has a slot free or no session may be closed.
func (h *Handler) reclaim(newcomer string) {
	h.mu.Lock()
	if h.held < h.max || h.principals[newcomer] > 0 {
		h.mu.Unlock()
		return
	}
	type candidate struct {
		s    *session
		held int
		used time.Time
	}
	var cands []candidate
	for _, s := range h.sessions {
		if n := h.principals[s.principal]; n > 1 && protocol.AnonymousAddress(s.principal) {
			if used, quiet := s.quiet(); quiet {
				cands = append(cands, candidate{s, n, used})
			}
		}
	}
	h.mu.Unlock()
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.held != b.held {
			return cmp.Compare(b.held, a.held) // the largest holder first
		}
		return a.used.Compare(b.used) // its least recently used first
	})
	select { // a slot freed earlier is not this one
	case <-h.freed:
	default:
	}
	for _, c := range cands {
		if c.s.closeIfQuiet() {
			_ = c.s.ss.Close()
			select {
			case <-h.freed:
			case <-time.After(reclaimWait):
			}
			return
		}
	}
}

// release gives back a session slot of principal.
func (h *Handler) release(principal string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held--
	if h.principals[principal]--; h.principals[principal] <= 0 {
		delete(h.principals, principal)
	}
}

// serveSession serves a request that names session id. A POST carrying
// calls is admitted within MaxCallsPerSession (else 429) and tracked while
// open, so that the answers its calls wait for stop being awaited when it
// goes away; a DELETE first ends the session's waits for answers, so that
// go-sdk's close, which waits for the calls in flight, answers at once.
// Everything else, and every session the handler does not hold, is
// go-sdk's (404 for an unknown session, 403 for another user's).
func (h *Handler) serveSession(w http.ResponseWriter, r *http.Request, id string) {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s == nil || !s.ownedBy(r) {
		h.stateful.ServeHTTP(w, r)
		return
	}
	s.begin()
	defer s.end()
	switch r.Method {
	case http.MethodDelete:
		s.close("the client ended the session (DELETE)")
	case http.MethodPost:
		if r.Body == nil {
			break
		}
		head, ok := readHead(w, r)
		if !ok {
			return
		}
		if int64(len(head)) > mcp.DefaultMaxRequestBodyBytes && isAnswer(head) {
			// go-sdk refuses the body (413): the answer it carries never
			// reaches the call that waits for it, which ends now instead of
			// at AnswerTimeout.
			s.tooLarge(fmt.Sprintf("the client's answer was larger than the server accepts (%d bytes)", mcp.DefaultMaxRequestBodyBytes))
		}
		n := countCalls(head)
		if n == 0 {
			break
		}
		p, refused := s.openPost(r, n, h.maxCalls)
		switch refused {
		case http.StatusNotFound:
			// Closing (reclaimed, or DELETEd): as go-sdk answers a session
			// it no longer has, so that the client starts a new one.
			http.Error(w, "session not found", http.StatusNotFound)
			return
		case http.StatusTooManyRequests:
			http.Error(w, fmt.Sprintf("mcpgen: this MCP session already has its limit of %d calls in flight "+
				"(mcpsdk.HTTPOptions.MaxCallsPerSession); wait for one to end", h.maxCalls), http.StatusTooManyRequests)
			return
		}
		defer func() {
			if s.closePost(r, p, n) {
				h.closeIfAbandoned(s)
			}
		}()
	}
	h.stateful.ServeHTTP(w, r)
}

// closeIfAbandoned closes s, whose client went away while it was asked a
// question, once AbandonedSessionTimeout has passed with no request of it
// open or begun since (see [HTTPOptions.AbandonedSessionTimeout]).
func (h *Handler) closeIfAbandoned(s *session) {
	if h.abandoned <= 0 {
		return
	}
	at := time.Now()
	time.AfterFunc(h.abandoned, func() {
		if s.idleSince(at) {
			s.close("the client went away while it was asked a question, and did not come back")
			_ = s.ss.Close()
		}
	})
}

// Sessions returns how many sessions the handler holds now.
func (h *Handler) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// CloseSessions closes every session the handler holds, ending their open
// streams; clients that use one afterwards get HTTP 404 (session not found)
// and must initialize again (MCP 2025-11-25, basic/transports: session
// management). The handler keeps serving. [Serve] calls it on shutdown,
// so that open GET streams do not hold the server up.
func (h *Handler) CloseSessions() {
	h.mu.Lock()
	var all []*session
	for _, s := range h.sessions {
		all = append(all, s)
	}
	h.mu.Unlock()
	for _, s := range all {
		s.close("the server is shutting down")
		_ = s.ss.Close()
	}
}

// legacyInitialize reports whether body is a single initialize request of a
// protocol version before 2026-07-28.
func legacyInitialize(body []byte) bool {
	if !bytes.Contains(body, []byte(`"initialize"`)) {
		return false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "initialize" {
		return false
	}
	return msg.Params.ProtocolVersion < protocol.VersionMRTR
}

// isAnswer reports whether body, the head of a POST, begins a JSON-RPC
// response (the client's answer to a request the server sent it): a
// "result" or "error" member comes before any "method" in its first KiB.
func isAnswer(body []byte) bool {
	b := body[:min(len(body), 1024)]
	m := bytes.Index(b, []byte(`"method"`))
	for _, k := range []string{`"result"`, `"error"`} {
		if i := bytes.Index(b, []byte(k)); i >= 0 && (m < 0 || i < m) {
			return true
		}
	}
	return false
}

// readHead reads what the SDK would accept of r's body and puts it back in
// front of the rest; a larger body goes on to the SDK unread, which answers
// 413. It answers 400 itself, and returns false, when reading fails.
func readHead(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	head, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes+1))
	if err != nil {
		http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	return head, true
}
