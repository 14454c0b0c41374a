package page

import (
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/httpserve"
	"github.com/mcpgen/mcpgen/runtime/internal/urlmode"
)

// csrfField is the name of the form's hidden CSRF token input.
const csrfField = "csrf_token"

// ServeHTTP serves a question's page (GET, HEAD) and takes its answer
// (POST): the page must open, the user signed in must be the one who
// called the tool, and the answer posted must be readable, verified and
// valid before it is stored, once.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	httpserve.BodyDeadline(w, r)
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, HEAD, POST")
		h.refuse(r, w, http.StatusMethodNotAllowed, "Method not allowed", "This page is opened with GET and sent with POST.", "method")
		return
	}
	pg, ok := h.open(w, r)
	if !ok {
		return
	}
	if !h.admit(w, r, pg) {
		return
	}
	if r.Method != http.MethodPost {
		h.form(w, http.StatusOK, pg.id, pg.principal, pg.rec, pg.q, nil)
		return
	}
	if !h.readPost(w, r) {
		return
	}
	content, ok := h.check(w, r, pg)
	if !ok {
		return
	}
	h.complete(w, r, pg, content)
}

// pageRequest is a request for a page that opened: its id, the record the
// store keeps for it, whether it was completed, and, once admitted, the
// signed-in user and the question it asks.
type pageRequest struct {
	id        string
	store     runtime.PageStore // the page store the page was read from
	rec       *urlmode.Record
	answered  bool // the page was completed
	principal string
	q         *urlmode.Question
}

// refusal is how the page refuses a request: its status, a heading and
// what happened in words, and the reason logged.
type refusal struct {
	status                int
	heading, text, reason string
}

// The refusals the page gives at more than one step.
var (
	refusedExpired = refusal{http.StatusGone, "Link expired",
		"This link has expired. Nothing was stored. Ask your assistant to start the request again.", "expired"}
	refusedCompleted = refusal{http.StatusConflict, "Already completed",
		"This form was already completed. Nothing was changed. Go back to your assistant.", "already completed"}
)

// refuseWith writes the page of refusal f (see refuse).
func (h *handler) refuseWith(r *http.Request, w http.ResponseWriter, f refusal) {
	h.refuse(r, w, f.status, f.heading, f.text, f.reason)
}

// open reads the page the request's path names from the store and opens
// its sealed record. It reports false, having answered, when the id is
// malformed or unknown, the record does not open with these keys (a store
// shared with another deployment, or written by someone else: 404 as
// unknown), or the store failed.
func (h *handler) open(w http.ResponseWriter, r *http.Request) (*pageRequest, bool) {
	id := pageID(r.URL.Path)
	if id == "" {
		h.refuse(r, w, http.StatusNotFound, "Link not valid", notFound, "malformed id")
		return nil, false
	}
	store := h.o.FlowPageStore()
	sealed, answer, err := store.Page(r.Context(), id)
	switch {
	case errors.Is(err, runtime.ErrNoPage):
		h.refuse(r, w, http.StatusNotFound, "Link not valid", notFound, "unknown id")
		return nil, false
	case err != nil:
		h.storeFailed(r.Context(), w, id, err)
		return nil, false
	}
	rec, err := urlmode.OpenRecord(h.o.Keys, id, sealed)
	if err != nil {
		h.refuse(r, w, http.StatusNotFound, "Link not valid", notFound, "record does not open")
		return nil, false
	}
	return &pageRequest{id: id, store: store, rec: rec, answered: answer != nil}, true
}

// admit reports whether the page may be shown or sent to this user,
// filling pg's principal and question: the user signed in (the Identify
// hook may answer with a sign-in page) is the one who called the tool,
// the page has not expired nor been completed, and this server knows its
// question. Otherwise it has answered, and reports false.
func (h *handler) admit(w http.ResponseWriter, r *http.Request, pg *pageRequest) bool {
	principal, ok := h.p.Identify(w, r)
	if !ok {
		return false // the hook answered (a sign-in page)
	}
	switch {
	case principal == "" || principal != pg.rec.Principal:
		h.refuse(r, w, http.StatusForbidden, "Not your request",
			"This link belongs to a request started by another account than the one you are signed in with. Nothing was stored. "+
				"Sign in with the account that started the request, or ask your assistant to start it again.", "other user")
		return false
	case pg.rec.Expired(h.now()):
		h.refuseWith(r, w, refusedExpired)
		return false
	case pg.answered:
		h.refuseWith(r, w, refusedCompleted)
		return false
	}
	pg.principal, pg.q = principal, urlmode.ByName(pg.rec.Question)
	if pg.q == nil {
		h.refuse(r, w, http.StatusServiceUnavailable, "Form unavailable",
			"This server cannot show this form: it does not know the question "+pg.rec.Question+
				" (an instance running another version of the server?). Nothing was stored.", ErrNoQuestion.Error())
		return false
	}
	return true
}

