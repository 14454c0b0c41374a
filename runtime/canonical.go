package runtime

import (
	"bytes"
	"slices"
)

// canonicalDepth bounds the nesting canonicalFast handles; deeper arguments
// take the general path.
const canonicalDepth = 32

// canonicalFast writes the canonical form of canonicalArgs for arguments in
// the common shape, reading the raw bytes once: a JSON object whose strings
// (keys and values) are printable ASCII without escapes, '<', '>' or '&'
// (so that encoding/json writes them back as they are), nested at most
// canonicalDepth deep, without two keys of one object that fold alike. Such
// a string and every number are their own canonical form. It reports false,
// having decided nothing, for anything else, which canonicalArgs hands to
// the general path (json.Decoder tokens): the two agree byte for byte
// (FuzzCanonicalArgs).
func canonicalFast(raw []byte) ([]byte, bool) {
	s := canonScanner{b: raw}
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return nil, false
	}
	out := make([]byte, 0, len(raw))
	out, ok := s.value(out, 0)
	if !ok {
		return nil, false
	}
	s.space()
	return out, s.i == len(s.b)
}

// canonScanner reads JSON for canonicalFast.
type canonScanner struct {
	b []byte
	i int
}

func (s *canonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value appends the canonical form of the value at s.i to out.
func (s *canonScanner) value(out []byte, depth int) ([]byte, bool) {
	s.space()
	if s.i >= len(s.b) || depth > canonicalDepth {
		return out, false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(out, depth)
	case c == '[':
		s.i++
		out = append(out, '[')
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ']' {
			s.i++
			return append(out, ']'), true
		}
		for {
			var ok bool
			if out, ok = s.value(out, depth+1); !ok {
				return out, false
			}
			s.space()
			if s.i >= len(s.b) {
				return out, false
			}
			switch s.b[s.i] {
			case ',':
				s.i++
				out = append(out, ',')
			case ']':
				s.i++
				return append(out, ']'), true
			default:
				return out, false
			}
		}
	default:
		v, ok := s.scalar()
		return append(out, v...), ok
	}
}

// skip moves past the value at s.i, reporting false for anything
// canonicalFast would not read (see value).
func (s *canonScanner) skip(depth int) bool {
	s.space()
	if s.i >= len(s.b) || depth > canonicalDepth {
		return false
	}
	switch s.b[s.i] {
	case '{', '[':
		end := byte('}')
		if s.b[s.i] == '[' {
			end = ']'
		}
		s.i++
		s.space()
		if s.i < len(s.b) && s.b[s.i] == end {
			s.i++
			return true
		}
		for {
			if end == '}' {
				s.space()
				if s.i >= len(s.b) || s.b[s.i] != '"' {
					return false
				}
				if _, ok := s.str(); !ok {
					return false
				}
				s.space()
				if s.i >= len(s.b) || s.b[s.i] != ':' {
					return false
				}
				s.i++
			}
			if !s.skip(depth + 1) {
				return false
			}
			s.space()
			if s.i >= len(s.b) {
				return false
			}
			switch s.b[s.i] {
			case ',':
				s.i++
			case end:
				s.i++
				return true
			default:
				return false
			}
		}
	}
	_, ok := s.scalar()
	return ok
}

// scalar returns the string, number or literal at s.i, which is its own
// canonical form.
func (s *canonScanner) scalar() ([]byte, bool) {
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
			v := s.b[s.i : s.i+len(lit)]
			s.i += len(lit)
			return v, true
		}
	}
	return nil, false
}

// object appends the canonical form of the object at s.i: its members
// sorted by key.
func (s *canonScanner) object(out []byte, depth int) ([]byte, bool) {
	type member struct{ key, val []byte }
	var members []member
	s.i++ // '{'
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return append(out, "{}"...), true
	}
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return out, false
		}
		key, ok := s.str()
		if !ok {
			return out, false
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return out, false
		}
		s.i++
		s.space()
		if s.i >= len(s.b) {
			return out, false
		}
		var val []byte
		if c := s.b[s.i]; c == '{' || c == '[' {
			val, ok = s.value(nil, depth+1)
		} else {
			val, ok = s.scalar()
		}
		if !ok {
			return out, false
		}
		for _, m := range members {
			// Printable ASCII folds only by case, as foldKey would.
			if bytes.EqualFold(m.key, key) {
				return out, false
			}
		}
		members = append(members, member{key, val})
		s.space()
		if s.i >= len(s.b) {
			return out, false
		}
		if s.b[s.i] == ',' {
			s.i++
			continue
		}
		if s.b[s.i] != '}' {
			return out, false
		}
		s.i++
		break
	}
	// Sorted by the keys without their quotes, as strings.Compare sorts the
	// decoded keys.
	slices.SortFunc(members, func(a, b member) int { return bytes.Compare(a.key[1:len(a.key)-1], b.key[1:len(b.key)-1]) })
	out = append(out, '{')
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, m.key...)
		out = append(out, ':')
		out = append(out, m.val...)
	}
	return append(out, '}'), true
}

// str returns the string at s.i with its quotes when it is printable ASCII
// without '\\', '<', '>' or '&'.
func (s *canonScanner) str() ([]byte, bool) {
	start := s.i
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start:s.i], true
		case c < 0x20 || c > 0x7e || c == '\\' || c == '<' || c == '>' || c == '&':
			return nil, false
		}
	}
	return nil, false
}

// number returns the number at s.i when it follows JSON's grammar
// (RFC 8259, section 6).
func (s *canonScanner) number() ([]byte, bool) {
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return nil, false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return s.b[start:s.i], true
}
