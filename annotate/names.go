package annotate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// titles fills Title and Description from the tag, then the jsonschema tag
// (invopop's title=/description=, or the whole tag when it has no key=
// pairs: go-sdk's dialect), then the field name split into words.
func (a *analyzer) titles(f *Field, c *fieldCand) {
	js := c.jsTag
	jsTitle, jsDesc := "", ""
	if js != "" {
		if !strings.Contains(js, "=") {
			jsDesc = js
		} else {
			for _, part := range strings.Split(js, ",") {
				if v, ok := strings.CutPrefix(part, "title="); ok {
					jsTitle = v
				}
				if v, ok := strings.CutPrefix(part, "description="); ok {
					jsDesc = v
				}
			}
		}
	}
	if f.Title == "" {
		f.Title = jsTitle
	}
	if f.Title == "" {
		f.Title = HumanName(f.GoName)
	}
	if f.Description == "" {
		f.Description = jsDesc
	}
}

// HumanName splits a Go identifier into words for a form label:
// DepartureDate → "Departure date", APIKey → "API key", UserID → "User ID".
func HumanName(name string) string {
	words := splitWords(name)
	for i, w := range words {
		if i > 0 && !isAcronym(w) {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

func isAcronym(w string) bool {
	if utf8.RuneCountInString(w) < 2 {
		return false
	}
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// splitWords splits at lower→upper changes, before the last capital of an
// acronym followed by a lower-case letter, at digits boundaries and at '_'.
func splitWords(s string) []string {
	var words []string
	rs := []rune(s)
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		split := false
		switch {
		case cur == '_':
			if i > start {
				words = append(words, string(rs[start:i]))
			}
			start = i + 1
			continue
		case unicode.IsLower(prev) && unicode.IsUpper(cur):
			split = true
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			split = true
		}
		if split && i > start {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	if start < len(rs) {
		words = append(words, string(rs[start:]))
	}
	return words
}
