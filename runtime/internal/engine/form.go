package engine

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/downgrade"
	"github.com/mcpgen/mcpgen/internal/fallback"
	"github.com/mcpgen/mcpgen/runtime/internal/clip"
	"github.com/mcpgen/mcpgen/runtime/internal/urlmode"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// form is one form asked through elicitation/create (MCP 2026-07-28,
// client/elicitation, form mode), whichever way it is asked: a tool's own
// arguments form, or a question a branch or an exchange handler asks
// ([Ask]). One engine runs every form ([round.form] decides, [round.askForm]
// asks): it asks, receives the answer, validates it with the generated rules
// and the run-time ones (choices, typed echoes, defaults), keeps what was
// valid, re-asks the rest with the reason within the round limit, and
// records the user's action as a reply in the sealed state.
type form struct {
	// name is the form's name in the state (replies and asked): a
	// question's name, or "" for the tool's own form (Ask refuses "").
	name string
	// key is the inputRequests key of the form's first round; a form asked
	// again uses key_n, n the round the request is answering plus one.
	key    string
	target Args // what an accepted answer fills
	// fresh returns a zero value of target's type, to check the run-time
	// rules against the form's own (see rules.problems); nil: not checked.
	fresh func() Args
	rules *rules // run-time choices, echoes and defaults; nil: none
	// message is the message the form was given (AskOptions.Message or
	// //mcpgen:message); "" sends "Please provide: " and the titles of the
	// fields asked in the round.
	message string
	// fields are the fields the form asks; nil: target.MissingFields().
	fields []string
	// always lists ask=always fields: a form holding one is asked even when
	// nothing in it is required.
	always []string
	// optionalNotAsked: a form with no required or ask=always field is not
	// asked, its optional fields take their defaults (the tool's own form:
	// a call never stops for what the tool can do without).
	optionalNotAsked bool
	// page, for a URL-mode question (//mcpgen:question url), is its
	// registration: the form is asked on the server's page (see pageForm).
	page *urlmode.Question
	// check, when set, judges an accepted, valid answer already applied to
	// target (AskOptions.Check): an error refuses it, and the form is asked
	// again with the error's text as the reason.
	check func() error
	// memo, with no run-time rules, is the identity under which the form's
	// digest is memoised: the generated RequestedSchema depends only on the
	// names it is given, so the digest of one form, message and field list
	// never changes while the process runs, and encoding the schema to JSON
	// was most of the engine's own cost per request. nil: not memoised.
	memo any
	// unaskable, for the tool's own form, answers a request whose client
	// cannot be asked it (the handler's Unaskable fallback, see
	// call.runUnaskable); nil: cannotAsk's default.
	unaskable func(p *pendingQuestion, why string) (*Response, error)
}

// reply is a form's outcome as the state carries it: the user's action and,
// with Accept, the valid answer. The tool's own form's reply (name "") is
// the branch that runs on every later round.
type reply struct {
	Question []byte         // the digest of the question answered
	Action   Action         // the user's action
	Content  map[string]any // Accept: the valid answer; else the valid answers kept
	Fields   []string       // Decline: the fields asked in the round declined
	// Page is, for an accepted URL-mode question, the id of the page whose
	// answer the store keeps (the answer itself is never sealed here).
	Page string
}

// pendingQuestion is a form (or a URL-mode step) to send in the next
// input-required result.
type pendingQuestion struct {
	name    string // the form's name in the state
	key     string // the inputRequests key of this round
	message string // the message given, before any reason ("" for a form: the titles)
	url     string // URL mode: the URL to open; "" for a form
	page    string // URL mode: the page's id (also the elicitationId)
	// elicitID is the elicitationId of a URL-mode step without a hosted
	// page (AskURL); a page's is its id.
	elicitID string
	wait     bool               // URL mode: the same page asked again while the user completes it
	schema   *jsonschema.Schema // form mode: the fields asked in this round
	// schemaJSON is schema encoded, when the memo holds it (else nil).
	schemaJSON []byte
	digest     []byte         // of the whole question (see formDigest)
	content    map[string]any // valid answers kept from earlier rounds
	problem    string         // what was wrong with the last answer
	always     []string       // ask=always fields, which no argument can supply
	// unaskable is the form's (see form.unaskable).
	unaskable func(p *pendingQuestion, why string) (*Response, error)
}

