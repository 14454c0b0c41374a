package gen

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// TestHTMLLitLayout: the form literal reads back as the parts it was given,
// and every line of it stays within maxColumns, even for a part with no
// space to break at, or with multi-byte runes and characters Go escapes.
func TestHTMLLitLayout(t *testing.T) {
	long := strings.Repeat("x", 300)
	runes := strings.Repeat("é\"\n", 90)
	words := strings.Repeat("word ", 60)
	groups := [][]string{{"<div>", long, "</div>"}, {runes}, {words, "<p>"}, {""}}
	f := jen.NewFile("p")
	f.Func().Id("init").Params().Block(jen.Id("use").Call(jen.Nil(), jen.Line().Add(htmlLit(2, groups))))
	src := fmt.Sprintf("%#v", f)
	var want, got strings.Builder
	for _, g := range groups {
		want.WriteString(strings.Join(g, ""))
	}
	for _, line := range strings.Split(src, "\n") {
		if w := len(strings.ReplaceAll(line, "\t", "    ")); w > maxColumns {
			t.Errorf("%d columns: %s", w, line)
		}
		l := strings.TrimSpace(line)
		l = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(l, ")"), "+"))
		if strings.HasPrefix(l, `"`) {
			s, err := strconv.Unquote(l)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			got.WriteString(s)
		}
	}
	if got.String() != want.String() {
		t.Errorf("the literal reads\n%q\nwant\n%q", got.String(), want.String())
	}
}

// TestURLFormEscapes: every text of a field the tags give (name, title,
// description, choice values and titles, default) reaches the form
// HTML-escaped, so that none can open a tag or leave its attribute.
func TestURLFormEscapes(t *testing.T) {
	evil := `"><script>alert('x')</script>&`
	enum := []annotate.EnumItem{{Value: evil, Title: evil}}
	s := &annotate.Struct{Name: "Q", Question: true, URLMode: true, Fields: []*annotate.Field{
		{JSONName: evil, Kind: annotate.String, Title: evil, Description: evil, Default: &annotate.Default{String: evil}},
		{JSONName: "one", Kind: annotate.String, Enum: enum, Default: &annotate.Default{String: evil}},
		{JSONName: "many", Kind: annotate.MultiSelect, Enum: enum, Default: &annotate.Default{Strings: []string{evil}}},
	}}
	var html strings.Builder
	for _, g := range urlForm(s) {
		html.WriteString(strings.Join(g, ""))
	}
	out := html.String()
	escaped := "&#34;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"
	// name, label, description and its id, input id and aria, value; option value and text; checkbox value and text
	if n := strings.Count(out, escaped); n != 12 {
		t.Errorf("the escaped text appears %d times, want 12: %s", n, out)
	}
	if rest := strings.ReplaceAll(out, escaped, "X"); strings.Contains(rest, "script") || strings.Contains(rest, "'") {
		t.Errorf("unescaped text in the form: %s", rest)
	}
}
