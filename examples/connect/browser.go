package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"

	"golang.org/x/net/html"

	rdevauth "github.com/mcpgen/mcpgen/runtime/devauth"
)

// browser is what the demo and the tests open a page with, in place of a
// user's web browser: an HTTP client with a cookie jar (the development
// session cookie), following redirects, that signs in on the development
// sign-in page when it lands there and reads and posts HTML forms.
type browser struct {
	user, password string
	client         *http.Client
}

// newBrowser returns a browser that signs in as user with password.
func newBrowser(user, password string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{user: user, password: password, client: &http.Client{Jar: jar}}
}

// visit is one page as the browser got it: the final URL (after
// redirects), the status, the body, its first heading and its first form.
type visit struct {
	URL     *url.URL
	Status  int
	Body    string
	Heading string
	Form    *htmlForm
}

// htmlForm is an HTML form: where it posts and its inputs' names and
// values (hidden fields included).
type htmlForm struct {
	Action *url.URL
	Values url.Values
}

// Open opens link (GET); when that lands on the sign-in form, it signs in,
// which returns to the link.
func (b *browser) Open(link string) (*visit, error) {
	v, err := b.do(http.MethodGet, link, nil)
	if err != nil {
		return nil, err
	}
	if v.URL.Path == rdevauth.SignInPath && v.Form != nil {
		v.Form.Values.Set("username", b.user)
		v.Form.Values.Set("password", b.password)
		return b.Submit(v.Form)
	}
	return v, nil
}

// Submit posts f with its values.
func (b *browser) Submit(f *htmlForm) (*visit, error) {
	return b.do(http.MethodPost, f.Action.String(), f.Values)
}

func (b *browser) do(method, link string, form url.Values) (*visit, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, link, body)
	if err != nil {
		return nil, err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	v := &visit{URL: resp.Request.URL, Status: resp.StatusCode, Body: string(raw)}
	v.Heading, v.Form, err = parsePage(v.URL, v.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, v.URL, err)
	}
	return v, nil
}

// parsePage returns the text of page's first h1 and its first form (nil
// when it has none), the form's action resolved against base.
func parsePage(base *url.URL, page string) (heading string, form *htmlForm, err error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return "", nil, err
	}
	seenH1 := false
	var walk func(n *html.Node, in bool) error
	walk = func(n *html.Node, in bool) error {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "h1" && !seenH1:
				seenH1 = true
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						heading += c.Data
					}
				}
			case n.Data == "form" && form == nil:
				action, err := base.Parse(attr(n, "action"))
				if err != nil {
					return err
				}
				form, in = &htmlForm{Action: action, Values: url.Values{}}, true
			case n.Data == "input" && in && attr(n, "name") != "":
				form.Values.Set(attr(n, "name"), attr(n, "value"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := walk(c, in); err != nil {
				return err
			}
		}
		return nil
	}
	err = walk(doc, false)
	return heading, form, err
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}