// formMemo holds, by form identity, key, message and fields (see
// form.memo), the whole form's requestedSchema and its digest; formMemoCount
// counts its entries, at most maxQuestions. The schema is shared by every
// request that asks that form: it is never changed once built (run-time
// rules copy what they change, see rules.apply; downgrade.Schema copies).
var (
	formMemo      sync.Map // formMemoID → memoEntry
	formMemoCount atomic.Int32
)

type formMemoID struct {
	memo any
	id   string // key, message and the fields, separated by NUL
}

type memoEntry struct {
	schema *jsonschema.Schema
	digest []byte
	json   []byte // the schema encoded
}

// maxQuestions bounds the forms memoised in a process: the fields a form
// asks depend on which arguments a caller left out.
const maxQuestions = 4096

// schemaOf returns the requestedSchema of fields, and its JSON when the
// memo holds it (a form without run-time rules, see memoised): the fields
// asked again after a bad answer are most often the same few, and an
// adapter sends the JSON as it is instead of encoding the schema again.
func (f *form) schemaOf(fields []string) (*jsonschema.Schema, []byte) {
	if s, _, b := f.memoised(fields); s != nil {
		return s, b
	}
	return f.rules.schema(f.target, fields...), nil
}

// memoised returns the requestedSchema of fields, the form's digest and
// the schema encoded as JSON, from the memo when the form has no run-time
// rules (building and remembering them on the first request), or nil, nil,
// nil when it is not memoised.
func (f *form) memoised(fields []string) (*jsonschema.Schema, []byte, []byte) {
	if f.memo == nil || !f.rules.empty() {
		return nil, nil, nil
	}
	id := formMemoID{memo: f.memo, id: f.key + "\x00" + f.message + "\x00" + strings.Join(fields, "\x00")}
	if e, ok := formMemo.Load(id); ok {
		e := e.(memoEntry)
		return e.schema, e.digest, e.json
	}
	schema := f.target.RequestedSchema(fields...)
	b, _ := json.Marshal(schema)
	e := memoEntry{schema: schema, digest: digestJSON(f.key, f.message, b, nil), json: b}
	if formMemoCount.Load() < maxQuestions {
		if _, loaded := formMemo.LoadOrStore(id, e); !loaded {
			formMemoCount.Add(1)
		}
	}
	return e.schema, e.digest, e.json
}

// digestOf returns the digest of the form whose whole requestedSchema is
// whole, as the engine computes it.
func (f *form) digestOf(whole *jsonschema.Schema) []byte {
	if _, d, _ := f.memoised(f.fields); d != nil {
		return d
	}
	return formDigest(f.key, f.message, whole, f.rules)
}

// replies returns st's replies (nil for a nil st).
func (st *state) replies() map[string]reply {
	if st == nil {
		return nil
	}
	return st.Replies
}

// asked returns what the last round of st asked for the form called name
// (nil when st is nil or it asked something else).
func (st *state) askedFor(name string) *asked {
	if st == nil {
		return nil
	}
	for i := range st.Asked {
		if st.Asked[i].Name == name {
			return &st.Asked[i]
		}
	}
	return nil
}

// decision is what [round.form] decides for a form in this request: exactly
// one of
//   - ask: the question to ask next (see askForm);
//   - final: a tool error that ends the call;
//   - neither: the form is settled, rep is the user's action (with Accept
//     the valid answer already applied to the form's target).
type decision struct {
	rep   reply
	ask   *pendingQuestion
	final *Result
}

