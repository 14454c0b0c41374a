package annotate

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// tagPair is one key:"value" pair of a struct tag.
type tagPair struct {
	key    string
	value  string // unquoted
	offset int    // byte offset of key in the tag
	quoted string // the value as written, quotes included
	// valueOffset is the byte offset of quoted in the tag.
	valueOffset int
}

// parseStructTag splits a struct tag into its key:"value" pairs, following
// the convention of reflect.StructTag, and reports what is wrong with a tag
// that does not follow it (the check go vet's structtag analyzer makes); msg
// is "" when the tag is well formed. reflect.StructTag itself only looks up
// a key, and silently finds nothing in a malformed tag.
func parseStructTag(tag string) (pairs []tagPair, msg string) {
	off := 0
	for {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag, off = tag[i:], off+i
		if tag == "" {
			return pairs, ""
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 {
			return pairs, "bad syntax for struct tag key"
		}
		if i+1 >= len(tag) || tag[i] != ':' {
			return pairs, "bad syntax for struct tag pair (want key:\"value\")"
		}
		if tag[i+1] != '"' {
			return pairs, "bad syntax for struct tag value (values are double-quoted)"
		}
		key, keyOff := tag[:i], off
		tag, off = tag[i+1:], off+i+1
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return pairs, "bad syntax for struct tag value (unterminated quote)"
		}
		value, err := strconv.Unquote(tag[:i+1])
		if err != nil {
			return pairs, "bad syntax for struct tag value"
		}
		pairs = append(pairs, tagPair{key: key, value: value, offset: keyOff, quoted: tag[:i+1], valueOffset: off})
		tag, off = tag[i+1:], off+i+1
		if tag != "" && tag[0] != ' ' {
			return pairs, "key:\"value\" pairs not separated by spaces"
		}
	}
}

// checkStructTag reports what is wrong with a struct tag that does not follow
// the key:"value" convention of reflect.StructTag, or "" when it is well
// formed.
func checkStructTag(tag string) string {
	_, msg := parseStructTag(tag)
	return msg
}

// repeatedKey returns the first of keys that a well-formed struct tag holds
// more than once, or "".
func repeatedKey(tag string, keys ...string) string {
	pairs, msg := parseStructTag(tag)
	if msg != "" {
		return ""
	}
	seen := map[string]bool{}
	for _, p := range pairs {
		if slices.Contains(keys, p.key) {
			if seen[p.key] {
				return p.key
			}
			seen[p.key] = true
		}
	}
	return ""
}

// misspeltElicit returns the pair of a well-formed struct tag whose key looks
// like a misspelling of "elicit" (within two edits of it, letter case
// ignored: elict, elicits, Elicit), when the tag has no elicit key itself.
// The keys of other packages (json, jsonschema, yaml, validate, …) are
// further away.
func misspeltElicit(tag string) (tagPair, bool) {
	pairs, msg := parseStructTag(tag)
	if msg != "" {
		return tagPair{}, false
	}
	var typo *tagPair
	for i, p := range pairs {
		if p.key == "elicit" {
			return tagPair{}, false
		}
		if typo == nil && editDistance(strings.ToLower(p.key), "elicit") <= 2 {
			typo = &pairs[i]
		}
	}
	if typo == nil {
		return tagPair{}, false
	}
	return *typo, true
}

// checkElicitKey reports a struct tag key of field v that looks like a
// misspelling of "elicit": reflect.StructTag finds no elicit key, so the
// field would silently not be elicited. Only fields declared in the
// package being checked are looked at: a typo in another module's struct is
// not the user's to fix.
func (a *analyzer) checkElicitKey(v *types.Var, rawTag string, fpos token.Position) {
	if v.Pkg() != a.types {
		return
	}
	p, ok := misspeltElicit(rawTag)
	if !ok {
		return
	}
	fix := "elicit:" + strconv.Quote(p.value)
	d := Diagnostic{Pos: fpos}
	if ts := newTagSource(a.fset, a.astFields[v.Pos()]); ts != nil {
		d.Pos, d.End = ts.tagPos(p.offset), ts.tagPos(p.offset+len(p.key))
		if edit, ok := ts.tagEdit(p.offset, p.offset+len(p.key), "elicit"); ok {
			d.SuggestedFixes = []SuggestedFix{{Message: fmt.Sprintf("Replace %q with \"elicit\"", p.key), Edits: []TextEdit{edit}}}
		}
	}
	if strings.EqualFold(p.key, "elicit") {
		d.Message = fmt.Sprintf("struct tag key %q on %s is not \"elicit\" (struct tag keys are case-sensitive), so %s is not elicited; write %s", p.key, v.Name(), v.Name(), fix)
	} else {
		d.Message = fmt.Sprintf("struct tag key %q on %s looks like a misspelling of \"elicit\", so %s is not elicited; write %s", p.key, v.Name(), v.Name(), fix)
	}
	a.diags = append(a.diags, d)
}
