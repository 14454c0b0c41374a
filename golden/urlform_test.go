package golden

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/mcpgen/mcpgen/golden/testdata/urlquestion"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestURLForm: the HTML form mcpgen writes for each URL-mode question of the
// golden case urlquestion (the literal its init passes to
// impl.RegisterURLQuestion) parses as HTML inside the page's <form>, and
// agrees with the question's RequestedSchema, which the page (package
// runtime/page) reads the post back by: every property has its input under
// its JSON name, of the type the page converts (a checkbox sending "true"
// for a boolean, one checkbox per option for an array, a number input for
// an integer or number, a text input or a select for a string), `required`
// exactly when the schema requires it, its label the title and its help the
// description once unescaped (so the escaping is exact), each option's text
// its title; secrets are password inputs and never prefilled; and no input
// is named outside the schema.
func TestURLForm(t *testing.T) {
	forms := registeredForms(t, filepath.Join("testdata", "urlquestion"))
	questions := map[string]struct {
		q       runtime.Args
		secrets []string
	}{
		"APIKey":  {&urlquestion.APIKey{}, []string{"api_key"}},
		"Profile": {&urlquestion.Profile{}, []string{"pin"}},
	}
	if len(forms) != len(questions) {
		t.Fatalf("found forms for %d questions, want %d: %v", len(forms), len(questions), forms)
	}
	for name, c := range questions {
		t.Run(name, func(t *testing.T) {
			form, ok := forms[name]
			if !ok {
				t.Fatalf("no impl.RegisterURLQuestion for %s", name)
			}
			checkForm(t, form, c.q.RequestedSchema(), c.secrets)
		})
	}
}

// registeredForms returns, by type name, the form literal of every
// impl.RegisterURLQuestion((*T)(nil), "…") call in the generated files of dir.
func registeredForms(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_elicit.go"))
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "RegisterURLQuestion" || len(call.Args) != 2 {
				return true
			}
			// (*T)(nil)
			conv := call.Args[0].(*ast.CallExpr)
			typ := conv.Fun.(*ast.ParenExpr).X.(*ast.StarExpr).X.(*ast.Ident).Name
			forms[typ] = stringConst(t, call.Args[1])
			return false
		})
	}
	return forms
}

// stringConst is the value of a string literal or a sum of them.
func stringConst(t *testing.T, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			t.Fatal(err)
		}
		return s
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return stringConst(t, e.X) + stringConst(t, e.Y)
		}
	}
	t.Fatalf("the form is not a string constant: %T", e)
	return ""
}