// form decides form f in this request, resuming from st (the opened state;
// nil on a first call). It decides exactly one of:
//   - rep: the form is settled (the user's action, with Accept the valid
//     answer already applied to f.target; Decline and Cancel leave
//     f.target alone). A form with nothing left to ask is settled as Accept
//     with its fixed options and defaults, unless the user refused it
//     before: a refusal is never turned into an accept;
//   - ask: the question to ask next (see askForm): the whole form, or, after
//     an accepted answer that broke rules, the failing fields with the
//     reason and the valid answers kept;
//   - final: a tool error that ends the call (run-time rules that are wrong
//     in themselves, a required choices field with no option, or fixed
//     options that fail the form's rules).
//
// An answer counts only when it arrives under the key the last round asked
// it under and the form, as computed now, has the same digest as then: when
// the data changed, the new form is asked. A malformed answer is a -32602
// *protocol.Error.
func (r *round) form(f *form, st *state) (decision, error) {
	if f.page != nil {
		return r.pageForm(f, st)
	}
	if final := r.wrongOptions(f); final != nil {
		return decision{final: final}, nil
	}
	t := newFormTurn(f, st)
	if final := f.rules.settle(r.name, f.target, r.userAnswers(t.prev, t.hasPrev, t.last)); final != nil {
		return decision{final: final}, nil
	}
	t.shape()
	if t.hasPrev && equalDigest(t.prev.Question, t.digest()) {
		if t.prev.Action != Accept || f.target.ApplyContent(f.rules.withFixed(t.prev.Content)) == nil {
			return decision{rep: t.prev}, nil // settled in an earlier round, and still so
		}
	}
	nothingToAsk := t.empty || f.optionalNotAsked && !f.mustAsk(t.schema())
	if nothingToAsk && t.last != nil && !t.lastMatches() {
		var err error
		if t.last, err = r.resumeChanged(t.last, f.rules, t.schema(), t.digest()); err != nil {
			return decision{}, err
		}
	}
	if t.empty || t.last == nil && nothingToAsk {
		// Nothing to ask (every field holds a value or its only option),
		// or only optional fields the tool does without.
		return r.settleUnasked(t)
	}
	p := r.nextQuestion(t)
	if t.last != nil && t.lastMatches() {
		return r.judge(t, p)
	}
	return t.ask(p), nil
}

// wrongOptions returns the tool error that ends the call when the
// run-time rules of f are wrong in themselves (checked against a fresh
// value, see rules.problems), or nil.
func (r *round) wrongOptions(f *form) *Result {
	if f.fresh == nil {
		return nil
	}
	probs := f.rules.problems(f.fresh)
	if len(probs) == 0 {
		return nil
	}
	what := "the tool's form"
	if f.name != "" {
		what = "question " + strconv.Quote(f.name)
	}
	return ToolError("%s: the run-time options of %s are wrong: %s", r.name, what, strings.Join(probs, "; "))
}

// formTurn is one decision of a form in a request: the form, what the
// state says of it (its reply from an earlier round, what the last round
// asked of it), and the fields it asks with their requestedSchema and
// digest as computed now, built when first needed (a call that asks
// nothing builds none).
type formTurn struct {
	f       *form
	st      *state
	prev    reply  // the form's reply in the state, when hasPrev
	hasPrev bool   // the state holds a reply of the form
	last    *asked // what the last round asked of the form; nil: something else
	fields  []string
	empty   bool // the form, as computed now, asks no field
	whole   *jsonschema.Schema
	// wholeJSON is whole encoded, when the memo holds it (else nil).
	wholeJSON []byte
	d         []byte // the digest of the whole form
}

// newFormTurn returns the turn of f resuming from st (nil on a first
// call): its reply and what the last round asked of it.
func newFormTurn(f *form, st *state) *formTurn {
	t := &formTurn{f: f, st: st, last: st.askedFor(f.name)}
	t.prev, t.hasPrev = st.replies()[f.name]
	return t
}

// shape fixes the fields the form asks (f.fields, else the target's
// missing ones, read after rules.settle took what it could), the run-time
// rules they are judged by, and whether it asks nothing: the form as it
// was shown when the user confirmed the one option left of a field (see
// rules.confirmedShown) while that answer stands.
func (t *formTurn) shape() {
	f := t.f
	t.fields = f.fields
	if t.fields == nil {
		t.fields = f.target.MissingFields()
	}
	if alt := f.rules.confirmedShown(); alt != nil {
		// The user answered the one option left of a field that was asked
		// again because an earlier answer was no longer an option: the
		// answer is to the form as it was shown (the field in it, not
		// taken), so that shape is the one judged while it stands.
		d := formDigest(f.key, f.message, alt.schema(f.target, t.fields...), alt)
		if t.last != nil && equalDigest(t.last.Question, d) || t.hasPrev && equalDigest(t.prev.Question, d) {
			*f.rules = *alt
		}
	}
	if len(t.fields) > 0 {
		t.whole, t.d, t.wholeJSON = f.memoised(t.fields)
	}
	// Without run-time rules the form asks exactly fields.
	t.empty = len(t.fields) == 0
	if !f.rules.empty() {
		t.empty = t.schema().Properties.Len() == 0
	}
}

