package impl

import "unicode/utf8"

// This file holds what lets a generated ApplyContent allocate only for what
// is answered and check each value once: multi selects share one backing
// array, and string lengths are counted only when the byte length cannot
// settle the rule.

// AppendStrings appends the items of v, the answer of a multi select (MCP
// 2026-07-28, client/elicitation: array of strings), to *buf and returns
// them as a slice of their own whose capacity ends at its length, so that
// appending to one field's slice never writes over another's. It accepts
// []any whose items are all strings, and []string; for anything else, or any
// item that is not a string, it returns (nil, false) and leaves *buf as it
// was. The result never aliases v.
//
// The multi selects of one struct share *buf, each appending in field
// order: when *buf lacks room for v, it is grown to hold v and every answer
// in content under keys (the JSON names of the struct's later multi selects
// of this element type), so that one allocation serves them all.
func AppendStrings[T ~string](buf *[]T, v any, content map[string]any, keys ...string) ([]T, bool) {
	b := *buf
	start := len(b)
	switch a := v.(type) {
	case []string:
		b = grow(b, len(a), content, keys)
		for _, s := range a {
			b = append(b, T(s))
		}
	case []any:
		b = grow(b, len(a), content, keys)
		for _, item := range a {
			s, ok := item.(string)
			if !ok {
				return nil, false
			}
			b = append(b, T(s))
		}
	default:
		return nil, false
	}
	*buf = b
	return b[start:len(b):len(b)], true
}

// grow returns b with room for n more items, and when it must grow it, room
// as well for the arrays in content under keys.
func grow[T ~string](b []T, n int, content map[string]any, keys []string) []T {
	if cap(b)-len(b) >= n {
		return b
	}
	room := n
	for _, k := range keys {
		switch a := content[k].(type) {
		case []any:
			room += len(a)
		case []string:
			room += len(a)
		}
	}
	nb := make([]T, len(b), len(b)+room)
	copy(nb, b)
	return nb
}

// MoreRunesThan reports whether s holds more than n code points, as JSON
// Schema counts a string's length (2020-12 Validation §6.3.1; a byte that is
// not valid UTF-8 counts as one, as utf8.RuneCountInString counts it). A
// string of at most n bytes holds at most n code points, so the common case
// counts nothing.
func MoreRunesThan(s string, n int) bool {
	return len(s) > n && utf8.RuneCountInString(s) > n
}

// FewerRunesThan reports whether s holds fewer than n code points, counted
// as [MoreRunesThan] counts them. A code point takes at most 4 bytes in
// UTF-8, so a string of 4n bytes or more holds at least n code points and
// the common case counts nothing. The test is len(s)/4 < n rather than
// len(s) < 4*n, which overflows a 32-bit int from n = 2^29 (a minLength that
// annotate allows) and would then skip the count.
func FewerRunesThan(s string, n int) bool {
	return len(s)/4 < n && utf8.RuneCountInString(s) < n
}
