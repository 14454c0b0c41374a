package engine

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/fallback"
	"github.com/mcpgen/mcpgen/runtime/internal/urlmode"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// URL-mode questions (MCP 2026-07-28, client/elicitation, "URL Mode
// Elicitation Requests"): a question struct with //mcpgen:question url is
// asked on the server's own page (package runtime/page), through the same
// form engine as every form: [Ask] calls [round.form], which hands such a
// form to pageForm. The page's record and, once the user completed it, the
// answer live in the store, sealed; the state carries only the page's id, so
// the answer (a secret) is never sealed into a requestState, sent to the
// client or logged. The branch receives it on every round from the store,
// until the flow ends ([round.dropPages]).

// pageGrace is how long the store keeps a page's record after the page
// expired, so that its link says "expired" rather than "not valid".
const pageGrace = time.Hour

// pollPage is the first pause between two looks at a page not yet completed;
// it doubles up to pollPageMax.
const (
	pollPage    = 100 * time.Millisecond
	pollPageMax = time.Second
)

// newPageID returns a page's opaque id: 16 random bytes, base64url (22
// characters), as package page expects.
func newPageID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// pageForm decides URL-mode form f in this request, resuming from st, and
// returns what [round.form] returns:
//   - rep Accept with rep.Page: the page was completed (now, or in an
//     earlier round of this call) and its answer, read from the store, is
//     applied to f.target (and passed f.check);
//   - rep Decline or Cancel: the user refused to open the page;
//   - ask: the page to ask for: a new one, or, while the user has not
//     completed it, the same one again (ask.wait: not counted towards the
//     round limit) after waiting up to Options.PageWait for it; a 2025-11-25
//     session, whose client waits for notifications/elicitation/complete
//     rather than retrying, waits until the page expires and then hears it;
//   - final: the call cannot ask in URL mode (no authenticated caller, no
//     Options.PageURL) or the page expired while a legacy client waited.
//
// Store failures are a -32603 *protocol.Error; nothing runs unguarded.
func (r *round) pageForm(f *form, st *state) (decision, error) {
	what := "question " + strconv.Quote(f.name)
	if d, err := r.pageUnasked(what); d != nil || err != nil {
		return *d, err
	}
	digest := formDigest(f.key, f.message, f.target.RequestedSchema(), f.rules)
	prev, hasPrev := st.replies()[f.name]
	if hasPrev && equalDigest(prev.Question, digest) {
		settled, err := r.pageSettled(f, prev)
		if err != nil {
			return decision{}, err
		}
		if settled {
			return decision{rep: prev}, nil
		}
		// The answer is gone (the store forgot it): ask again.
	}
	last := st.askedFor(f.name)
	p := &pendingQuestion{name: f.name, key: f.key, message: f.message, digest: digest}
	if last != nil || hasPrev {
		p.key = f.key + "_" + strconv.Itoa(st.Round+1)
	}
	if last != nil && last.Page != "" && equalDigest(last.Question, digest) {
		if d, decided, err := r.pageProgress(f, last, p, what); decided || err != nil {
			return d, err
		}
	}
	if final, err := r.noURLElicitation(what); final != nil || err != nil {
		// Ask returns it to the branch (see ErrUnaskable).
		return decision{}, r.unaskable(f.name, undeclared(r.req, "URL-mode elicitation"), completeOrNil(final), err)
	}
	// A page replaced by this new one (the question changed since it was
	// asked) is done with, answered or not.
	if last != nil && last.Page != "" {
		r.dropPage(last.Page)
	}
	if hasPrev && prev.Page != "" {
		r.dropPage(prev.Page)
	}
	return r.newPage(f, st, p, what)
}

// pageUnasked returns, when this call cannot ask question what in URL
// mode at all, the decision that says so: a tool error without an
// authenticated caller (the page must check the user who opens it), an
// error without Options.PageURL. It returns nil, nil when it can.
func (r *round) pageUnasked(what string) (*decision, error) {
	if r.req.Principal == "" {
		return &decision{final: ToolError("%s: %s is asked on the server's page (URL mode), which must check that the user who opens it "+
			"is the one who called the tool, but this call has no authenticated user", r.name, what)}, nil
	}
	if r.o.PageURL == "" {
		return &decision{}, fmt.Errorf("mcpgen: %s is a URL-mode question (//mcpgen:question url), but Options.PageURL is not set", what)
	}
	return nil, nil
}

