package annotate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"testing"
)

// TestUnquoteMap: unquoteMap reads every literal as strconv.Unquote does,
// and each byte it calls unescaped is the source byte it points at.
func TestUnquoteMap(t *testing.T) {
	for _, q := range []string{
		"``", "`a`", "`json:\"x\" elicit:\"a,b\"`", "`a\r\nb`",
		`""`, `"a"`, `"a\"b"`, `"\\"`, `"\x41\101\u00e9é\n"`, `"\U0001F600x"`, "\"\xff\"",
	} {
		want, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		got, m, ok := unquoteMap(q)
		if !ok || got != want {
			t.Errorf("unquoteMap(%s) = %q, %v; want %q", q, got, ok, want)
			continue
		}
		if len(m.off) != len(got)+1 || m.off[len(got)] != len(q)-1 {
			t.Errorf("unquoteMap(%s): offsets %v do not end at the closing quote", q, m.off)
		}
		for i := range len(got) {
			if !m.esc[i] && q[m.off[i]] != got[i] {
				t.Errorf("unquoteMap(%s): byte %d (%q) maps to %q", q, i, got[i], q[m.off[i]])
			}
		}
	}
	for _, q := range []string{"", "`", `"a`, `'a'`, `"\q"`} {
		if _, _, ok := unquoteMap(q); ok {
			t.Errorf("unquoteMap(%s) accepted a malformed literal", q)
		}
	}
}

// TestElicitEdit replaces every span of an elicit value that elicitEdit
// accepts, in raw and interpreted literals with and without escapes, and
// checks that the edited source's tag reads as the value with that span
// replaced: an edit is placed exactly, or not at all.
func TestElicitEdit(t *testing.T) {
	for _, lit := range []string{
		"`json:\"x\"  elicit:\"optional,format=emial\"`",
		"\"json:\\\"x\\\" elicit:\\\"optional,minLenght=3\\\"\"",
		"`elicit:\"title='a \\\"b\\\" c',requird\"`",
		"\"elicit:\\\"t\\\\u00e9st,enum=a|b\\\"\"",
		"\"elicit:\\\"\\x61bc\\\"\"",
	} {
		src := "package p\n\ntype T struct {\n\tF string " + lit + "\n}\n"
		value, ts := elicitOf(t, src)
		accepted, refused := 0, 0
		for s := 0; s <= len(value); s++ {
			for e := s; e <= len(value); e++ {
				edit, ok := ts.elicitEdit(s, e, "X")
				if !ok {
					refused++
					continue
				}
				accepted++
				edited := src[:edit.Pos.Offset] + edit.NewText + src[edit.End.Offset:]
				if got, _ := elicitOf(t, edited); got != value[:s]+"X"+value[e:] {
					t.Fatalf("%s: replacing [%d,%d) of %q gives %q", lit, s, e, value, got)
				}
			}
		}
		if accepted == 0 {
			t.Errorf("%s: no edit accepted", lit)
		}
		t.Logf("%s: %d edits placed, %d refused", lit, accepted, refused)
	}
	if _, ok := (&tagSource{}).elicitEdit(0, 0, `"`); ok {
		t.Error("an edit inserting a quote was accepted")
	}
}

// elicitOf parses src and returns the elicit value of its one field's tag and
// the tag's source map.
func elicitOf(t *testing.T, src string) (string, *tagSource) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "t.go", src, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	field := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Type.(*ast.StructType).Fields.List[0]
	tag, err := strconv.Unquote(field.Tag.Value)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTagSource(fset, field)
	if ts == nil || !ts.hasElicit() {
		t.Fatalf("no elicit value in %s", field.Tag.Value)
	}
	return reflect.StructTag(tag).Get("elicit"), ts
}
