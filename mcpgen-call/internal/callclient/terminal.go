package callclient

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// clean returns s fit to show on a terminal: a control character other
// than newline and tab (C0 and DEL, C1 as in U+009B, the 8-bit CSI: an
// escape sequence, a carriage return that overwrites the line, a bell) and
// a Unicode bidirectional control (U+202A–U+202E, U+2066–U+2069 and the
// marks U+200E, U+200F, U+061C, which reorder what is shown) is written as its Go escape (\x1b, \r, \u202e),
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
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	}
	return false
}

// cleanWriter writes what it is given to w through clean: the stderr of a
// stdio server, which the caller sees. A character split across two writes
// is held until it is whole.
type cleanWriter struct {
	w    io.Writer
	rest []byte // the start of a character the last write ended in
}

func (c *cleanWriter) Write(p []byte) (int, error) {
	b := append(c.rest, p...)
	cut := len(b)
	// Hold back an incomplete UTF-8 sequence at the end (at most 3 bytes).
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	c.rest = append([]byte(nil), b[cut:]...)
	if _, err := io.WriteString(c.w, clean(string(b[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}