// pageSettled reports whether prev, the question's reply from an earlier
// round of this call, still settles it: a refusal does; an accept does
// while the store keeps the page's answer, which is applied to f.target
// again. False: the answer is gone, and the question is asked again.
func (r *round) pageSettled(f *form, prev reply) (bool, error) {
	if prev.Action != Accept {
		return true, nil
	}
	content, done, err := r.pageAnswer(prev.Page)
	if err != nil {
		return false, err
	}
	if done && f.target.ApplyContent(content) == nil {
		r.pages = append(r.pages, prev.Page)
		return true, nil
	}
	return false, nil
}

// pageProgress decides question what from its page, asked by the last
// round as it is now (last): a refusal to open it settles it; a completed
// page whose answer applies to f.target and passes f.check settles it as
// Accept; a page not completed yet is asked again as p (p.wait), or, for a
// legacy client that waited until it expired, ends the call. decided is
// false when a new page is to be asked: the page is gone, or its answer
// was refused (p.problem says why).
func (r *round) pageProgress(f *form, last *asked, p *pendingQuestion, what string) (d decision, decided bool, err error) {
	er, answered, err := r.answer(last)
	if err != nil {
		return decision{}, true, err
	}
	if answered && er.Action != Accept {
		r.dropPage(last.Page)
		return decision{rep: reply{Question: p.digest, Action: er.Action}}, true, nil
	}
	content, done, gone, err := r.waitPage(last.Page, answered)
	switch {
	case err != nil:
		return decision{}, true, err
	case done:
		if p.problem = pageProblem(f, content); p.problem == "" {
			r.pages = append(r.pages, last.Page)
			return decision{rep: reply{Question: p.digest, Action: Accept, Page: last.Page}}, true, nil
		}
		r.dropPage(last.Page)
	case !gone && r.legacy():
		return decision{final: ToolError("%s: the page of %s was not completed before it expired; nothing was done", r.name, what)}, true, nil
	case !gone:
		p.page, p.url, p.wait = last.Page, r.pageURL(last.Page), true
		return decision{ask: p}, true, nil
	}
	return decision{}, false, nil
}

// pageProblem applies content, a completed page's answer, to f.target and
// judges it by f.check; it returns what was wrong ("" when nothing was).
func pageProblem(f *form, content map[string]any) string {
	if verr := f.target.ApplyContent(content); verr != nil {
		return verr.Error() // the page checked it: another version of the question
	}
	if f.check != nil {
		if cerr := f.check(); cerr != nil {
			return cerr.Error()
		}
	}
	return ""
}

// newPage asks question what on a new page, bound to this flow and this
// user and ending with the flow (st's expiry, else Options.TTL from now):
// counted against the user's Options.MaxPagesPerPrincipal (a tool error
// when at it), sealed and put in the store, and returned as p to ask.
func (r *round) newPage(f *form, st *state, p *pendingQuestion, what string) (decision, error) {
	expires := r.o.Now().Add(r.o.TTL)
	if st != nil && st.Expires != 0 {
		expires = time.Unix(st.Expires, 0)
	}
	msg := f.message
	if msg == "" {
		msg = "Please provide: " + joinTitles(f.target)
	}
	id := newPageID()
	quota := quotaFor(r.o.PageStore, pageEntries)
	ok, first, err := r.takePage(quota, id, expires)
	if err != nil {
		return decision{}, err
	}
	if !ok {
		return decision{final: ToolError("%s: %s is asked on the server's page (URL mode), but %d pages asked of this user are still "+
			"open (their calls have neither finished nor expired); nothing was done: finish one of those calls (complete its page, "+
			"then call with its answer), or call again after %s",
			r.name, what, r.o.MaxPagesPerPrincipal, first.UTC().Format("15:04:05 UTC"))}, nil
	}
	rec, err := urlmode.SealRecord(r.o.Keys, id, &urlmode.Record{Question: f.page.Name, Principal: r.req.Principal,
		FlowID: r.flowID(), Message: msg, Expires: expires.Unix()})
	if err != nil {
		quota.release(r.req.Principal, id)
		return decision{}, err
	}
	if err := r.o.PageStore.PutPage(r.ctx, id, rec, expires.Add(pageGrace)); err != nil {
		quota.release(r.req.Principal, id)
		return decision{}, r.pageStoreFailed(err)
	}
	r.created = append(r.created, id)
	p.page, p.url = id, r.pageURL(id)
	return decision{ask: p}, nil
}

