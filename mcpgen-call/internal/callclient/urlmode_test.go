package callclient

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/net/html"
)

// envBrowser, set to "user:password:api-key", makes the test binary the
// -open-cmd of a URL-mode test: a browser that opens the page it is given
// (its last argument), signs in on examples/connect's development sign-in
// form, types the API key into the page and posts it.
const envBrowser = "MCPGEN_CALL_TEST_BROWSER"

func openPage(who, link string) int {
	parts := strings.SplitN(who, ":", 3)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	fill := map[string]string{"username": parts[0], "password": parts[1], "api_key": parts[2]}
	resp, err := client.Get(link)
	for step := 0; err == nil && step < 2; step++ { // the sign-in form, then the page's
		var action *url.URL
		var values url.Values
		action, values, err = firstForm(resp)
		if err != nil {
			break
		}
		for name := range values {
			if v, ok := fill[name]; ok {
				values.Set(name, v)
			}
		}
		resp, err = client.PostForm(action.String(), values)
	}
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("the page answered %s", resp.Status)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "test browser:", err)
		return 1
	}
	fmt.Fprintln(os.Stderr, "test browser: posted the page")
	return 0
}

// firstForm reads the first form of a page: its action and its inputs.
func firstForm(resp *http.Response) (*url.URL, url.Values, error) {
	defer resp.Body.Close()
	doc, err := html.Parse(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	var action *url.URL
	values := url.Values{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "form" && action == nil {
			action, err = resp.Request.URL.Parse(attr(n, "action"))
		}
		if n.Type == html.ElementNode && n.Data == "input" && action != nil && attr(n, "name") != "" {
			values.Set(attr(n, "name"), attr(n, "value"))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if err == nil && action == nil {
		err = fmt.Errorf("%s has no form", resp.Request.URL)
	}
	return action, values, err
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// URL mode without a terminal: the message, the page's host and its full
// URL on their own lines; -open-cmd completes the page; accepted, the
// import runs. In 2025-11-25 the server's notifications/elicitation/complete
// is shown too.
func TestURLModeOpenCmd(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			connect := startConnect(t) // a new one each time: it keeps alice's key once given
			host := strings.TrimSuffix(strings.TrimPrefix(connect, "http://"), "/mcp")
			t.Setenv(envBrowser, "alice:alice-password:ck-alice-123")
			code, out, errs := call(t, "-protocol", era, "-H", "Authorization: Bearer alice-token", "-open-cmd", exe, connect, "import_contacts", "{}")
			assert.Equal(t, 0, code, errs)
			assert.Contains(t, out, "contact")
			assert.Regexp(t, `(?m)^Open this page in your browser \(host: `+host+`\):\nhttp://`+host+`/connect/\S+\n`, errs)
			assert.Contains(t, errs, "test browser: posted the page")
			if era == Protocol2025 {
				assert.Contains(t, errs, "The server reports the page is complete (elicitation ")
			}
		})
	}
}

// URL mode declined from the answers, both eras; with no terminal and
// nothing scripted, a clear error.
func TestURLModeDecline(t *testing.T) {
	connect := startConnect(t)
	for _, era := range eras {
		code, out, errs := call(t, "-protocol", era, "-H", "Authorization: Bearer bob-token", "-decline", connect, "import_contacts", "{}")
		assert.Equal(t, 0, code, errs)
		assert.Contains(t, errs, "Open this page in your browser")
		assert.Equal(t, "No API key given: nothing imported.\n", out, era)
	}
	code, _, errs := call(t, "-H", "Authorization: Bearer bob-token", connect, "import_contacts", "{}")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "mcpgen-call: the server asks you to open a page and stdin is not a terminal")
}

// startConnect starts examples/connect for one test.
func startConnect(t *testing.T) string {
	t.Helper()
	url, stop, err := serve(connectBin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}
