// Package page serves the pages of URL-mode questions (MCP 2026-07-28,
// client/elicitation, "URL Mode Elicitation Requests"): what a user enters
// there (an API key, a password) goes from the browser to the server and
// never through the MCP client.
//
// A question struct with the directive //mcpgen:question url is asked with
// runtime.Ask like any question. The engine stores a sealed record of the
// page under an opaque random id in the page store (runtime.Options.PageStore,
// shared by every instance) and sends the client an elicitation/create in
// URL mode whose url is runtime.Options.PageURL followed by that id, and
// nothing else. [Handler], mounted at that URL on every instance:
//
//   - identifies the browser's user with the server's own [Identify] hook,
//     never from the URL, and refuses (403, nothing stored) a user who is
//     not the flow's principal: the spec requires the server to verify that
//     whoever opens the URL is the user who started the call;
//   - shows the form mcpgen wrote from the question's elicit tags, with a
//     CSRF token bound to the page and the user, under a strict
//     Content-Security-Policy, framing forbidden, no referrer, no caching;
//   - validates the answer with the question's generated ApplyContent, and
//     stores it sealed with the key ring (runtime.Options.Keys), once: a
//     page is completed once, and expires with its flow.
//
// The branch gets the typed answer on the client's next retry, from the
// store, never from the client; the store drops it when the flow ends.
// Answers are never logged, sealed into the requestState or sent to the
// client.
package page

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// Identify returns the user of the browser request r as the server itself
// verifies it (its session cookie, a header set by a sign-in proxy it
// trusts): the same principal its MCP adapter binds flows to (for go-sdk,
// mcpsdk.Options.Principal, by default the bearer token's UserID). When it
// does not know the user yet, it writes its own response (a sign-in page, a
// redirect to one that comes back to r.URL) and returns ok false; the page
// then writes nothing more. It must never take the user from the URL: a
// page's URL is not a credential (MCP 2026-07-28, client/elicitation,
// "Security Considerations" of URL mode).
type Identify func(w http.ResponseWriter, r *http.Request) (principal string, ok bool)

// Options configure [Handler].
type Options struct {
	// Identify identifies the browser's user. Required.
	Identify Identify
	// Title heads every page, e.g. the server's name (default "Secure form").
	Title string
	// TrustedOrigins are origins ("https://login.example.com") whose
	// cross-site posts the page accepts; by default only a post from the
	// page's own origin is (net/http's CrossOriginProtection, judged from
	// Sec-Fetch-Site, or Origin against Host: behind a proxy that rewrites
	// Host, list the public origin here). A malformed origin panics, as in
	// CrossOriginProtection.AddTrustedOrigin.
	TrustedOrigins []string
	// Logger, when set, receives one record per page request that changed
	// something or was refused: the outcome and the page id's first
	// characters, never a value the user entered.
	Logger *slog.Logger
}

// MaxFormBytes bounds the body of a page's form post, in bytes; a larger one
// is refused with 413 before it is parsed.
const MaxFormBytes = 64 << 10

// Handler returns the handler of the pages of URL-mode questions, to mount
// where o.PageURL points (every instance, the same o.Keys and page store as the
// flows'): GET shows a page's form, POST completes it. The page id is the
// last element of the request's path. It panics when o or o.Keys or
// p.Identify is missing, as http.Handle does on a nil handler.
//
// Responses: 200 the form, or the page saying the answer was received; 400
// a malformed post, or one not in UTF-8; 403 another user than the flow's,
// or a post without a valid CSRF token or from another site (net/http's
// CrossOriginProtection); 404 an unknown id; 405 another method; 409 a page
// already completed; 410 an expired page; 413 a post over [MaxFormBytes],
// or a value over the limits of a client's answers
// (runtime.Options.MaxStringBytes, MaxSelectItems); 422 an answer that
// breaks the question's rules (the form again, with the reasons, secret
// fields empty); 503 the store failed.
func Handler(o *runtime.Options, p Options) http.Handler {
	if o == nil || o.Keys == nil || p.Identify == nil {
		panic("mcpgen: page.Handler needs runtime.Options with Keys, and page.Options.Identify")
	}
	h := &handler{o: o, p: p}
	if h.p.Title == "" {
		h.p.Title = "Secure form"
	}
	cop := http.NewCrossOriginProtection()
	for _, origin := range p.TrustedOrigins {
		if err := cop.AddTrustedOrigin(origin); err != nil {
			panic("mcpgen: page.Options.TrustedOrigins: " + err.Error())
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.refuse(r, w, http.StatusForbidden, "Request refused",
			"This form was sent from another site, so it was not accepted. Open the link from your assistant again.", "cross-origin")
	}))
	return cop.Handler(h)
}

type handler struct {
	o *runtime.Options
	p Options
}

// ErrNoQuestion is the reason a page is refused whose record names a
// question type this binary does not register (an instance running another
// version of the server).
var ErrNoQuestion = errors.New("mcpgen: the page's question is not registered in this server")

// Render writes a whole page with the handler's security headers (see
// [Handler]) and its style: title as the heading, body as given (the
// caller's HTML, trusted). Servers use it for their own sign-in page so that
// it looks like, and is as strict as, the pages around it.
func Render(w http.ResponseWriter, status int, title string, body template.HTML) {
	writePage(w, status, pageData{Title: title, Body: body})
}

// pageID returns the last element of path: the page's id, or "" when it
// does not have an id's shape (base64url, 22 characters).
func pageID(path string) string {
	id := path[strings.LastIndexByte(path, '/')+1:]
	if len(id) != 22 {
		return ""
	}
	for _, c := range id {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return ""
		}
	}
	return id
}

// short is a page id's prefix for logs: enough to tell pages apart, not
// enough to open one (an id alone opens nothing anyway).
func short(id string) string {
	if len(id) > 6 {
		return id[:6]
	}
	return id
}

func (h *handler) log(ctx context.Context, outcome, id string) {
	if h.p.Logger != nil {
		h.p.Logger.LogAttrs(ctx, slog.LevelInfo, "mcpgen page", slog.String("outcome", outcome), slog.String("page", short(id)))
	}
}