// takePage counts page id, open until expires, against the caller's
// Options.MaxPagesPerPrincipal. At the limit it first asks the store about
// the pages it counts, at most once a second per user: one completed on
// another instance was deleted there, and counts no more. It returns false
// and the first expiry when the user still has as many pages open.
func (r *round) takePage(quota *quota, id string, expires time.Time) (bool, time.Time, error) {
	now := r.o.Now()
	ok, _, first := quota.take(r.req.Principal, id, expires, now, r.o.MaxPagesPerPrincipal)
	if ok || !quota.recheck(r.req.Principal, now) {
		return ok, first, nil
	}
	// Pages counted in the last seconds may be on their way to the store
	// (a concurrent call of the same user): they are not looked up.
	for _, open := range quota.settled(r.req.Principal, now.Add(-pageSettle)) {
		_, _, err := r.o.PageStore.Page(r.ctx, open)
		switch {
		case errors.Is(err, ErrNoPage):
			quota.release(r.req.Principal, open)
		case err != nil:
			return false, first, r.pageStoreFailed(err)
		}
	}
	ok, _, first = quota.take(r.req.Principal, id, expires, now, r.o.MaxPagesPerPrincipal)
	return ok, first, nil
}

// pageSettle is how long after a page was counted takePage trusts the
// count without asking the store: longer than a PutPage takes.
const pageSettle = 10 * time.Second

// pageURL returns the URL of page id: Options.PageURL, a slash, the id.
func (r *round) pageURL(id string) string {
	if strings.HasSuffix(r.o.PageURL, "/") {
		return r.o.PageURL + id
	}
	return r.o.PageURL + "/" + id
}

// noURLElicitation is the answer to a call that must ask in URL mode but
// whose client did not declare it (MCP 2026-07-28, client/elicitation:
// {"elicitation":{"url":{}}}): JSON-RPC -32021 with
// data.requiredCapabilities for a 2026-07-28 client (MCP 2026-07-28,
// basic/index, per-request capabilities), which its adapter sends as HTTP
// 400; a tool error for an older one, which has no such code.
// It returns nil, nil when the client declared URL mode.
func (r *round) noURLElicitation(what string) (*Result, error) {
	if r.req.Capabilities().URLElicitation {
		return nil, nil
	}
	msg := r.name + " needs the user to complete " + what + " on the server's page (URL-mode elicitation), but " +
		undeclared(r.req, "URL-mode elicitation")
	if r.legacy() {
		return &Result{Text: msg, IsError: true}, nil
	}
	return nil, &protocol.Error{Code: protocol.CodeMissingCapability, Message: msg,
		Data: map[string]any{"requiredCapabilities": map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}}}
}

// notifyComplete tells a client on a session of a protocol before
// 2026-07-28 that the URL-mode step elicitationId id finished
// (notifications/elicitation/complete, MCP 2025-11-25, client/elicitation):
// such a client waits for it; a 2026-07-28 client learns it from the
// result. Its failure only means the client learns it from the result.
func (r *round) notifyComplete(id string) {
	if r.legacy() && r.req.NotifyElicitationComplete != nil {
		_ = r.req.NotifyElicitationComplete(r.ctx, id)
	}
}

// pageAnswer returns the answer of page id when the user completed it;
// done is false while the page has none, or when the store no longer holds
// the page.
func (r *round) pageAnswer(id string) (content map[string]any, done bool, err error) {
	content, done, _, err = r.lookPage(r.ctx, id)
	return content, done, err
}

// lookPage looks at page id once: done with its answer, or gone when the
// store no longer holds it.
func (r *round) lookPage(ctx context.Context, id string) (content map[string]any, done, gone bool, err error) {
	_, sealed, err := r.o.PageStore.Page(ctx, id)
	switch {
	case errors.Is(err, ErrNoPage):
		return nil, false, true, nil
	case err != nil:
		return nil, false, false, r.pageStoreFailed(err)
	case sealed == nil:
		return nil, false, false, nil
	}
	content, err = urlmode.OpenAnswer(r.o.Keys, id, sealed)
	if err != nil {
		return nil, false, true, nil // not ours: as good as gone
	}
	return content, true, false, nil
}

