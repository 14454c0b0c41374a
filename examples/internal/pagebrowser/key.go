// Package pagebrowser holds the browser tests of runtime/page: a URL-mode
// question's page opened, signed in to, filled and sent by a real headless
// Chromium (examples/internal/browsertest), each page kept as a screenshot.
// The same flows without a browser are runtime/page's own tests. They live
// in the examples module so that chromedp is not a requirement of the main
// module.
package pagebrowser

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type Key

// Key is the question the tests ask on the server's page (URL mode): the
// key of a contacts service, a secret, and an optional label. The clients a
// URL-mode question breaks are not this test's concern (examples/connect
// shows them), so no client is judged.
//
//mcpgen:clients off
//mcpgen:question url
//mcpgen:message Enter the key of your contacts service.
type Key struct {
	Key   string `json:"key,omitempty" elicit:"secret,minLength=6,maxLength=64,title=Key"`
	Label string `json:"label,omitempty" elicit:"optional,title=Label"`
}