// readPost reads the form posted, at most MaxFormBytes, into
// r.PostForm. It reports false, having answered, when it is too large (as
// a whole, or a field over its limit) or not readable, or not UTF-8: a
// browser sends the page's form in UTF-8, and anything else would be
// checked as sent and then stored otherwise (encoding/json turns each
// invalid byte into U+FFFD).
func (h *handler) readPost(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.refuse(r, w, http.StatusRequestEntityTooLarge, "Form too large",
				"The form sent was larger than "+strconv.Itoa(MaxFormBytes)+" bytes. Nothing was stored.", "too large")
			return false
		}
		h.refuse(r, w, http.StatusBadRequest, "Form not readable", "The form sent could not be read. Nothing was stored.", "malformed post")
		return false
	}
	if !validUTF8(r.PostForm) {
		h.refuse(r, w, http.StatusBadRequest, "Form not readable", "The form sent was not UTF-8 text. Nothing was stored.", "not utf-8")
		return false
	}
	if field, what := h.overLimit(r.PostForm); field != "" {
		h.refuse(r, w, http.StatusRequestEntityTooLarge, "Form too large",
			"The field "+strconv.Quote(field)+" sent "+what+". Nothing was stored.", "too large")
		return false
	}
	return true
}

// check returns the answer posted as the question's content, once its
// CSRF token is verified and it passes the question's rules. Otherwise it
// has answered, and reports false: refused, or the form again (422) with
// the reasons.
func (h *handler) check(w http.ResponseWriter, r *http.Request, pg *pageRequest) (map[string]any, bool) {
	if !urlmode.CheckCSRF(h.o.Keys, r.PostForm.Get(csrfField), pg.id, pg.principal) {
		h.refuse(r, w, http.StatusForbidden, "Form not verified",
			"This form could not be verified (its security token is missing or wrong), so it was not accepted. Nothing was stored. "+
				"Open the link from your assistant again.", "csrf")
		return nil, false
	}
	fresh, _ := pg.q.New().(runtime.Args)
	if fresh == nil {
		h.refuse(r, w, http.StatusServiceUnavailable, "Form unavailable", "This server cannot check this form. Nothing was stored.", "not a question")
		return nil, false
	}
	content := contentOf(fresh.RequestedSchema(), r.PostForm)
	if err := fresh.ApplyContent(content); err != nil {
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) {
			ve = &runtime.ValidationError{}
			ve.Add("", "invalid", err.Error())
		}
		h.log(r.Context(), "invalid", pg.id)
		h.form(w, http.StatusUnprocessableEntity, pg.id, pg.principal, pg.rec, pg.q, ve)
		return nil, false
	}
	return content, true
}

// complete stores content, sealed, as the page's answer (once: a page
// completed meanwhile, or gone, is refused) and thanks the user.
func (h *handler) complete(w http.ResponseWriter, r *http.Request, pg *pageRequest, content map[string]any) {
	b, err := json.Marshal(content)
	if err != nil {
		h.refuse(r, w, http.StatusBadRequest, "Form not readable", "The form sent could not be stored. Nothing was stored.", "encode")
		return
	}
	switch err := pg.store.CompletePage(r.Context(), pg.id, urlmode.SealAnswer(h.o.Keys, pg.id, b)); {
	case errors.Is(err, runtime.ErrPageCompleted):
		h.refuseWith(r, w, refusedCompleted)
		return
	case errors.Is(err, runtime.ErrNoPage):
		h.refuseWith(r, w, refusedExpired)
		return
	case err != nil:
		h.storeFailed(r.Context(), w, pg.id, err)
		return
	}
	h.log(r.Context(), "completed", pg.id)
	writePage(w, http.StatusOK, pageData{Title: h.p.Title, Heading: "Received",
		Text: "Thank you: your answer was received and is kept on the server. You can close this page and go back to your assistant."})
}

const notFound = "This link is not valid (anymore): it may be mistyped, or the request it belonged to " +
	"has ended or expired. Nothing was stored. If you still need to, ask your assistant to start the request again."

