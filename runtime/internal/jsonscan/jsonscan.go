// Package jsonscan reads JSON bytes in place, without decoding or
// allocating, for the common shape of MCP arguments: strings of printable
// ASCII without escapes, numbers (RFC 8259, section 6), literals, and
// nesting up to [MaxDepth]. Its readers report false for anything else,
// which the caller then hands to encoding/json.
package jsonscan

import "bytes"

// MaxDepth bounds the nesting the readers handle.
const MaxDepth = 32

// Scanner reads B from I.
type Scanner struct {
	B []byte
	I int
}

// Space moves past JSON white space (RFC 8259, section 2).
func (s *Scanner) Space() {
	for s.I < len(s.B) {
		switch s.B[s.I] {
		case ' ', '\t', '\n', '\r':
			s.I++
		default:
			return
		}
	}
}

// Skip moves past the value at s.I, reporting false for anything the
// readers do not read: a string that is not plain printable ASCII (see Str),
// or nesting deeper than MaxDepth (depth is the value's own).
func (s *Scanner) Skip(depth int) bool {
	s.Space()
	if s.I >= len(s.B) || depth > MaxDepth {
		return false
	}
	switch s.B[s.I] {
	case '{', '[':
		end := byte('}')
		if s.B[s.I] == '[' {
			end = ']'
		}
		s.I++
		s.Space()
		if s.I < len(s.B) && s.B[s.I] == end {
			s.I++
			return true
		}
		for {
			if end == '}' {
				s.Space()
				if s.I >= len(s.B) || s.B[s.I] != '"' {
					return false
				}
				if _, ok := s.Str(); !ok {
					return false
				}
				s.Space()
				if s.I >= len(s.B) || s.B[s.I] != ':' {
					return false
				}
				s.I++
			}
			if !s.Skip(depth + 1) {
				return false
			}
			s.Space()
			if s.I >= len(s.B) {
				return false
			}
			switch s.B[s.I] {
			case ',':
				s.I++
			case end:
				s.I++
				return true
			default:
				return false
			}
		}
	}
	_, ok := s.Scalar()
	return ok
}

// Scalar returns the string, number or literal at s.I as it stands in B
// (a string with its quotes), when Str or Number reads it.
func (s *Scanner) Scalar() ([]byte, bool) {
	switch c := s.B[s.I]; {
	case c == '"':
		return s.Str()
	case c == '-' || c >= '0' && c <= '9':
		return s.Number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(s.B[s.I:], []byte(lit)) {
			v := s.B[s.I : s.I+len(lit)]
			s.I += len(lit)
			return v, true
		}
	}
	return nil, false
}

// Str returns the string at s.I with its quotes when it is printable ASCII
// without '\\', '<', '>' or '&'.
func (s *Scanner) Str() ([]byte, bool) {
	start := s.I
	for s.I++; s.I < len(s.B); s.I++ {
		switch c := s.B[s.I]; {
		case c == '"':
			s.I++
			return s.B[start:s.I], true
		case c < 0x20 || c > 0x7e || c == '\\' || c == '<' || c == '>' || c == '&':
			return nil, false
		}
	}
	return nil, false
}

// Number returns the number at s.I when it follows JSON's grammar
// (RFC 8259, section 6).
func (s *Scanner) Number() ([]byte, bool) {
	start := s.I
	digits := func() int {
		n := 0
		for s.I < len(s.B) && s.B[s.I] >= '0' && s.B[s.I] <= '9' {
			s.I++
			n++
		}
		return n
	}
	if s.B[s.I] == '-' {
		s.I++
	}
	if s.I < len(s.B) && s.B[s.I] == '0' {
		s.I++
	} else if digits() == 0 {
		return nil, false
	}
	if s.I < len(s.B) && s.B[s.I] == '.' {
		s.I++
		if digits() == 0 {
			return nil, false
		}
	}
	if s.I < len(s.B) && (s.B[s.I] == 'e' || s.B[s.I] == 'E') {
		s.I++
		if s.I < len(s.B) && (s.B[s.I] == '+' || s.B[s.I] == '-') {
			s.I++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return s.B[start:s.I], true
}
