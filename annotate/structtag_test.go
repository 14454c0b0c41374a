package annotate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestMisspeltElicit checks which struct tag keys count as a misspelling of
// "elicit": within two edits, letter case ignored, and only when the tag has
// no elicit key of its own.
func TestMisspeltElicit(t *testing.T) {
	for _, c := range []struct {
		tag  string
		want string // the misspelt key, "" for none
	}{
		{`json:"a" elict:"required"`, "elict"},
		{`elicits:"optional"`, "elicits"},
		{`elcit:"optional"`, "elcit"},
		{`Elicit:"optional"`, "Elicit"},
		{`ELICIT:"optional"`, "ELICIT"},
		{`elicitt:"x" json:"a"`, "elicitt"},
		{`eliciit:"x"`, "eliciit"},
		{`json:"a" yaml:"a" xml:"a" db:"a" toml:"a"`, ""},
		{`jsonschema:"title=A" validate:"required" mapstructure:"a" default:"x" env:"A"`, ""},
		{`elicitation:"x"`, ""},
		{`elicit:"optional" elict:"required"`, ""}, // the field is elicited; the stray key is not what would be lost
		{`json:"a"elict:"required"`, ""},           // malformed: reported as such when it matters
		{``, ""},
	} {
		p, ok := misspeltElicit(c.tag)
		if got := p.key; !ok && got != "" || ok != (c.want != "") || got != c.want {
			t.Errorf("misspeltElicit(%s) = %q, %v; want %q", c.tag, got, ok, c.want)
		}
	}
}

// TestParseStructTagOffsets checks that each pair's offset points at its key
// in the tag, whatever the spacing.
func TestParseStructTagOffsets(t *testing.T) {
	tag := `json:"a,omitempty"   elict:"x \"y\""  b:""`
	pairs, msg := parseStructTag(tag)
	if msg != "" {
		t.Fatalf("parseStructTag: %s", msg)
	}
	want := []tagPair{{"json", "a,omitempty", 0, `"a,omitempty"`, 5}, {"elict", `x "y"`, 21, `"x \"y\""`, 27}, {"b", "", 38, `""`, 40}}
	if len(pairs) != len(want) {
		t.Fatalf("parseStructTag = %+v, want %+v", pairs, want)
	}
	for i, p := range pairs {
		if p != want[i] || !strings.HasPrefix(tag[p.offset:], p.key+`:"`) || tag[p.valueOffset:p.valueOffset+len(p.quoted)] != p.quoted {
			t.Errorf("pair %d = %+v, want %+v", i, p, want[i])
		}
	}
}

// TestElicitKeyTypo runs Check on argument structs with misspelt elicit keys
// and compares every diagnostic, as file:line:col: message.
func TestElicitKeyTypo(t *testing.T) {
	for _, c := range []struct {
		name  string
		src   string   // declarations after the package clause
		types []string // -type
		want  []string
	}{{
		name: "annotated struct",
		src: "type Args struct {\n" +
			"\tCity string `json:\"city\" elicit:\"optional\"`\n" +
			"\tAmount *int `json:\"amount\" elict:\"required,minimum=1\"`\n" +
			"}\n",
		want: []string{`t.go:5:29: struct tag key "elict" on Amount looks like a misspelling of "elicit", so Amount is not elicited; write elicit:"required,minimum=1"`},
	}, {
		name: "named by -type, no elicit tag at all",
		src: "type Args struct {\n" +
			"\tCity string `json:\"city\" Elicit:\"optional\"`\n" +
			"}\n",
		types: []string{"Args"},
		want:  []string{`t.go:4:27: struct tag key "Elicit" on City is not "elicit" (struct tag keys are case-sensitive), so City is not elicited; write elicit:"optional"`},
	}, {
		name: "not annotated, not named",
		src: "type Args struct {\n" +
			"\tCity string `json:\"city\" elict:\"optional\"`\n" +
			"}\n",
	}, {
		name: "interpreted string literal: at the key",
		src: "type Args struct {\n" +
			"\tCity string \"json:\\\"city\\\" elicits:\\\"optional\\\"\"\n" +
			"}\n",
		types: []string{"Args"},
		want:  []string{`t.go:4:29: struct tag key "elicits" on City looks like a misspelling of "elicit", so City is not elicited; write elicit:"optional"`},
	}, {
		name: "promoted from an embedded struct",
		src: "type Inner struct {\n" +
			"\tNote string `json:\"note\" elcit:\"optional\"`\n" +
			"}\n" +
			"type Args struct {\n" +
			"\tInner\n" +
			"\tCity string `json:\"city\" elicit:\"optional\"`\n" +
			"}\n",
		want: []string{`t.go:4:27: struct tag key "elcit" on Note looks like a misspelling of "elicit", so Note is not elicited; write elicit:"optional"`},
	}, {
		name: "embedded struct that is an argument struct itself: once",
		src: "type Inner struct {\n" +
			"\tCity string `json:\"city\" elicit:\"optional\"`\n" +
			"\tNote string `json:\"note\" elcit:\"optional\"`\n" +
			"}\n" +
			"type Args struct {\n" +
			"\tInner\n" +
			"}\n",
		want: []string{`t.go:5:27: struct tag key "elcit" on Note looks like a misspelling of "elicit", so Note is not elicited; write elicit:"optional"`},
	}} {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "t.go", "package p\n\n"+c.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
			pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info)
			if err != nil {
				t.Fatal(err)
			}
			_, diags := Check(fset, pkg, []*ast.File{file}, info, c.types)
			var got []string
			for _, d := range diags {
				got = append(got, d.Format(""))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
