package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tagSource maps byte offsets of a field's struct tag, and of its elicit
// value inside it, back to exact positions in the source, through both
// levels of quoting: the Go string literal (raw `…` or interpreted "…", whose
// escapes make one source byte differ from one tag byte) and the tag
// value's own "…" (reflect.StructTag unquotes it with strconv.Unquote).
// Diagnostics use it for their positions; suggested fixes use it to place
// their edits, and give no fix when an edit cannot be placed exactly.
type tagSource struct {
	fset   *token.FileSet
	lit    token.Pos // the tag's string literal
	tag    quoteMap  // tag byte → offset in the literal
	elicit quoteMap  // elicit value byte → offset in the tag; nil off when the tag has no well-formed elicit key
}

// quoteMap maps each byte of an unquoted string to the offset, in the quoted
// text, of the source it came from.
type quoteMap struct {
	off []int  // off[i] for byte i; off[len] is the closing quote
	esc []bool // byte i came from an escape sequence (no exact edit)
}

// unquoteMap unquotes a Go string literal (raw or interpreted) as
// strconv.Unquote does, keeping where each byte came from.
func unquoteMap(q string) (string, quoteMap, bool) {
	if len(q) < 2 || q[0] != q[len(q)-1] || q[0] != '`' && q[0] != '"' {
		return "", quoteMap{}, false
	}
	var b []byte
	var m quoteMap
	if q[0] == '`' {
		for i := 1; i < len(q)-1; i++ {
			if q[i] == '\r' { // dropped from raw strings (Go spec, string literals)
				continue
			}
			b = append(b, q[i])
			m.off = append(m.off, i)
			m.esc = append(m.esc, false)
		}
	} else {
		for i := 1; i < len(q)-1; {
			r, multibyte, tail, err := strconv.UnquoteChar(q[i:len(q)-1], '"')
			if err != nil {
				return "", quoteMap{}, false
			}
			n := len(q) - 1 - len(tail) - i // source bytes consumed
			var enc []byte
			if r < utf8.RuneSelf || !multibyte && q[i] == '\\' {
				enc = []byte{byte(r)}
			} else {
				enc = utf8.AppendRune(nil, r)
			}
			escaped := q[i] == '\\' || len(enc) != n // an escape, or invalid UTF-8 read as U+FFFD
			for j := range enc {
				b = append(b, enc[j])
				if escaped {
					m.off = append(m.off, i)
				} else {
					m.off = append(m.off, i+j)
				}
				m.esc = append(m.esc, escaped)
			}
			i += n
		}
	}
	m.off = append(m.off, len(q)-1)
	return string(b), m, true
}

// contiguous reports whether bytes [s, e) were written as they are, one
// source byte each and in a row, so that replacing them in the source is
// replacing them in the unquoted text. An empty span must not be inside
// an escape sequence (between two bytes it writes).
func (m quoteMap) contiguous(s, e int) bool {
	if s < 0 || e > len(m.esc) || s > e {
		return false
	}
	if s == e && s > 0 && s < len(m.esc) && m.off[s-1] == m.off[s] {
		return false
	}
	for i := s; i < e; i++ {
		if m.esc[i] || i+1 < e && m.off[i+1] != m.off[i]+1 {
			return false
		}
	}
	return true
}

// newTagSource returns the source map of field af's tag, or nil when the
// field has no tag in the source or its literal is not one.
func newTagSource(fset *token.FileSet, af *ast.Field) *tagSource {
	if af == nil || af.Tag == nil {
		return nil
	}
	tag, m, ok := unquoteMap(af.Tag.Value)
	if !ok {
		return nil
	}
	ts := &tagSource{fset: fset, lit: af.Tag.Pos(), tag: m}
	pairs, _ := parseStructTag(tag)
	for _, p := range pairs {
		if p.key != "elicit" {
			continue
		}
		if _, em, ok := unquoteMap(p.quoted); ok {
			for i := range em.off {
				em.off[i] += p.valueOffset
			}
			ts.elicit = em
		}
		break
	}
	return ts
}

// tagPos is the position of byte off of the tag (len(tag): its end).
func (ts *tagSource) tagPos(off int) token.Position {
	off = max(0, min(off, len(ts.tag.off)-1))
	return ts.fset.Position(ts.lit + token.Pos(ts.tag.off[off]))
}

// hasElicit reports whether elicit offsets can be placed.
func (ts *tagSource) hasElicit() bool { return ts != nil && ts.elicit.off != nil }

// elicitPos is the position of byte off of the elicit value (its length:
// the closing quote).
func (ts *tagSource) elicitPos(off int) token.Position {
	off = max(0, min(off, len(ts.elicit.off)-1))
	return ts.tagPos(ts.elicit.off[off])
}