// schema returns the whole form's requestedSchema, building it on first use.
func (t *formTurn) schema() *jsonschema.Schema {
	if t.whole == nil {
		t.whole = t.f.rules.schema(t.f.target, t.fields...)
	}
	return t.whole
}

// digest returns the whole form's digest, computing it on first use.
func (t *formTurn) digest() []byte {
	if t.d == nil {
		t.d = formDigest(t.f.key, t.f.message, t.schema(), t.f.rules)
	}
	return t.d
}

// lastMatches reports whether the last round asked the form as it is now
// (t.last must be set).
func (t *formTurn) lastMatches() bool { return equalDigest(t.last.Question, t.digest()) }

// refused returns the reply that settles the form with action, a Decline
// or Cancel of what the last round asked.
func (t *formTurn) refused(action Action) decision {
	return decision{rep: reply{Question: t.digest(), Action: action, Content: t.f.rules.withFixed(t.last.Content), Fields: t.last.Fields}}
}

// defaultFor returns the default of field name when the form takes it for
// a field left empty: it has one, and the field is not required.
func (t *formTurn) defaultFor(name string) (any, bool) {
	def, ok := t.f.rules.defaultOf(name)
	if !ok || slices.Contains(t.schema().Required, name) {
		return nil, false
	}
	return def, true
}

// settleUnasked settles a form with nothing to ask: a refusal before (a
// reply, or an answer to the last round) stands; else it is accepted with
// the values kept from an accepted reply, its fixed options and defaults,
// applied to the target (a tool error when they fail its rules).
func (r *round) settleUnasked(t *formTurn) (decision, error) {
	f := t.f
	if t.hasPrev && t.prev.Action != Accept {
		return decision{rep: t.prev}, nil
	}
	if t.last != nil {
		er, answered, err := r.answer(t.last)
		if err != nil {
			return decision{}, err
		}
		if answered && er.Action != Accept {
			return t.refused(er.Action), nil
		}
	}
	content := t.unaskedContent()
	var given []string
	if !f.rules.empty() {
		given = slices.Collect(maps.Keys(content))
	}
	ve, err := applyAnswer(f.target, f.rules, content, given)
	if err != nil {
		return decision{}, err
	}
	if ve != nil {
		return decision{final: ToolError("%s: %v", r.name, ve)}, nil
	}
	return decision{rep: reply{Action: Accept, Content: f.rules.taken(content)}}, nil
}

// unaskedContent returns what a form settled without asking is accepted
// with: the values the user gave for fields the form still has, kept when
// an accepted form is settled again with other options (a question's
// round, after the tool's form changed), its fixed options, and the
// defaults of the optional fields left.
func (t *formTurn) unaskedContent() map[string]any {
	var kept map[string]any
	if t.hasPrev {
		kept = inForm(t.prev.Content, t.schema())
	}
	content := t.f.rules.withFixed(kept)
	if len(t.f.rules.defaultsOf()) == 0 {
		return content
	}
	for pair := t.schema().Properties.Oldest(); pair != nil; pair = pair.Next() {
		if _, given := content[pair.Key]; given {
			continue
		}
		if def, ok := t.defaultFor(pair.Key); ok {
			if content == nil {
				content = map[string]any{}
			}
			content[pair.Key] = def
		}
	}
	return content
}

// nextQuestion returns the question that asks the form again or for the
// first time, before any answer is judged: its key (a new one when asked
// before in this call, so that no answer to the earlier form is taken for
// this one) and, when the options changed under answers the user gave, the
// reason. It notes in r.changed an answer to a form that changed since.
func (r *round) nextQuestion(t *formTurn) *pendingQuestion {
	f := t.f
	p := &pendingQuestion{name: f.name, key: f.key, message: f.message, always: f.always, unaskable: f.unaskable}
	if t.last != nil || t.hasPrev {
		p.key = f.key + "_" + strconv.Itoa(t.st.Round+1)
	}
	if t.last != nil && !t.lastMatches() {
		if _, answered := r.req.InputResponses[t.last.Key]; answered {
			r.changed = true // see refuse
		}
	}
	if f.rules != nil && len(f.rules.stale) > 0 && (t.last == nil || !t.lastMatches()) {
		// The options changed under answers the user gave: the form is
		// asked again saying which are no longer among them.
		p.problem = strings.Join(f.rules.stale, "; ")
	}
	return p
}

