package engine

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/internal/urlmode"
)

var (
	// ErrInputRequired is what [Ask], [AskURL] return while the user has not
	// answered yet in this request. See runtime.ErrInputRequired.
	ErrInputRequired = errors.New("mcpgen: waiting for the user's answer; return this error unchanged")

	// ErrUnaskable is what [Ask] and [AskURL] return (errors.Is matches it;
	// the error's text is the tool error below) when the client of the
	// request cannot be asked the question: it declared no form elicitation
	// (or no URL-mode elicitation, for a URL-mode question or AskURL; MCP
	// 2026-07-28, client/elicitation, capabilities; for a 2025-era client,
	// MCP 2025-11-25, basic/lifecycle: what it declared at initialize), or
	// the adapter cannot send it a request at all
	// ([protocol.Client].Unaskable). See runtime.ErrUnaskable.
	ErrUnaskable = errors.New("mcpgen: the client cannot be asked")
)

// AskOptions shape a question at run time, from what the branch computed. See
// runtime.AskOptions.
type AskOptions struct {
	// Message is shown above the form; "" uses the question struct's
	// //mcpgen:message, or "Please provide: " and the fields' titles.
	Message string
	// Choices gives, by JSON name, the options of each elicit:"choices"
	// field: an answer must be one of them. A required single select with
	// exactly one option is not asked (the field takes it), also when its
	// options shrank to one since the question was asked (then, with
	// nothing else to ask, Ask returns Accept, or the user's Decline or
	// Cancel of the question); a required field with none ends the call in
	// a tool error naming it.
	Choices map[string][]Choice
	// Equal gives, by JSON name, the exact string an answer must be (a typed
	// echo: "type the service name to confirm"); a different answer is asked
	// again with the reason.
	Equal map[string]string
	// Defaults gives, by JSON name, values the form pre-fills (MCP
	// 2026-07-28, client/elicitation: default) and an optional field left
	// unanswered takes.
	//
	Defaults map[string]any
	// Descriptions gives, by JSON name, the field's description in this
	// form in place of the tag's (MCP 2026-07-28, client/elicitation:
	// a property's description, the help text a client shows): what only the
	// branch knows, such as "Type octo/hello exactly". Like the rest of the
	// options it is part of the question: a retry that computes another
	// description asks again. An empty one, or a name that is no elicitable
	// field, ends the call in a tool error naming it.
	//
	// Choices, Equal, Defaults and Descriptions are form mode's: for a
	// URL-mode question (//mcpgen:question url) Ask returns an error when
	// any is set, since its page applies the tags' rules and texts alone;
	// use Check.
	Descriptions map[string]string
	// Check, when set, judges an accepted answer once it passed every rule
	// and q holds it (a key the service it unlocks refuses, an account that
	// is closed): a non-nil error refuses the answer, and the question is
	// asked again with the error's text as the reason (shown to the user:
	// never put a secret in it), within the round limit. It runs once per
	// answer, on the retry that brings it, not on later rounds.
	Check func(ctx context.Context) error
}

// ctxAsker is the context key of the asker of the request a branch runs in.
type ctxAskerKey struct{}

// asker lets a branch (or an exchange handler) ask typed questions in the
// request it runs in, through the form engine ([round.form]): it holds what
// the sealed state says was answered, and the one question this request
// asks, if any, for [asker.next] to send.
type asker struct {
	r       *round
	replies map[string]reply           // settled forms, sealed into the next state
	kept    map[string]json.RawMessage // values computed once (Keep), sealed likewise
	pending *pendingQuestion           // the question this request asks
	final   *Result                    // a result the engine decided (no option for a required field)
	// tool, when toolSet, is the reply of the tool's own form that the
	// branch runs on, sealed under "" when the branch asks.
	tool    reply
	toolSet bool
	// flowID and round are what FlowID and Round return in the branch.
	flowID string
	round  int
	// waited: an AskURL of this request already waited for its step.
	waited bool
}

