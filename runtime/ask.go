package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// ErrInputRequired is what [Ask], [AskURL] return while the user has not
// answered yet in this request. Return it from the branch unchanged
// (`if err != nil { return nil, err }`): the flow then answers the request
// with an input-required result for that question (MCP 2026-07-28,
// basic/patterns/mrtr) and runs the branch again, from the top, on the
// client's retry.
var ErrInputRequired = errors.New("mcpgen: waiting for the user's answer; return this error unchanged")

// AskOptions shape a question at run time, from what the branch computed.
// Everything in them is part of the question: when a retry computes other
// options (the data changed), an earlier answer is not applied and the new
// question is asked.
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
	Defaults map[string]any
}

// ctxAsker is the context key of the asker of the request a branch runs in.
type ctxAskerKey struct{}

// asker lets a branch (or an exchange handler) ask typed questions in the
// request it runs in: it reads what the sealed state says was answered, and
// records the one question this request asks, if any, for the engine to
// send.
type asker struct {
	r       *round
	replies map[string]reply           // answered questions, sealed into the next state
	kept    map[string]json.RawMessage // values computed once (Keep), sealed likewise
	pending *pendingQuestion           // the question this request asks
	final   *Result                    // a result Ask decided (no option for a required field)
}

// reply is an answered question as the state carries it.
type reply struct {
	Question []byte         `json:"d"`           // the digest of the question answered
	Action   Action         `json:"a"`           // the user's action
	Content  map[string]any `json:"c,omitempty"` // with Accept: the valid answer
}

// pendingQuestion is a question to send in the next input-required result.
type pendingQuestion struct {
	name    string             // the question's name (its first inputRequests key)
	message string             // the message, before any reason
	url     string             // URL mode: the URL to open; "" for a form
	schema  *jsonschema.Schema // form mode: the fields asked in this round
	digest  []byte             // of the whole question (see formDigest)
	content map[string]any     // valid answers kept from earlier rounds
	problem string             // what was wrong with the last answer
}

func newAsker(r *round) *asker {
	a := &asker{r: r, replies: map[string]reply{}, kept: map[string]json.RawMessage{}}
	if r.st != nil {
		maps.Copy(a.replies, r.st.Replies)
		maps.Copy(a.kept, r.st.Kept)
	}
	return a
}

func askerFrom(ctx context.Context) *asker {
	a, _ := ctx.Value(ctxAskerKey{}).(*asker)
	return a
}