// judge decides the form from the answer to the last round, which asked
// it as it is now: none yet asks the same fields again with the answers
// kept; a refusal settles it; an answer the client refused itself
// (protocol.ElicitResult's Refused) asks the same fields again with its
// reason; an accepted one is judged by judgeAccepted.
func (r *round) judge(t *formTurn, p *pendingQuestion) (decision, error) {
	er, answered, err := r.answer(t.last)
	switch {
	case err != nil:
		return decision{}, err
	case !answered:
		// Asked again as it stands: the same fields, the answers kept.
		p.schema, p.schemaJSON = t.f.schemaOf(t.last.Fields)
		p.content = t.last.Content
	case er.Action != Accept:
		return t.refused(er.Action), nil
	case er.Refused != "":
		// The same fields again, with its reason, the answers kept from
		// earlier rounds kept.
		r.reasked = append(r.reasked, t.last.Fields...)
		p.schema, p.schemaJSON = t.f.schemaOf(t.last.Fields)
		p.content, p.problem = t.last.Content, er.Refused
	default:
		return r.judgeAccepted(t, p, er)
	}
	return t.ask(p), nil
}

// judgeAccepted decides the form from er, an accepted answer to the last
// round: merged with the answers kept, applied to the target and passed
// f.check, it settles the form; refused by the check, the whole form is
// asked again with its reason, nothing kept; breaking rules, the failing
// fields are asked again with the reason, the valid answers kept.
func (r *round) judgeAccepted(t *formTurn, p *pendingQuestion, er *protocol.ElicitResult) (decision, error) {
	f := t.f
	if len(er.Content) == 0 && len(t.schema().Required) > 0 {
		// Accepted with nothing in it: a client that could not show the
		// form (one that replaces a form it cannot render with a yes/no
		// box) answers so; askForm ends the call the second time.
		r.emptyAccept = true
	}
	merged := t.merge(er)
	ve, err := applyAnswer(f.target, f.rules, merged, t.last.Fields)
	if err != nil {
		return decision{}, err
	}
	if ve == nil && f.check != nil {
		if cerr := f.check(); cerr != nil {
			p.schema, p.content, p.problem = t.schema(), nil, cerr.Error()
			return t.ask(p), nil
		}
	}
	if ve == nil {
		return decision{rep: reply{Question: t.digest(), Action: Accept, Content: f.rules.taken(merged)}}, nil
	}
	failing := ve.Fields()
	r.reasked = append(r.reasked, failing...)
	p.content = maps.Clone(f.rules.taken(merged))
	maps.DeleteFunc(p.content, func(k string, _ any) bool { return slices.Contains(failing, k) })
	p.schema, p.schemaJSON = f.schemaOf(failing)
	p.problem = ve.Error()
	return t.ask(p), nil
}

// merge returns the form's content after er, an accepted answer to the
// last round: the answers kept from earlier rounds, the options left
// with one choice, and for each field asked its answer, or its default
// when left empty and optional.
func (t *formTurn) merge(er *protocol.ElicitResult) map[string]any {
	merged := maps.Clone(t.last.Content)
	if merged == nil {
		merged = map[string]any{}
	}
	t.f.rules.overlayFixed(merged) // a field never asked, left with one option, takes it now
	for _, name := range t.last.Fields {
		delete(merged, name)
		if v, ok := er.Content[name]; ok {
			merged[name] = v
		} else if def, ok := t.defaultFor(name); ok {
			merged[name] = def
		}
	}
	return merged
}

// ask returns the decision to ask p, completed: the whole form when no
// step chose fields, and the form's digest.
func (t *formTurn) ask(p *pendingQuestion) decision {
	if p.schema == nil {
		p.schema, p.schemaJSON = t.schema(), t.wholeJSON
	}
	p.digest = t.digest()
	return decision{ask: p}
}