// newAsker returns the asker of a request: the replies and kept values of
// its opened state are its own (a state is opened for one request), and
// maps are made only when something is added, so that a branch that asks
// nothing costs no allocation here.
func newAsker(r *round) *asker {
	a := &asker{r: r}
	if r.st != nil {
		a.replies, a.kept = r.st.Replies, r.st.Kept
	}
	return a
}

// settle records the reply of the form called name, where the engine and
// the next state read it.
func (a *asker) settle(name string, rep reply) {
	if a.replies == nil {
		a.replies = map[string]reply{}
		if a.r.st != nil {
			a.r.st.Replies = a.replies
		}
	}
	a.replies[name] = rep
}

func askerFrom(ctx context.Context) *asker {
	a, _ := ctx.Value(ctxAskerKey{}).(*asker)
	return a
}

// Ask asks the user question q — a struct with a //mcpgen:question
// directive and elicit tags, whose methods mcpgen generated — under name,
// from a branch of a generated flow (Accept, Decline, Cancel) or an exchange
// handler (MCP 2026-07-28, client/elicitation, form mode). See runtime.Ask.
func Ask(ctx context.Context, name string, q Args, opts *AskOptions) (Action, error) {
	a := askerFrom(ctx)
	if a == nil {
		return "", fmt.Errorf("mcpgen: runtime.Ask(%q) outside a flow branch or exchange handler", name)
	}
	if name == "" {
		return "", errors.New("mcpgen: runtime.Ask needs a question name")
	}
	if a.pending != nil || a.final != nil {
		return "", ErrInputRequired // one question per round
	}
	if opts == nil {
		opts = &AskOptions{}
	}
	typ := reflect.TypeOf(q)
	f := &form{name: name, key: name, target: q, message: opts.Message, memo: typ,
		rules: &rules{choices: opts.Choices, equal: opts.Equal, defaults: opts.Defaults, descriptions: opts.Descriptions},
		page:  urlmode.ByType(q)}
	if f.page != nil && !f.rules.empty() {
		// The page is written at generation time and validates with the
		// generated rules alone: run-time ones would go unchecked.
		return "", fmt.Errorf("mcpgen: runtime.Ask(%q): %T is a URL-mode question, asked on the server's page, which applies "+
			"no AskOptions.Choices, Equal, Defaults or Descriptions; judge the answer in AskOptions.Check instead", name, q)
	}
	if opts.Check != nil {
		f.check = func() error { return opts.Check(ctx) }
	}
	if !f.rules.empty() && typ.Kind() == reflect.Pointer {
		// The run-time rules are checked against a zero question.
		f.fresh = func() Args {
			fresh, _ := reflect.New(typ.Elem()).Interface().(Args)
			return fresh
		}
		if f.fresh() == nil {
			f.fresh = nil
		}
	}
	if f.message == "" {
		if m, ok := q.(interface{ ElicitMessage() string }); ok {
			f.message = m.ElicitMessage()
		}
	}
	d, err := a.r.form(f, a.r.st)
	switch {
	case err != nil:
		return "", err
	case d.final != nil:
		a.final = d.final
		return "", ErrInputRequired
	case d.ask != nil:
		if ue := a.r.cannotSend(d.ask); ue != nil {
			return "", ue
		}
		a.pending = d.ask
		return "", ErrInputRequired
	}
	if d.rep.Question != nil {
		a.settle(name, d.rep)
	}
	return d.rep.Action, nil
}

func describeTitle(name string, p *jsonschema.Schema) string {
	if p.Title == "" {
		return name
	}
	return fmt.Sprintf("%s (%q)", name, p.Title)
}