func checkForm(t *testing.T, form string, schema *jsonschema.Schema, secrets []string) {
	ctx := &html.Node{Type: html.ElementNode, Data: "form", DataAtom: atom.Form}
	nodes, err := html.ParseFragment(strings.NewReader(form), ctx)
	if err != nil {
		t.Fatal(err)
	}
	root := &html.Node{Type: html.ElementNode, Data: "form", DataAtom: atom.Form}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	// The fragment is well nested: rendering the parse gives it back, so the
	// parser repaired nothing (an unclosed or misnested tag would differ).
	var b strings.Builder
	for n := range root.ChildNodes() {
		if err := html.Render(&b, n); err != nil {
			t.Fatal(err)
		}
	}
	// (html.Render closes a void element with "/>" and gives a flag an
	// empty value.)
	if got := strings.NewReplacer("/>", ">", ` required=""`, " required", ` checked=""`, " checked", ` selected=""`, " selected").Replace(b.String()); got != form {
		t.Errorf("the form does not read back as written:\n got %s\nwant %s", got, form)
	}

	byName := map[string][]*html.Node{}
	ids := map[string]*html.Node{}
	var labels []*html.Node
	for n := range root.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if name := attr(n, "name"); name != "" {
			byName[name] = append(byName[name], n)
		}
		if id := attr(n, "id"); id != "" {
			if ids[id] != nil {
				t.Errorf("id %q used twice", id)
			}
			ids[id] = n
		}
		if n.DataAtom == atom.Label && attr(n, "for") != "" {
			labels = append(labels, n)
		}
		if n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Form {
			t.Errorf("the form holds a <%s>", n.Data)
		}
	}
	for _, l := range labels {
		if ids[attr(l, "for")] == nil {
			t.Errorf("label for %q names no element", attr(l, "for"))
		}
	}
	for name := range byName {
		if _, ok := schema.Properties.Get(name); !ok {
			t.Errorf("input %q is not a property of the schema", name)
		}
	}
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		name, prop := pair.Key, pair.Value
		els := byName[name]
		if len(els) == 0 {
			t.Errorf("%s: no input", name)
			continue
		}
		el := els[0]
		required := slices.Contains(schema.Required, name)
		secret := slices.Contains(secrets, name)
		items := choices(prop)
		switch {
		case prop.Type == "array":
			if len(els) != len(items) {
				t.Errorf("%s: %d checkboxes for %d options", name, len(els), len(items))
			}
			for i, e := range els {
				if attr(e, "type") != "checkbox" || i < len(items) && attr(e, "value") != items[i].Const {
					t.Errorf("%s: option %d is %s type=%q value=%q", name, i, e.Data, attr(e, "type"), attr(e, "value"))
				}
				if i < len(items) && text(e.Parent) != items[i].Title {
					t.Errorf("%s: option %d reads %q, want %q", name, i, text(e.Parent), items[i].Title)
				}
			}
			legend := el.Parent.Parent.FirstChild
			if legend.DataAtom != atom.Legend || text(legend) != prop.Title {
				t.Errorf("%s: the group's legend reads %q, want %q", name, text(legend), prop.Title)
			}
			continue
		case prop.Type == "boolean":
			if el.DataAtom != atom.Input || attr(el, "type") != "checkbox" || attr(el, "value") != "true" {
				t.Errorf("%s: want a checkbox with value true, got %s type=%q value=%q", name, el.Data, attr(el, "type"), attr(el, "value"))
			}
		case len(items) > 0:
			if el.DataAtom != atom.Select {
				t.Fatalf("%s: a select is a %s", name, el.Data)
			}
			var got []string
			for o := range el.ChildNodes() {
				if v := attr(o, "value"); v != "" {
					got = append(got, v)
					if i := slices.IndexFunc(items, func(it *jsonschema.Schema) bool { return it.Const == v }); i < 0 || text(o) != items[i].Title {
						t.Errorf("%s: option %q reads %q", name, v, text(o))
					}
				} else if required && prop.Default != nil {
					t.Errorf("%s: a required select with a default has an empty option", name)
				}
			}
			if len(got) != len(items) {
				t.Errorf("%s: options %v, want %d", name, got, len(items))
			}
		case secret:
			if attr(el, "type") != "password" || hasAttr(el, "value") {
				t.Errorf("%s: a secret must be an empty password input, got type=%q value=%q", name, attr(el, "type"), attr(el, "value"))
			}
		case prop.Type == "integer" || prop.Type == "number":
			if attr(el, "type") != "number" {
				t.Errorf("%s: an %s input has type %q", name, prop.Type, attr(el, "type"))
			}
		default:
			want := map[string]string{"": "text", "email": "email", "uri": "url", "date": "date", "date-time": "text"}[prop.Format]
			if attr(el, "type") != want {
				t.Errorf("%s: a string of format %q has type %q, want %q", name, prop.Format, attr(el, "type"), want)
			}
		}
		if !secret && attr(el, "type") == "password" {
			t.Errorf("%s is a password input but not a secret", name)
		}
		if len(els) != 1 {
			t.Errorf("%s: %d inputs", name, len(els))
		}
		if prop.Type != "boolean" && hasAttr(el, "required") != required {
			t.Errorf("%s: required attribute %v, schema requires it: %v", name, hasAttr(el, "required"), required)
		}
		label := ids["f-"+name]
		if label != el {
			t.Errorf("%s: its input's id is not f-%s", name, name)
		}
		for _, l := range labels {
			if attr(l, "for") == "f-"+name && text(l) != prop.Title {
				t.Errorf("%s: label reads %q, want %q", name, text(l), prop.Title)
			}
		}
		if prop.Description != "" {
			d := ids["d-"+name]
			if d == nil || text(d) != prop.Description || attr(el, "aria-describedby") != "d-"+name {
				t.Errorf("%s: the description is not d-%s reading %q", name, name, prop.Description)
			}
		}
	}
}

// choices are the options of a select or a multi select's items.
func choices(prop *jsonschema.Schema) []*jsonschema.Schema {
	if prop.Items != nil {
		return prop.Items.AnyOf
	}
	return prop.OneOf
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key })
}

// text is the text inside n, trimmed.
func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.TrimSpace(b.String())
}