// Ask asks the user question q — a struct with a //mcpgen:question directive
// and elicit tags, whose methods mcpgen generated — under name, from a
// branch of a generated flow (Accept, Decline, Cancel) or an exchange
// handler (MCP 2026-07-28, client/elicitation, form mode). The branch runs
// again from the top on every round, on any instance, so code before the
// last question must be free of side effects.
//
// It returns:
//   - Accept, nil: q holds the user's valid answer (from this request, or
//     sealed from an earlier round: an answered question is not asked again
//     while it stays the same question);
//   - Decline or Cancel, nil: the user refused or walked away; q is
//     unchanged and the branch decides what that means;
//   - "", ErrInputRequired: not answered yet; return the error unchanged.
//     An accepted answer that breaks a rule (of the tags or of opts) is
//     asked again for just the failing fields, with the reason, within the
//     round limit, without returning to the branch.
//
// Other errors: ctx is not a branch's or exchange handler's context; name is
// empty; the answer is malformed (a *protocol.Error -32602).
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
	rl := &rules{choices: opts.Choices, equal: opts.Equal, defaults: opts.Defaults}
	if final := rl.settle(a.r.name, q); final != nil {
		a.final = final
		return "", ErrInputRequired
	}
	schema := rl.schema(q)
	message := opts.Message
	if message == "" {
		if m, ok := q.(interface{ ElicitMessage() string }); ok {
			message = m.ElicitMessage()
		}
	}
	if message == "" {
		message = "Please provide: " + strings.Join(titles(schema), ", ")
	}
	digest := formDigest(name, message, schema, rl)
	if schema.Properties.Len() == 0 {
		// Nothing to ask: every field holds an answer or its only option.
		// When the question was asked before and its options have shrunk
		// since, the user's refusal of it stays a refusal.
		if action := a.refusal(name, digest); action != "" {
			return action, nil
		}
		if err := q.ApplyContent(rl.withFixed(nil)); err != nil {
			return "", err
		}
		return Accept, nil
	}
	if rep, ok := a.replies[name]; ok && equalDigest(rep.Question, digest) {
		if rep.Action != Accept || q.ApplyContent(rep.Content) == nil {
			return rep.Action, nil
		}
	}
	p := &pendingQuestion{name: name, message: message, schema: schema, digest: digest, content: rl.fixed}
	if last := a.lastAsked(name); last != nil && equalDigest(last.Question, digest) {
		er, answered, err := a.answer(last)
		if err != nil {
			return "", err
		}
		if answered {
			switch er.Action {
			case Decline, Cancel:
				a.replies[name] = reply{Question: digest, Action: er.Action}
				return er.Action, nil
			case Accept:
				merged := maps.Clone(last.Content)
				if merged == nil {
					merged = map[string]any{}
				}
				for _, f := range last.Fields {
					delete(merged, f)
					if v, ok := er.Content[f]; ok {
						merged[f] = v
					} else if d, ok := rl.defaults[f]; ok && !slices.Contains(schema.Required, f) {
						merged[f] = d
					}
				}
				ve, err := applyAnswer(q, rl, merged, last.Fields)
				if err != nil {
					return "", err
				}
				if ve == nil {
					a.replies[name] = reply{Question: digest, Action: Accept, Content: merged}
					return Accept, nil
				}
				failing := ve.Fields()
				p.content = map[string]any{}
				for k, v := range merged {
					if !slices.Contains(failing, k) {
						p.content[k] = v
					}
				}
				p.schema = rl.schema(q, failing...)
				p.problem = ve.Error()
			}
		} else {
			p.schema = rl.schema(q, last.Fields...)
			p.content = last.Content
		}
	}
	a.pending = p
	return "", ErrInputRequired
}

func describeTitle(name string, p *jsonschema.Schema) string {
	if p.Title == "" {
		return name
	}
	return fmt.Sprintf("%s (%q)", name, p.Title)
}

// refusal returns Decline or Cancel when the user refused question name, in
// an earlier round or in this retry's answer to the last round (a refusal
// this request reads is recorded under digest, the question as it stands
// now), and "" otherwise. Ask keeps such a refusal for a question that has
// nothing left to ask, whatever its options were when it was refused: a
// refusal is never turned into an accept.
func (a *asker) refusal(name string, digest []byte) Action {
	if rep, ok := a.replies[name]; ok && rep.Action != Accept {
		return rep.Action
	}
	if last := a.lastAsked(name); last != nil {
		if er, answered, _ := a.answer(last); answered && er.Action != Accept {
			a.replies[name] = reply{Question: digest, Action: er.Action}
			return er.Action
		}
	}
	return ""
}

// lastAsked returns what the last round asked for question name, or nil.
func (a *asker) lastAsked(name string) *asked {
	if a.r.st == nil {
		return nil
	}
	for i := range a.r.st.Asked {
		if a.r.st.Asked[i].Name == name {
			return &a.r.st.Asked[i]
		}
	}
	return nil
}

// answer returns the elicitation answer to what last asked, if the retry
// carries one; a malformed one is a -32602 *protocol.Error.
func (a *asker) answer(last *asked) (*protocol.ElicitResult, bool, error) {
	ans, ok := a.r.req.InputResponses[last.Key]
	if !ok {
		return nil, false, nil
	}
	er, ok := ans.(*protocol.ElicitResult)
	if !ok || er == nil {
		return nil, false, &protocol.Error{Code: protocol.CodeInvalidParams,
			Message: fmt.Sprintf("inputResponses[%q] is not an elicitation result", last.Key)}
	}
	switch er.Action {
	case Accept, Decline, Cancel:
		return er, true, nil
	}
	return nil, false, &protocol.Error{Code: protocol.CodeInvalidParams,
		Message: fmt.Sprintf("inputResponses[%q] has unknown action %q", last.Key, er.Action)}
}