// AskURL asks the user, under name, to complete a step out of band at url
// (MCP 2026-07-28, client/elicitation, "URL Mode Elicitation Requests"):
// signing in, paying, entering a secret that must not pass through the
// client. See runtime.AskURL.
func AskURL(ctx context.Context, name, message, url string, done func(context.Context) (bool, error)) (Action, error) {
	a := askerFrom(ctx)
	if a == nil {
		return "", fmt.Errorf("mcpgen: runtime.AskURL(%q) outside a flow branch or exchange handler", name)
	}
	if name == "" || url == "" || done == nil {
		return "", errors.New("mcpgen: runtime.AskURL needs a name, a URL and a done function")
	}
	if a.pending != nil || a.final != nil {
		return "", ErrInputRequired
	}
	sum := sha256.Sum256([]byte("url\x00" + name + "\x00" + message + "\x00" + url))
	digest := sum[:]
	// The step's elicitationId (MCP 2025-11-25, client/elicitation, URL
	// mode: required there), the same on every round of the flow.
	idSum := sha256.Sum256([]byte(a.flowID + "\x00" + name + "\x00" + string(digest)))
	elicitID := base64.RawURLEncoding.EncodeToString(idSum[:16])
	ok, err := done(ctx)
	if err != nil {
		return "", err
	}
	if ok {
		if a.r.st.askedFor(name) != nil {
			a.r.notifyComplete(elicitID)
		}
		return Accept, nil
	}
	if rep, ok := a.replies[name]; ok && equalDigest(rep.Question, digest) && rep.Action != Accept {
		return rep.Action, nil
	}
	p := &pendingQuestion{name: name, key: name, message: message, url: url, digest: digest, elicitID: elicitID}
	last := a.r.st.askedFor(name)
	if last != nil {
		p.key = name + "_" + strconv.Itoa(a.r.st.Round+1)
	}
	if last != nil && equalDigest(last.Question, digest) {
		er, answered, err := a.r.answer(last)
		if err != nil {
			return "", err
		}
		if answered && er.Action != Accept {
			a.settle(name, reply{Question: digest, Action: er.Action})
			return er.Action, nil
		}
		if answered && !a.waited {
			// Accepted: the user went to the URL (a client may accept as
			// soon as it opened the browser). Wait for the step as a
			// hosted page's retry does, rather than spend a round.
			a.waited = true
			ok, err := a.r.waitDone(ctx, done)
			if err != nil {
				return "", err
			}
			if ok {
				a.r.notifyComplete(elicitID)
				return Accept, nil
			}
		}
		if answered {
			// Asked again while the user completes the step: not a round
			// towards the limit (state.Waits), as with a hosted page.
			p.problem, p.wait = "the step at the URL has not finished yet", true
		}
	}
	if ue := a.r.cannotSend(p); ue != nil {
		return "", ue
	}
	a.pending = p
	return "", ErrInputRequired
}

// Keep returns the value stored under name by an earlier round of this call,
// or computes it, stores it and returns it: a plan or a price quote computed
// once rides in the sealed requestState, so that later rounds see the same
// value instead of recomputing data that may change. See runtime.Keep.
func Keep[T any](ctx context.Context, name string, compute func() (T, error)) (T, error) {
	var zero T
	a := askerFrom(ctx)
	if a == nil {
		return compute()
	}
	if raw, ok := a.kept[name]; ok {
		var v T
		if err := json.Unmarshal(raw, &v); err == nil {
			return v, nil
		}
	}
	v, err := compute()
	if err != nil {
		return zero, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return zero, fmt.Errorf("mcpgen: runtime.Keep(%q): %w", name, err)
	}
	if a.kept == nil {
		a.kept = map[string]json.RawMessage{}
	}
	a.kept[name] = b
	return v, nil
}

// next returns the response that ends a request whose branch returned after
// asking: the tool error Ask decided, or the input-required result of the
// pending question with base (the state to resume from) sealed. ok is false
// when the branch asked nothing.
func (a *asker) next(base *state) (resp *Response, ok bool, err error) {
	if a.final != nil {
		return complete(a.final), true, nil
	}
	if a.pending == nil {
		return nil, false, nil
	}
	if a.toolSet {
		a.settle("", a.tool)
	}
	base.Replies, base.Kept = a.replies, a.kept
	resp, err = a.r.askForm(base, a.pending)
	return resp, true, err
}
