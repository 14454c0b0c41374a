package callclient

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// clean returns s fit to show on a terminal: a control character other
// than newline and tab (C0 and DEL, C1 as in U+009B, the 8-bit CSI: an
// escape sequence, a carriage return that overwrites the line, a bell) and
// a Unicode bidirectional control (U+202A–U+202E, U+2066–U+2069, which
// reorder what is shown) is written as its Go escape (\x1b, \r, \u202e),
// as is a byte that is not UTF-8. Everything a server sends is shown
// through it — tool names and descriptions, messages, titles, results,
// error messages, the -wire log: a hostile server could otherwise clear the
// screen, set the window's title or overwrite "The server asks:" with what
// it is not asking.
func clean(s string) string {
	i := strings.IndexFunc(s, unsafeRune)
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[0]), 16))
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// unsafeRune reports whether r changes a terminal's state or the order of
// what it shows (see clean).
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
