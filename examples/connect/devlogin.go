package main

import (
	"crypto/subtle"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/page"
)

// The development sign-in of the page (never use it outside development):
// fixed passwords, a session cookie sealed with the server's key ring. A
// real server identifies the browser's user with its own sign-in (OAuth,
// its session cookie, a proxy it trusts), as the same principal its bearer
// tokens name.

// devPasswords are the development users' passwords on the sign-in page,
// for the users of the development bearer tokens (examples/internal/devauth).
var devPasswords = map[string]string{
	"alice": "alice-password",
	"bob":   "bob-password",
}

const (
	// devLoginPath is where the development sign-in page is served.
	devLoginPath = "/login"
	// devCookie is the development session cookie's name.
	devCookie = "connect_dev_session"
	// devSessionTTL is how long a development session lasts.
	devSessionTTL = 12 * time.Hour
	// devSessionPrefix starts a session cookie's sealed plaintext, so that
	// nothing else sealed with the key ring (a requestState, a page's CSRF
	// token) opens as a session.
	devSessionPrefix = "mcpgen-connect-dev-session\x00"
)

// devLogin is the development identity of the page: its Identify hook reads
// the session cookie its sign-in page sets.
type devLogin struct {
	keys *runtime.KeyRing
	// pagePrefix is the path of the page handler (ends with "/"): the only
	// place the sign-in page sends a user back to.
	pagePrefix string
	// secure marks the cookie Secure: the page URL is https (also behind
	// a proxy that ends TLS, where the request itself is plain HTTP).
	secure bool
	now    func() time.Time
}

func newDevLogin(keys *runtime.KeyRing, pagePrefix string, secure bool) *devLogin {
	return &devLogin{keys: keys, pagePrefix: pagePrefix, secure: secure, now: time.Now}
}

// Identify is the page's page.Identify hook: the user of a valid session
// cookie, or, without one, a redirect (303) to the sign-in page that comes
// back to the page's path, and ok false.
func (d *devLogin) Identify(w http.ResponseWriter, r *http.Request) (string, bool) {
	if user := d.user(r); user != "" {
		return user, true
	}
	http.Redirect(w, r, devLoginPath+"?next="+url.QueryEscape(r.URL.Path), http.StatusSeeOther)
	return "", false
}

// user returns the user of r's session cookie, or "" when it has none that
// opens and has not expired.
func (d *devLogin) user(r *http.Request) string {
	c, err := r.Cookie(devCookie)
	if err != nil {
		return ""
	}
	pt, err := d.keys.Open(c.Value, 1024)
	if err != nil || !strings.HasPrefix(string(pt), devSessionPrefix) {
		return ""
	}
	user, exp, ok := strings.Cut(string(pt[len(devSessionPrefix):]), "\x00")
	until, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || d.now().Unix() >= until {
		return ""
	}
	if _, known := devPasswords[user]; !known {
		return ""
	}
	return user
}

// ServeHTTP serves the sign-in page: GET shows the form, POST checks the
// development password, sets the session cookie and redirects to next.
func (d *devLogin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		d.form(w, http.StatusOK, d.localNext(r.URL.Query().Get("next")), "")
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
		if err := r.ParseForm(); err != nil {
			d.form(w, http.StatusBadRequest, "", "The form could not be read.")
			return
		}
		next := d.localNext(r.PostForm.Get("next"))
		user, password := r.PostForm.Get("username"), r.PostForm.Get("password")
		want, known := devPasswords[user]
		if !known || subtle.ConstantTimeCompare([]byte(password), []byte(want)) != 1 {
			d.form(w, http.StatusUnauthorized, next, "Unknown user or wrong password.")
			return
		}
		http.SetCookie(w, &http.Cookie{
			Name:     devCookie,
			Value:    d.keys.Seal([]byte(devSessionPrefix + user + "\x00" + strconv.FormatInt(d.now().Add(devSessionTTL).Unix(), 10))),
			Path:     "/",
			MaxAge:   int(devSessionTTL / time.Second),
			HttpOnly: true,
			Secure:   d.secure || r.TLS != nil,
			SameSite: http.SameSiteLaxMode,
		})
		if next == "" {
			page.Render(w, http.StatusOK, "Contacts import", template.HTML("<p>Signed in as "+template.HTMLEscapeString(user)+
				". Open the link from your assistant again.</p>"))
			return
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		page.Render(w, http.StatusMethodNotAllowed, "Contacts import", "<p>Method not allowed.</p>")
	}
}

// localNext returns next when it is a plain path under the page prefix (no
// scheme, host, query, "..", or backslash: never a redirect off the
// server), and "" otherwise.
func (d *devLogin) localNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		!strings.HasPrefix(next, d.pagePrefix) || strings.HasPrefix(next, "//") ||
		strings.ContainsAny(next, "\\") || strings.Contains(next, "..") {
		return ""
	}
	return next
}

// loginForm is the development sign-in form; Next is the page to return to.
var loginForm = template.Must(template.New("login").Parse(`<p>Development sign-in: alice / alice-password, bob / bob-password.</p>
<form method="post" action="{{.Action}}" autocomplete="off">
{{if .Next}}<input type="hidden" name="next" value="{{.Next}}">{{end}}
<div class="field"><label for="f-username">User name</label><input id="f-username" name="username" type="text" required></div>
<div class="field"><label for="f-password">Password</label><input id="f-password" name="password" type="password" required></div>
<button type="submit">Sign in</button>
</form>`))

func (d *devLogin) form(w http.ResponseWriter, status int, next, problem string) {
	var b strings.Builder
	if problem != "" {
		b.WriteString(`<div class="problems" role="alert"><p>` + template.HTMLEscapeString(problem) + `</p></div>`)
	}
	_ = loginForm.Execute(&b, struct{ Action, Next string }{devLoginPath, next})
	page.Render(w, status, "Sign in (development)", template.HTML(b.String()))
}