// tagEdit replaces tag bytes [s, e) with text, when that can be done exactly.
func (ts *tagSource) tagEdit(s, e int, text string) (TextEdit, bool) {
	if ts == nil || !plainTagText(text) || !ts.tag.contiguous(s, e) || e >= len(ts.tag.off) {
		return TextEdit{}, false
	}
	start := ts.tag.off[s]
	end := start // an insertion
	if e > s {
		end = ts.tag.off[e-1] + 1
	}
	return TextEdit{Pos: ts.fset.Position(ts.lit + token.Pos(start)), End: ts.fset.Position(ts.lit + token.Pos(end)), NewText: text}, true
}

// elicitEdit replaces elicit value bytes [s, e) with text, when that can be
// done exactly.
func (ts *tagSource) elicitEdit(s, e int, text string) (TextEdit, bool) {
	if !ts.hasElicit() || !ts.elicit.contiguous(s, e) || e >= len(ts.elicit.off) {
		return TextEdit{}, false
	}
	ts0 := ts.elicit.off[s]
	te := ts0
	if e > s {
		te = ts.elicit.off[e-1] + 1
	}
	return ts.tagEdit(ts0, te, text)
}

// plainTagText reports whether text reads the same in every place an edit
// puts it: a raw literal, an interpreted one and a tag value's quotes (no
// quote, backslash, back quote or control character).
func plainTagText(text string) bool {
	return !strings.ContainsAny(text, "\"\\`") && strings.IndexFunc(text, func(r rune) bool {
		return r == utf8.RuneError || !unicode.IsPrint(r)
	}) < 0
}

// at is the position of byte offset of c's elicit value: exact when the
// source has the tag, else the tag literal or the field.
func (c *fieldCand) at(offset int) token.Position {
	switch {
	case c.src.hasElicit():
		return c.src.elicitPos(offset)
	case c.src != nil:
		return c.src.fset.Position(c.src.lit)
	}
	return c.fpos
}

// trimSpan narrows [s, e) of c's elicit value to its text without the
// spaces ParseTag drops around it.
func (c *fieldCand) trimSpan(s, e int) (int, int) {
	for s < e && isTagSpace(c.elicit[s]) {
		s++
	}
	for e > s && isTagSpace(c.elicit[e-1]) {
		e--
	}
	return s, e
}

// optionSpan is option o as written, without surrounding spaces.
func (c *fieldCand) optionSpan(o Option) (int, int) { return c.trimSpan(o.Offset, o.End) }

// keySpan is option o's key as written.
func (c *fieldCand) keySpan(o Option) (int, int) {
	s, _ := c.trimSpan(o.Offset, o.End)
	return s, s + len(o.Key)
}

// valueSpan is option o's value as written (quotes included), after its '='.
func (c *fieldCand) valueSpan(o Option) (int, int) {
	_, k := c.keySpan(o)
	eq := strings.IndexByte(c.elicit[k:o.End], '=')
	if eq < 0 {
		return o.End, o.End
	}
	return c.trimSpan(k+eq+1, o.End)
}

// fix is a suggested fix replacing bytes [s, e) of c's elicit value with
// text, or nil when the edit cannot be placed exactly in the source.
func (c *fieldCand) fix(msg string, s, e int, text string) []SuggestedFix {
	edit, ok := c.src.elicitEdit(s, e, text)
	if !ok {
		return nil
	}
	return []SuggestedFix{{Message: msg, Edits: []TextEdit{edit}}}
}

// tagError reports a problem with bytes [s, e) of c's elicit value (an
// option, its key or its value), with the fixes the message spells.
func (a *analyzer) tagError(c *fieldCand, s, e int, fixes []SuggestedFix, format string, args ...any) {
	d := Diagnostic{Pos: c.at(s), Message: fmt.Sprintf(format, args...), SuggestedFixes: fixes}
	if c.src.hasElicit() {
		d.End = c.at(e)
	}
	a.diags = append(a.diags, d)
}

// optionError reports a problem with option o of c's elicit tag, as a whole.
func (a *analyzer) optionError(c *fieldCand, o Option, fixes []SuggestedFix, format string, args ...any) {
	s, e := c.optionSpan(o)
	a.tagError(c, o.Offset, max(e, s), fixes, format, args...)
}

// optionRange is where option o of c's elicit tag is in the source, as
// optionError reports it: its start, and its end when the source has the
// tag (else the zero Position).
func (c *fieldCand) optionRange(o Option) (pos, end token.Position) {
	s, e := c.optionSpan(o)
	pos = c.at(o.Offset)
	if c.src.hasElicit() {
		end = c.at(max(e, s))
	}
	return pos, end
}
