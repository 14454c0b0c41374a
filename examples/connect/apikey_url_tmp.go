package main

import "github.com/mcpgen/mcpgen/runtime/impl"

// TEMPORARY, hand-written: what mcpgen will generate for //mcpgen:question
// url on APIKey (the question registered as URL mode, with the page's form
// written from its elicit tags). Delete this file once mcpgen generates it:
// both registering the type panics at start-up.
func init() {
	impl.RegisterURLQuestion((*APIKey)(nil), "<div class=\"field\"><label for=\"f-api_key\">API key</label>"+
		"<input id=\"f-api_key\" name=\"api_key\" type=\"password\" required autocomplete=\"off\"></div>")
}