// resumeChanged resumes from last, a form whose options changed since it
// was asked, when the form as it is now (rl its run-time rules, whole its
// requestedSchema, d its digest) has nothing the user must fill: most often
// a choices field left with one option, the one the user picked (an answer
// no longer among the options keeps its field in the form, see
// rules.settle). Asking that form would show nothing to answer,
// or only optional fields the tool does without, so the answer to last is
// taken for it: a refusal stands (of the fields shown), and an accepted
// answer counts for the fields the form still has (checked, and re-asked
// when they break a rule, as any answer). Without an answer under last's
// key it returns nil: the form is settled as on a first call.
func (r *round) resumeChanged(last *asked, rl *rules, whole *jsonschema.Schema, d []byte) (*asked, error) {
	er, answered, err := r.answer(last)
	if err != nil || !answered {
		// No answer to it: the form is settled as on a first call.
		return nil, err
	}
	now := *last
	now.Question = d
	if er.Action != Accept {
		return &now, nil // the fields refused are those shown
	}
	now.Fields = slices.DeleteFunc(slices.Clone(last.Fields), func(name string) bool { _, ok := whole.Properties.Get(name); return !ok })
	now.Content = inForm(last.Content, whole) // the options the form now takes are added where it is applied
	return &now, nil
}

// userAnswers returns the values the user gave for the fields of a form in
// this call, from the newest: the answer this request carries to what the
// last round asked (last, nil when it asked something else), the valid
// answers kept from earlier rounds (last.Content), and the form's accepted
// reply (prev, when hasPrev) when the form is settled again in a later
// round. Options taken without asking are not in them (see rules.taken).
// It returns nil when there are none.
func (r *round) userAnswers(prev reply, hasPrev bool, last *asked) map[string]any {
	var out map[string]any
	add := func(name string, v any) {
		if out == nil {
			out = map[string]any{}
		}
		out[name] = v
	}
	if hasPrev && prev.Action == Accept {
		for name, v := range prev.Content {
			add(name, v)
		}
	}
	if last == nil {
		return out
	}
	for name, v := range last.Content {
		add(name, v)
	}
	if er, answered, _ := r.answer(last); answered && er.Action == Accept {
		for _, name := range last.Fields {
			if v, ok := er.Content[name]; ok {
				add(name, v)
			}
		}
	}
	return out
}

// inForm returns the values of content whose fields whole (a requestedSchema)
// has; nil when there are none.
func inForm(content map[string]any, whole *jsonschema.Schema) map[string]any {
	var out map[string]any
	for name, v := range content {
		if _, ok := whole.Properties.Get(name); ok {
			if out == nil {
				out = map[string]any{}
			}
			out[name] = v
		}
	}
	return out
}

// mustAsk reports whether whole, the form's requestedSchema, holds a field
// the user must fill or confirm: a required one or an ask=always one.
func (f *form) mustAsk(whole *jsonschema.Schema) bool {
	if len(whole.Required) > 0 {
		return true
	}
	for _, name := range f.always {
		if _, ok := whole.Properties.Get(name); ok {
			return true
		}
	}
	return false
}

// answer returns the elicitation answer to what last asked, if the retry
// carries one; a malformed one is a -32602 *protocol.Error.
func (r *round) answer(last *asked) (*protocol.ElicitResult, bool, error) {
	ans, ok := r.req.InputResponses[last.Key]
	if !ok {
		return nil, false, nil
	}
	er, ok := ans.(*protocol.ElicitResult)
	if !ok || er == nil {
		return nil, false, &protocol.Error{Code: protocol.CodeInvalidParams,
			Message: "inputResponses[" + strconv.Quote(last.Key) + "] is not an elicitation result"}
	}
	switch er.Action {
	case Accept, Decline, Cancel:
		return er, true, nil
	}
	return nil, false, &protocol.Error{Code: protocol.CodeInvalidParams,
		Message: "inputResponses[" + strconv.Quote(last.Key) + "] has unknown action " + strconv.Quote(clip.Text(string(er.Action)))}
}