// AskURL asks the user, under name, to complete a step out of band at url
// (MCP 2026-07-28, client/elicitation, "URL Mode Elicitation Requests"):
// signing in, paying, entering a secret that must not pass through the
// client. done reports whether the step has finished; it is the
// application's answer, checked on every round, never the client's. While it
// has not, the user is asked (again), within the round limit. It returns
// Accept once done says so, Decline or Cancel when the user refused the URL,
// and ErrInputRequired while waiting (return it unchanged, as with [Ask]).
// The URL must carry no credentials or user data and must not be
// pre-authenticated; done must check that whoever completed the step is the
// caller. Errors from done are returned as they are.
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
	ok, err := done(ctx)
	if err != nil {
		return "", err
	}
	if ok {
		return Accept, nil
	}
	sum := sha256.Sum256([]byte("url\x00" + name + "\x00" + message + "\x00" + url))
	digest := sum[:]
	if rep, ok := a.replies[name]; ok && equalDigest(rep.Question, digest) && rep.Action != Accept {
		return rep.Action, nil
	}
	p := &pendingQuestion{name: name, message: message, url: url, digest: digest}
	if last := a.lastAsked(name); last != nil && equalDigest(last.Question, digest) {
		er, answered, err := a.answer(last)
		if err != nil {
			return "", err
		}
		if answered && er.Action != Accept {
			a.replies[name] = reply{Question: digest, Action: er.Action}
			return er.Action, nil
		}
		if answered {
			p.problem = "the step at the URL has not finished yet"
		}
	}
	a.pending = p
	return "", ErrInputRequired
}

// Keep returns the value stored under name by an earlier round of this call,
// or computes it, stores it and returns it: a plan or a price quote computed
// once rides in the sealed requestState, so that later rounds see the same
// value instead of recomputing data that may change. Values are JSON-encoded
// (they add to the state's size, bounded by Options.MaxStateSize) and are
// sealed only when the request asks a question after computing them. Outside
// a flow branch or exchange handler it simply calls compute.
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
	q := a.pending
	if q == nil {
		return nil, false, nil
	}
	if resp := a.r.refuse(base, q.problem); resp != nil {
		return resp, true, nil
	}
	caps := a.r.req.Capabilities()
	key := q.name
	if a.lastAsked(q.name) != nil {
		key = q.name + "_" + strconv.Itoa(base.Round+1)
	}
	msg := q.message
	if q.problem != "" {
		msg += "\n\nPlease check: " + q.problem
	}
	var ir *protocol.ElicitRequest
	if q.url != "" {
		if !caps.URLElicitation {
			return complete(ToolError("%s needs the user to complete a step at a URL (%s), but %s", a.r.name, q.name, undeclared(a.r.req, "URL-mode elicitation"))), true, nil
		}
		ir = &protocol.ElicitRequest{Mode: "url", Message: msg, URL: q.url}
	} else {
		if !caps.FormElicitation {
			return complete(a.noFormCapability(q)), true, nil
		}
		sent := q.schema
		if a.r.legacy() {
			if sent, err = downgradeSchema(q.schema, a.r.req.ProtocolVersion); err != nil {
				return complete(ToolError("%s: %v", a.r.name, err)), true, nil
			}
		}
		ir = &protocol.ElicitRequest{Mode: "form", Message: msg, RequestedSchema: sent}
	}
	base.Replies, base.Kept = a.replies, a.kept
	var fields []string
	if q.schema != nil {
		for pair := q.schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
			fields = append(fields, pair.Key)
		}
	}
	resp, err = a.r.issue(base,
		[]asked{{Key: key, Name: q.name, Question: q.digest, Fields: fields, Content: q.content}},
		map[string]protocol.InputRequest{key: ir}, q.problem)
	return resp, true, err
}

// noFormCapability is the tool error for a question the client cannot be
// asked: it names the question's fields, which no argument can supply.
func (a *asker) noFormCapability(q *pendingQuestion) *Result {
	var b strings.Builder
	fmt.Fprintf(&b, "%s needs the user to answer a question (%q), but %s, so it cannot be asked:", a.r.name, q.message, undeclared(a.r.req, "form elicitation"))
	for pair := q.schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		b.WriteString("\n- " + describeField(pair.Key, pair.Value, slices.Contains(q.schema.Required, pair.Key)))
	}
	return &Result{Text: b.String(), IsError: true}
}