// waitPage looks at page id until the user completed it: once when the
// client sent no answer to the URL request, or when [round.awaitPages]
// already waited in this request; else as awaitPages does. A legacy
// session whose page is completed is then told through
// notifications/elicitation/complete (MCP 2025-11-25, client/elicitation).
func (r *round) waitPage(id string, accepted bool) (content map[string]any, done, gone bool, err error) {
	ctx := r.ctx
	content, done, gone, err = r.lookPage(ctx, id)
	if !done && !gone && err == nil && accepted && !r.waited {
		content, done, gone, err = r.pollPage(ctx, id)
	}
	if done {
		r.notifyComplete(id)
	}
	return content, done, gone, err
}

// awaitPages runs before a retry claims its flow (see [round.once]): when
// the last round asked a URL-mode page and the retry accepts it (the user
// went to the page), it waits for the page to be completed, up to
// Options.PageWait (a legacy session: until the flow expires), holding
// nothing, so that duplicates of the retry wait the same way instead of
// being refused as busy. Store failures are left for the branch's own look
// to report.
func (r *round) awaitPages(ctx context.Context) {
	for i := range r.st.Asked {
		a := &r.st.Asked[i]
		if a.Page == "" {
			continue
		}
		if er, answered, err := r.answer(a); err == nil && answered && er.Action == Accept {
			_, _, _, _ = r.pollPage(ctx, a.Page)
			r.waited = true
		}
	}
}

// pollPage looks at page id, backing off from pollPage to pollPageMax,
// until it is completed or gone, the store fails, ctx ends (its cause is
// returned), or the wait is over: Options.PageWait of wall-clock time, or
// for a legacy session the flow's expiry.
func (r *round) pollPage(ctx context.Context, id string) (content map[string]any, done, gone bool, err error) {
	deadline := time.Now().Add(r.pageWait())
	pause := pollPage
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, false, false, context.Cause(ctx)
		case <-time.After(min(pause, time.Until(deadline))):
		}
		pause = min(2*pause, pollPageMax)
		if content, done, gone, err = r.lookPage(ctx, id); done || gone || err != nil {
			return content, done, gone, err
		}
	}
	return nil, false, false, nil
}

// pageWait is how long a retry waits for a step at a URL its client accepted
// (the user went there) to be completed: Options.PageWait, or for a legacy
// session, whose client waits for the page on its session, until the flow
// expires.
func (r *round) pageWait() time.Duration {
	if r.legacy() && r.st != nil {
		return time.Unix(r.st.Expires, 0).Sub(r.o.Now())
	}
	return r.o.PageWait
}

// waitDone calls done, the application's completion check of an [AskURL]
// step, backing off from pollPage to pollPageMax as pollPage looks at a
// hosted page, until it reports the step finished, fails (its error is
// returned), ctx ends (its cause is returned), or the wait is over (see
// pageWait): false, nil.
func (r *round) waitDone(ctx context.Context, done func(context.Context) (bool, error)) (bool, error) {
	deadline := time.Now().Add(r.pageWait())
	pause := pollPage
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return false, context.Cause(ctx)
		case <-time.After(min(pause, time.Until(deadline))):
		}
		pause = min(2*pause, pollPageMax)
		if ok, err := done(ctx); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// pageStoreFailed reports a store failure on a page as [round.storeFailed]
// does for claims: -32603, nothing runs.
func (r *round) pageStoreFailed(err error) error {
	return r.storeFailed(r.ctx, fmt.Errorf("%w: URL-mode page: %w", ErrStore, err))
}

// dropPage deletes page id from the store (best effort: it expires anyway)
// and stops counting it against its user.
func (r *round) dropPage(id string) { r.deletePage(context.WithoutCancel(r.ctx), id) }

func (r *round) deletePage(ctx context.Context, id string) {
	_ = r.o.PageStore.DeletePage(ctx, id)
	quotaFor(r.o.PageStore, pageEntries).release(r.req.Principal, id)
}

// dropPages deletes the pages whose answers this request's branch received,
// and the page the last round asked for, answered or not: called once the
// flow has its final result (a branch's, or the engine's: the round limit,
// a tool error), so that no answer outlives the call that needed it and no
// page left open counts against its user (Options.MaxPagesPerPrincipal).
func (r *round) dropPages(ctx context.Context) {
	ids := append(r.pages, r.created...) // created: asked in this request, which then ended the call (the round limit)
	if r.st != nil {
		for _, a := range r.st.Asked {
			if a.Page != "" {
				ids = append(ids, a.Page)
			}
		}
	}
	for _, id := range ids {
		r.deletePage(ctx, id)
	}
	r.pages, r.created = nil, nil
}

func joinTitles(q Args) string { return strings.Join(fallback.Titles(q.RequestedSchema()), ", ") }
