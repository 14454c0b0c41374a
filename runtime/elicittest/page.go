package elicittest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/mcpgen/mcpgen/runtime/internal/urlmode"
	"github.com/mcpgen/mcpgen/runtime/page"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// DefaultPageURL is the runtime.Options.PageURL of a Tester that sets none:
// the pages of URL-mode questions are served in-process by
// [Step.CompletePage], never over the network.
const DefaultPageURL = "https://elicittest.invalid/page/"

// CompletePage does what the user does on the page of a URL-mode question
// (a struct with //mcpgen:question url; MCP 2026-07-28, client/elicitation,
// URL mode): it submits content (the form's values by JSON name: strings,
// numbers, booleans, string slices) on the page as the Tester's Principal,
// through package runtime/page's handler in-process, and then retries the
// call with action accept, as a client does once the user is back. It
// returns an error when the pending question is not a page of this Tester,
// or when the page refuses the answer (the error holds the page's status
// and text: a value that breaks the question's rules is 422).
func (s *Step) CompletePage(ctx context.Context, content map[string]any) (*Step, error) {
	if s.Question == nil {
		return nil, ErrDone
	}
	t := s.t
	id, ok := strings.CutPrefix(s.Question.URL, t.Options.PageURL)
	if !ok || id == "" {
		return nil, fmt.Errorf("elicittest: question %q is not a page of this Tester (URL %q)", s.Question.Key, s.Question.URL)
	}
	form := url.Values{"csrf_token": {urlmode.CSRFToken(t.Options.Keys, id, t.Principal)}}
	for name, v := range content {
		switch x := v.(type) {
		case []string:
			form[name] = x
		case []any:
			for _, item := range x {
				form.Add(name, fmt.Sprint(item))
			}
		case bool:
			if x {
				form.Set(name, "true")
			}
		case string:
			form.Set(name, x)
		default:
			form.Set(name, fmt.Sprint(x))
		}
	}
	h := page.Handler(&t.Options, page.Options{Identify: func(http.ResponseWriter, *http.Request) (string, bool) {
		return t.Principal, true
	}})
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, s.Question.URL, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		body, _ := io.ReadAll(rec.Result().Body)
		return nil, errors.New("elicittest: the page refused the answer: " + strconv.Itoa(rec.Code) + " " + pageText(string(body)))
	}
	return s.answer(ctx, &protocol.ElicitResult{Action: protocol.Accept})
}

// pageText returns what a page says to the user: the text of its heading,
// message and problems, without markup or style.
func pageText(body string) string {
	var parts []string
	z := html.NewTokenizer(strings.NewReader(body))
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
		case html.StartTagToken:
			if name, _ := z.TagName(); string(name) == "style" || string(name) == "title" {
				skip++
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); (string(name) == "style" || string(name) == "title") && skip > 0 {
				skip--
			}
		case html.TextToken:
			if skip == 0 {
				parts = append(parts, string(z.Text()))
			}
		}
	}
}
