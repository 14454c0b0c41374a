package devauth

import (
	"crypto/subtle"
	"fmt"
	"html/template"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/page"
)

// SignInPath is where a [SignIn] is mounted: its Identify hook sends a
// browser without a session there, and its form posts there.
const SignInPath = "/login"

// SessionTTL is how long a development sign-in lasts.
const SessionTTL = 12 * time.Hour

const (
	// sessionCookie is the development session cookie's name.
	sessionCookie = "mcpgen_dev_session"
	// sessionPrefix starts a session cookie's sealed plaintext, so that
	// nothing else sealed with the key ring (a requestState, a page's CSRF
	// token) opens as a session.
	sessionPrefix = "mcpgen-dev-session\x00"
	// maxSignInBytes bounds the body of a sign-in post.
	maxSignInBytes = 8 << 10
)

// DefaultPasswords returns the development passwords of the sign-in page
// for the users of [DefaultTokens]: alice / alice-password, bob /
// bob-password. Public: never use them outside development.
func DefaultPasswords() map[string]string {
	return map[string]string{"alice": "alice-password", "bob": "bob-password"}
}

// SignIn is a DEVELOPMENT-ONLY sign-in for the pages of URL-mode questions
// (package runtime/page): a form at [SignInPath] that takes fixed, public
// passwords and sets a session cookie sealed with the server's key ring;
// its [SignIn.Identify] is the page's page.Identify hook. The user it signs
// in is the principal the development bearer tokens name, so the user who
// opens a page is the one whose call asked for it.
//
// Like [Verifier], it answers HTTP 403 to a request that arrived on a
// non-loopback address unless AnyAddr is set or MCPGEN_DEV_AUTH_ANY_ADDR=1.
// Before serving anyone else, replace it with the server's own sign-in
// (OAuth, its session cookie, a proxy it trusts) naming the same
// principals as its bearer tokens.
type SignIn struct {
	// Passwords maps each user to its password ([NewSignIn]:
	// [DefaultPasswords]).
	Passwords map[string]string
	// AnyAddr serves on non-loopback addresses too (see [Verifier.CheckAddr]).
	AnyAddr bool

	keys *runtime.KeyRing
	// pagePath is the path of the page handler (ends with "/"): the only
	// place the sign-in sends a user back to.
	pagePath string
	// secure marks the cookie Secure: the page URL is https (also behind
	// a proxy that ends TLS, where the request itself is plain HTTP).
	secure bool
	// form is the sign-in page behind cross-origin protection.
	form http.Handler
	now  func() time.Time
}

// NewSignIn returns the development sign-in for the pages at pageURL
// (runtime.Options.PageURL: an absolute http or https URL whose path ends
// with "/", or that path alone), sealing its cookies with keys. The sign-in
// returns a user only to a page under that path. It accepts form posts from
// its own origin and, for an absolute pageURL, from pageURL's (as
// page.Options.TrustedOrigins does for the page, behind a proxy that does
// not pass the public Host on); an https pageURL makes its cookie Secure. A
// pageURL of another shape is an error naming it.
func NewSignIn(keys *runtime.KeyRing, pageURL string) (*SignIn, error) {
	u, err := url.Parse(pageURL)
	pathOnly := err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(u.Path, "//")
	if err != nil || (!pathOnly && ((u.Scheme != "http" && u.Scheme != "https") || u.Host == "")) || !strings.HasSuffix(u.Path, "/") ||
		u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("devauth: page URL %q: want an absolute http or https URL whose path ends with /, or that path alone, without query or fragment", pageURL)
	}
	if keys == nil {
		return nil, fmt.Errorf("devauth: NewSignIn needs the server's key ring")
	}
	s := &SignIn{Passwords: DefaultPasswords(), keys: keys, pagePath: u.Path, secure: u.Scheme == "https", now: time.Now}
	cop := http.NewCrossOriginProtection()
	if !pathOnly {
		if err := cop.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			return nil, fmt.Errorf("devauth: page URL %q: %w", pageURL, err)
		}
	}
	s.form = cop.Handler(http.HandlerFunc(s.serveForm))
	return s, nil
}

// allowed answers 403 and reports false when r arrived on a non-loopback
// address the sign-in may not serve on.
func (s *SignIn) allowed(w http.ResponseWriter, r *http.Request) bool {
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		v := Verifier{AnyAddr: s.AnyAddr}
		if err := v.CheckAddr(local.String()); err != nil {
			http.Error(w, strings.Replace(err.Error(), "bearer tokens", "sign-in", 1), http.StatusForbidden)
			return false
		}
	}
	return true
}