// askForm ends the request in the input-required result that asks p, with
// base (the state to resume from) sealed: or, when the call may not ask
// again (the round limit, a legacy client's single round) or the client
// cannot be asked, in the tool error (or -32021, per
// [Options.MissingCapability]) that says so.
func (r *round) askForm(base *state, p *pendingQuestion) (*Response, error) {
	if p.wait {
		base.Waits++ // waiting for a page is not a round of asking again
	}
	if resp := r.refuse(base, p.problem); resp != nil {
		return resp, nil
	}
	if r.st != nil {
		base.Empty = r.st.Empty
	}
	if r.emptyAccept {
		base.Empty++
		if base.Empty >= 2 && p.url == "" && p.schema != nil {
			// Asking again would loop to the round limit: the model is
			// told what to pass instead.
			return r.cannotAsk(p, "the client accepted the form twice with nothing filled in (it may be unable to show it)")
		}
	}
	caps := r.req.Capabilities()
	msg := p.message
	if msg == "" && p.schema != nil {
		msg = "Please provide: " + strings.Join(fallback.Titles(p.schema), ", ")
	}
	if p.problem != "" {
		msg += "\n\nPlease check: " + p.problem
	}
	var ir *protocol.ElicitRequest
	if p.url != "" {
		if p.page != "" {
			if final, err := r.noURLElicitation("question " + strconv.Quote(p.name)); final != nil || err != nil {
				return complete(final), err
			}
		} else if !caps.URLElicitation {
			return complete(&Result{Text: fallback.URLText(r.name, p.name, undeclared(r.req, "URL-mode elicitation")), IsError: true}), nil
		}
		ir = &protocol.ElicitRequest{Mode: "url", Message: msg, URL: p.url, ElicitationID: cmp.Or(p.page, p.elicitID)}
	} else {
		if !caps.FormElicitation {
			// Capabilities are declared on every request (MCP 2026-07-28):
			// a retry that does not declare form elicitation is sent no form.
			return r.cannotAsk(p, "")
		}
		sent := p.schema
		if r.legacy() {
			var err error
			if sent, err = downgrade.Schema(p.schema, r.req.ProtocolVersion); err != nil {
				return complete(ToolError("%s: %v", r.name, err)), nil
			}
		}
		ir = &protocol.ElicitRequest{Mode: "form", Message: msg, RequestedSchema: sent}
		if sent == p.schema {
			ir.RequestedSchemaJSON = p.schemaJSON
		}
	}
	var fields []string
	if p.schema != nil {
		for pair := p.schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
			fields = append(fields, pair.Key)
		}
	}
	return r.issue(base,
		[]asked{{Key: p.key, Name: p.name, Question: p.digest, Fields: fields, Content: p.content, Page: p.page}},
		map[string]protocol.InputRequest{p.key: ir}, p.problem)
}

// cannotAsk answers a request that must ask form p but whose client cannot
// be asked: why says so ("" means it did not declare form elicitation). The
// form's unaskable fallback answers when it has one (the tool's handler's
// Unaskable, see call.runUnaskable), else defaultCannotAsk.
func (r *round) cannotAsk(p *pendingQuestion, why string) (*Response, error) {
	if p.unaskable != nil {
		return p.unaskable(p, why)
	}
	return r.defaultCannotAsk(p, why)
}

// defaultCannotAsk answers a request that must ask form p but whose client
// cannot be asked: why says so ("" means it did not declare form
// elicitation: then JSON-RPC -32021 with data.requiredCapabilities when so
// configured). Otherwise it is a tool error naming every field with its
// title and constraints; for the tool's own form it says which fields the
// model can pass as arguments and call again, and which only the user can
// confirm.
func (r *round) defaultCannotAsk(p *pendingQuestion, why string) (*Response, error) {
	schema := p.schema
	if why == "" && r.o.MissingCapability == ProtocolErrorOnMissingCapability {
		return nil, missingForm(r.name + " needs form elicitation to ask for " + strings.Join(p.fieldsOf(), ", "))
	}
	if why == "" {
		why = undeclared(r.req, "form elicitation")
	}
	text := fallback.Text(fallback.Form{Tool: r.name, Question: p.name, Message: p.message, Schema: schema,
		AskAlways: p.always, Why: why, Problem: p.problem})
	return complete(&Result{Text: text, IsError: true}), nil
}
