package annotate

import (
	"strings"
	"testing"
)

// TestParseTagSpaces checks that unquoted spaces around keys, values and
// list items are dropped, and quoted ones kept.
func TestParseTagSpaces(t *testing.T) {
	for _, c := range []struct {
		tag  string
		want string // key=value[items] per option, ';'-separated
	}{
		{"optional , title = spaced", "optional;title=spaced[spaced]"},
		{"title=  Two words  ", "title=Two words[Two words]"},
		{"title=' spaced '", "title= spaced [ spaced ]"},
		{"title= ' q ' ", "title= q [ q ]"},
		{"enum= a | b:Bee |c ", "enum=a | b:Bee |c[a b:Bee c]"},
		{"enum=' a '| b", "enum= a | b[ a  b]"},
		{"default= ", "default=[]"},
		{"default=''", "default=[]"},
		{"title=a\tb\t", "title=a\tb[a\tb]"},
	} {
		opts, err := ParseTag(c.tag)
		if err != nil {
			t.Errorf("ParseTag(%q): %v", c.tag, err)
			continue
		}
		var parts []string
		for _, o := range opts {
			p := o.Key
			if o.HasVal {
				p += "=" + o.Value + "[" + strings.Join(o.Items, " ") + "]"
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, ";"); got != c.want {
			t.Errorf("ParseTag(%q) = %q, want %q", c.tag, got, c.want)
		}
	}
}
