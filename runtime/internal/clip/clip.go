// Package clip shortens text a client sent before an error message quotes
// it, so that a hostile request (a million-digit number, a key of a
// megabyte) cannot make its error response as large as itself.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// Max is how many bytes of a client's text an error message quotes.
const Max = 64

// Text returns s when it is at most [Max] bytes long; otherwise its first
// bytes up to Max (cut at a rune boundary), "…", and its length in bytes:
// "12345…(1000001 bytes)".
func Text(s string) string {
	if len(s) <= Max {
		return s
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}
