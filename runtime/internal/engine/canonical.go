package engine

import (
	"bytes"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonscan"
)

// canonicalFast writes the canonical form of canonicalArgs for arguments in
// the common shape, reading the raw bytes once: a JSON object whose strings
// (keys and values) are printable ASCII without escapes, '<', '>' or '&'
// (so that encoding/json writes them back as they are), nested at most
// jsonscan.MaxDepth deep, without two keys of one object that fold alike. Such
// a string and every number are their own canonical form. It reports false,
// having decided nothing, for anything else, which canonicalArgs hands to
// the general path (json.Decoder tokens): the two agree byte for byte
// (FuzzCanonicalArgs).
func canonicalFast(raw []byte) ([]byte, bool) {
	s := canonScanner{jsonscan.Scanner{B: raw}}
	s.Space()
	if s.I >= len(s.B) || s.B[s.I] != '{' {
		return nil, false
	}
	out := make([]byte, 0, len(raw))
	out, ok := s.value(out, 0)
	if !ok {
		return nil, false
	}
	s.Space()
	return out, s.I == len(s.B)
}

// canonScanner reads JSON for canonicalFast.
type canonScanner struct{ jsonscan.Scanner }

// value appends the canonical form of the value at s.I to out.
func (s *canonScanner) value(out []byte, depth int) ([]byte, bool) {
	s.Space()
	if s.I >= len(s.B) || depth > jsonscan.MaxDepth {
		return out, false
	}
	switch c := s.B[s.I]; {
	case c == '{':
		return s.object(out, depth)
	case c == '[':
		s.I++
		out = append(out, '[')
		s.Space()
		if s.I < len(s.B) && s.B[s.I] == ']' {
			s.I++
			return append(out, ']'), true
		}
		for {
			var ok bool
			if out, ok = s.value(out, depth+1); !ok {
				return out, false
			}
			s.Space()
			if s.I >= len(s.B) {
				return out, false
			}
			switch s.B[s.I] {
			case ',':
				s.I++
				out = append(out, ',')
			case ']':
				s.I++
				return append(out, ']'), true
			default:
				return out, false
			}
		}
	default:
		v, ok := s.Scalar()
		return append(out, v...), ok
	}
}

// object appends the canonical form of the object at s.I: its members
// sorted by key.
func (s *canonScanner) object(out []byte, depth int) ([]byte, bool) {
	type member struct{ key, val []byte }
	var members []member
	s.I++ // '{'
	s.Space()
	if s.I < len(s.B) && s.B[s.I] == '}' {
		s.I++
		return append(out, "{}"...), true
	}
	for {
		s.Space()
		if s.I >= len(s.B) || s.B[s.I] != '"' {
			return out, false
		}
		key, ok := s.Str()
		if !ok {
			return out, false
		}
		s.Space()
		if s.I >= len(s.B) || s.B[s.I] != ':' {
			return out, false
		}
		s.I++
		s.Space()
		if s.I >= len(s.B) {
			return out, false
		}
		var val []byte
		if c := s.B[s.I]; c == '{' || c == '[' {
			val, ok = s.value(nil, depth+1)
		} else {
			val, ok = s.Scalar()
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
		s.Space()
		if s.I >= len(s.B) {
			return out, false
		}
		if s.B[s.I] == ',' {
			s.I++
			continue
		}
		if s.B[s.I] != '}' {
			return out, false
		}
		s.I++
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
