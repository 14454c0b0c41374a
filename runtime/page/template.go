package page

import (
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"net/http"
)

// pageData is what one page shows.
type pageData struct {
	Title    string        // the <title> and, with no Heading, the heading
	Heading  string        // the page's heading
	Text     string        // what the page says, above any form
	Body     template.HTML // Render's body: the caller's HTML
	Form     template.HTML // the question's fields, as mcpgen wrote them
	CSRF     string        // the form's CSRF token
	Action   string        // where the form posts: the page's own id, relative
	Signed   string        // the user the form is shown to
	Problems []string      // why the last answer was refused
	Nonce    string        // the CSP nonce of the page's style
}

// securityHeaders are sent with every page: nothing may be loaded but the
// page's own style (by nonce), the form posts only to this server, the page
// may not be framed (clickjacking), no referrer leaves it (its URL holds the
// page id), nothing is cached, content types are not sniffed.
func securityHeaders(w http.ResponseWriter, nonce string) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'nonce-"+nonce+"'; form-action 'self'; "+
		"frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", "text/html; charset=utf-8")
}

func writePage(w http.ResponseWriter, status int, d pageData) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	d.Nonce = base64.RawStdEncoding.EncodeToString(b[:])
	if d.Heading == "" {
		d.Heading = d.Title
	}
	securityHeaders(w, d.Nonce)
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, d)
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style nonce="{{.Nonce}}">
body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f;line-height:1.45}
h1{font-size:1.4rem}
.field{margin:1rem 0}
label{display:block;font-weight:600;margin-bottom:.25rem}
fieldset.field{border:0;padding:0}
legend{font-weight:600;margin-bottom:.25rem;padding:0}
label.option{font-weight:400;margin:.15rem 0}
.desc{margin:.1rem 0 .35rem;color:#555;font-size:.9rem}
input[type=text],input[type=password],input[type=email],input[type=url],input[type=number],input[type=date],select{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{padding:.55rem 1.2rem;font-size:1rem;margin-top:.5rem}
.problems{background:#fdecea;border:1px solid #f5c2c0;padding:.5rem 1rem;border-radius:4px}
.signed{color:#555;font-size:.85rem}
</style>
</head>
<body>
<h1>{{.Heading}}</h1>
{{if .Text}}<p id="message">{{.Text}}</p>{{end}}
{{if .Problems}}<div class="problems" role="alert"><p>Please check:</p><ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{if .Form}}<form method="post" action="{{.Action}}" autocomplete="off">
<input type="hidden" name="csrf_token" value="{{.CSRF}}">
{{.Form}}
<button type="submit">Submit</button>
</form>
<p class="signed">Signed in as {{.Signed}}. What you enter here goes to the server only, not to your assistant.</p>{{end}}
{{.Body}}
</body>
</html>
`))