func (h *handler) now() time.Time {
	if h.o.Now != nil {
		return h.o.Now()
	}
	return time.Now()
}

// refuse writes the page of a refusal: status, a heading and what happened
// in words; reason goes to the log.
func (h *handler) refuse(r *http.Request, w http.ResponseWriter, status int, heading, text, reason string) {
	h.log(r.Context(), "refused: "+reason, pageID(r.URL.Path))
	writePage(w, status, pageData{Title: h.p.Title, Heading: heading, Text: text})
}

func (h *handler) storeFailed(ctx context.Context, w http.ResponseWriter, id string, err error) {
	if h.p.Logger != nil {
		h.p.Logger.ErrorContext(ctx, "mcpgen page", "outcome", "store failed", "page", short(id), "err", err)
	}
	writePage(w, http.StatusServiceUnavailable, pageData{Title: h.p.Title, Heading: "Try again",
		Text: "The server could not reach its storage. Nothing was stored. Try again in a moment."})
}

// form writes the question's form: its message, the fields mcpgen wrote,
// the CSRF token; with ve, the reasons an answer was refused (the user's
// values are not written back: a secret is never sent to the browser).
func (h *handler) form(w http.ResponseWriter, status int, id, principal string, rec *urlmode.Record, q *urlmode.Question, ve *runtime.ValidationError) {
	d := pageData{Title: h.p.Title, Heading: h.p.Title, Text: rec.Message,
		Form: template.HTML(q.Form), CSRF: urlmode.CSRFToken(h.o.Keys, id, principal), Action: id, Signed: principal}
	if ve != nil {
		for _, fe := range ve.Errors {
			d.Problems = append(d.Problems, fe.Error())
		}
	}
	writePage(w, status, d)
}

// contentOf converts a form post to a form's content (MCP 2026-07-28,
// client/elicitation: ElicitResult.content) by the types of schema's
// properties: a number or an integer as a JSON number (or the text as it
// came, which the generated ApplyContent refuses by its type), a boolean
// true when its checkbox was sent checked and false otherwise, an array as
// every value sent, a string as it came. An empty text is left out, so that
// it counts as not answered.
func contentOf(schema *jsonschema.Schema, form url.Values) map[string]any {
	content := map[string]any{}
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		name, prop := pair.Key, pair.Value
		vals := form[name]
		switch prop.Type {
		case "boolean":
			content[name] = len(vals) > 0 && (vals[0] == "true" || vals[0] == "on")
		case "array":
			if len(vals) > 0 {
				items := make([]any, len(vals))
				for i, v := range vals {
					items[i] = v
				}
				content[name] = items
			}
		case "integer", "number":
			if len(vals) == 0 || vals[0] == "" {
				continue
			}
			if _, err := strconv.ParseFloat(vals[0], 64); err == nil && json.Valid([]byte(vals[0])) {
				content[name] = json.Number(vals[0])
			} else {
				content[name] = vals[0]
			}
		default:
			if len(vals) > 0 && vals[0] != "" {
				content[name] = vals[0]
			}
		}
	}
	return content
}

// validUTF8 reports whether every name and value of form is UTF-8.
func validUTF8(form url.Values) bool {
	for name, vals := range form {
		if !utf8.ValidString(name) {
			return false
		}
		for _, v := range vals {
			if !utf8.ValidString(v) {
				return false
			}
		}
	}
	return true
}

// overLimit returns the first field of form over the limits the flow puts
// on a client's answers (runtime.Options.MaxStringBytes for each value,
// MaxSelectItems for the values of one field; 0 means their defaults, a
// negative value no limit), and what it sent; "" when none is.
func (h *handler) overLimit(form url.Values) (field, what string) {
	maxString, maxItems := h.o.MaxStringBytes, h.o.MaxSelectItems
	if maxString == 0 {
		maxString = runtime.DefaultMaxStringBytes
	}
	if maxItems == 0 {
		maxItems = runtime.DefaultMaxSelectItems
	}
	for name, vals := range form {
		if name == csrfField {
			continue // the page's own, bounded where it is checked
		}
		if maxItems > 0 && len(vals) > maxItems {
			return name, strconv.Itoa(len(vals)) + " values, more than the " + strconv.Itoa(maxItems) + " allowed"
		}
		for _, v := range vals {
			if maxString > 0 && len(v) > maxString {
				return name, "a value of " + strconv.Itoa(len(v)) + " bytes, more than the " + strconv.Itoa(maxString) + " allowed"
			}
		}
	}
	return "", ""
}