// Identify is a page.Identify hook: the user of a valid session cookie, or,
// without one, a redirect (303) to [SignInPath] that comes back to the
// page, and ok false; 403 on a non-loopback address.
func (s *SignIn) Identify(w http.ResponseWriter, r *http.Request) (string, bool) {
	if !s.allowed(w, r) {
		return "", false
	}
	if user := s.user(r); user != "" {
		return user, true
	}
	http.Redirect(w, r, SignInPath+"?next="+url.QueryEscape(r.URL.Path), http.StatusSeeOther)
	return "", false
}

// user returns the user of r's session cookie, or "" when it has none that
// opens, has not expired and names a user of Passwords.
func (s *SignIn) user(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	pt, err := s.keys.Open(c.Value, 1024)
	if err != nil || !strings.HasPrefix(string(pt), sessionPrefix) {
		return ""
	}
	user, exp, ok := strings.Cut(string(pt[len(sessionPrefix):]), "\x00")
	until, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || s.now().Unix() >= until {
		return ""
	}
	if _, known := s.Passwords[user]; !known {
		return ""
	}
	return user
}

// ServeHTTP serves the sign-in page, to mount at [SignInPath]: GET shows the
// form, POST checks the password, sets the session cookie (HttpOnly,
// SameSite=Lax, Secure for an https page URL, [SessionTTL]) and redirects
// to the page it came from. A cross-origin post is refused (403), and so is
// a request on a non-loopback address.
func (s *SignIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.allowed(w, r) {
		s.form.ServeHTTP(w, r)
	}
}

func (s *SignIn) serveForm(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.render(w, http.StatusOK, s.localNext(r.URL.Query().Get("next")), "")
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, maxSignInBytes)
		if err := r.ParseForm(); err != nil {
			s.render(w, http.StatusBadRequest, "", "The form could not be read.")
			return
		}
		next := s.localNext(r.PostForm.Get("next"))
		user, password := r.PostForm.Get("username"), r.PostForm.Get("password")
		want, known := s.Passwords[user]
		if !known || subtle.ConstantTimeCompare([]byte(password), []byte(want)) != 1 {
			s.render(w, http.StatusUnauthorized, next, "Unknown user or wrong password.")
			return
		}
		http.SetCookie(w, &http.Cookie{
			Name:     sessionCookie,
			Value:    s.keys.Seal([]byte(sessionPrefix + user + "\x00" + strconv.FormatInt(s.now().Add(SessionTTL).Unix(), 10))),
			Path:     "/",
			MaxAge:   int(SessionTTL / time.Second),
			HttpOnly: true,
			Secure:   s.secure || r.TLS != nil,
			SameSite: http.SameSiteLaxMode,
		})
		if next == "" {
			page.Render(w, http.StatusOK, "Signed in (development)", template.HTML("<p>Signed in as "+template.HTMLEscapeString(user)+
				". Open the link from your assistant again.</p>"))
			return
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		page.Render(w, http.StatusMethodNotAllowed, "Sign in (development)", "<p>Method not allowed.</p>")
	}
}

// localNext returns next when it is a plain path under the page path (no
// scheme, host, query, "..", or backslash: never a redirect off the
// server), and "" otherwise.
func (s *SignIn) localNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		!strings.HasPrefix(next, s.pagePath) || strings.HasPrefix(next, "//") ||
		strings.ContainsAny(next, "\\") || strings.Contains(next, "..") {
		return ""
	}
	return next
}

// signInForm is the development sign-in form; Next is the page to return to.
var signInForm = template.Must(template.New("signin").Parse(`<p>Development sign-in: never use it outside development.{{if .Defaults}} alice / alice-password, bob / bob-password.{{end}}</p>
<form method="post" action="{{.Action}}" autocomplete="off">
{{if .Next}}<input type="hidden" name="next" value="{{.Next}}">{{end}}
<div class="field"><label for="f-username">User name</label><input id="f-username" name="username" type="text" required></div>
<div class="field"><label for="f-password">Password</label><input id="f-password" name="password" type="password" required></div>
<button type="submit">Sign in</button>
</form>`))

func (s *SignIn) render(w http.ResponseWriter, status int, next, problem string) {
	var b strings.Builder
	if problem != "" {
		b.WriteString(`<div class="problems" role="alert"><p>` + template.HTMLEscapeString(problem) + `</p></div>`)
	}
	_ = signInForm.Execute(&b, struct {
		Action, Next string
		Defaults     bool
	}{SignInPath, next, maps.Equal(s.Passwords, DefaultPasswords())})
	page.Render(w, status, "Sign in (development)", template.HTML(b.String()))
}
