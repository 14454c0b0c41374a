package annotate

import (
	"strings"
	"testing"
	"unicode"
)

// formatTag writes options back in the tag grammar, each item quoted as
// quoteItem does.
func formatTag(opts []Option) string {
	var b strings.Builder
	for i, o := range opts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(o.Key)
		if !o.HasVal {
			continue
		}
		b.WriteByte('=')
		for j, it := range o.Items {
			if j > 0 {
				b.WriteByte('|')
			}
			b.WriteString(quoteItem(it))
		}
	}
	return b.String()
}

// FuzzParseTag checks that ParseTag never panics, that errors carry an
// offset inside the tag, that every option's offset points at its key, and
// that formatting the options and parsing again gives the same options.
func FuzzParseTag(f *testing.F) {
	for _, s := range []string{
		"", "required", "optional,format=email,maxLength=254",
		"minLength=2,maxLength=40,description='Your name, as on the passport'",
		"optional,enum=veg:Vegetarian|'fish, grilled':Fish|meat:Meat",
		"ask=always,enum=yes,title=Type yes to confirm",
		"optional,enum=a|b|c,minItems=1,maxItems=2,default=a|b",
		"title='it''s here'", "-", "notsecret,optional", "a,,b", "=x", "x='open", "'q'=1",
		"enum=|", "title= spaced , x", "enum= a | ' b ' |c ", "title=' '", "default=''", "k=a''b", "k='a''",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		opts, err := ParseTag(tag)
		if err != nil {
			te, ok := err.(*TagError)
			if !ok {
				t.Fatalf("ParseTag(%q): error %T, want *TagError", tag, err)
			}
			if te.Offset < 0 || te.Offset > len(tag) || te.Msg == "" {
				t.Fatalf("ParseTag(%q): bad TagError %+v", tag, te)
			}
			return
		}
		for _, o := range opts {
			if o.Key == "" || strings.ContainsAny(o.Key, "=,'") {
				t.Fatalf("ParseTag(%q): bad key %q", tag, o.Key)
			}
			if o.Offset < 0 || o.Offset > len(tag) ||
				!strings.HasPrefix(strings.TrimLeftFunc(tag[o.Offset:], unicode.IsSpace), o.Key) {
				t.Fatalf("ParseTag(%q): offset %d does not point at key %q", tag, o.Offset, o.Key)
			}
			if o.End < o.Offset || o.End > len(tag) || o.End < len(tag) && tag[o.End] != ',' {
				t.Fatalf("ParseTag(%q): option %q ends at %d, not at its comma or the end", tag, o.Key, o.End)
			}
			for _, it := range append([]string{o.Value}, o.Items...) {
				if it != "" && (isTagSpace(it[0]) || isTagSpace(it[len(it)-1])) && !strings.Contains(tag, "'") {
					t.Fatalf("ParseTag(%q): option %q keeps unquoted spaces around %q", tag, o.Key, it)
				}
			}
			if o.HasVal != (len(o.Items) > 0) {
				t.Fatalf("ParseTag(%q): option %q: HasVal %v with %d items", tag, o.Key, o.HasVal, len(o.Items))
			}
		}
		again := formatTag(opts)
		opts2, err := ParseTag(again)
		if err != nil {
			t.Fatalf("ParseTag(%q) = %+v, formatted %q, which does not parse: %v", tag, opts, again, err)
		}
		if len(opts2) != len(opts) {
			t.Fatalf("round trip %q → %q: %d options, then %d", tag, again, len(opts), len(opts2))
		}
		for i := range opts {
			a, b := opts[i], opts2[i]
			if a.Key != b.Key || a.HasVal != b.HasVal || strings.Join(a.Items, "\x00") != strings.Join(b.Items, "\x00") || len(a.Items) != len(b.Items) {
				t.Fatalf("round trip %q → %q: option %d %+v became %+v", tag, again, i, a, b)
			}
		}
	})
}
