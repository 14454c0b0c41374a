package annotate

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
)

// fieldModel maps a Go field and its elicit tag to a Field, reporting every
// problem; it returns nil when the field is not elicitable or is broken.
func (a *analyzer) fieldModel(c *fieldCand) *Field {
	v := c.v
	fpos := a.fset.Position(v.Pos())
	opts, errs := parseTag(c.elicit)
	for _, te := range errs {
		var fixes []SuggestedFix
		if s, e, ok := emptyOption(c.elicit, te.Offset); ok {
			fixes = c.fix("Remove the extra comma", s, e, "")
		}
		a.tagError(c, te.Offset, te.Offset, fixes, "elicit tag on %s: %s", v.Name(), te.Msg)
	}
	f := &Field{GoName: v.Name(), Path: c.path, JSONName: c.json, Pos: fpos, Required: true}
	// Every option is checked even when one is wrong, so that one run
	// reports every problem of the tag; ok records that the field is broken.
	byKey, ok := a.optionsByKey(c, opts)
	ok = ok && len(errs) == 0
	if o, skip := byKey["-"]; skip {
		if len(opts) > 1 {
			// No fix: dropping the other options (required, …) for "-"
			// would silently stop asking the field; which one the author
			// meant is theirs to say.
			a.optionError(c, o, nil, "elicit tag on %s: \"-\" (never elicit) cannot be combined with other options; write elicit:\"-\" alone, or remove the \"-\"", v.Name())
		}
		return nil
	}
	if _, r := byKey["required"]; r {
		if o, opt := byKey["optional"]; opt {
			a.optionError(c, o, nil, "elicit tag on %s: both required and optional; keep one (required is the default)", v.Name())
			ok = false
		}
	}
	if _, opt := byKey["optional"]; opt {
		f.Required = false
	}
	if o, has := byKey["ask"]; has {
		switch o.Value {
		case "always":
			f.AskAlways = true
		case "missing":
		default:
			a.optionError(c, o, nil, "elicit tag on %s: ask=%s: want ask=missing (the default) or ask=always", v.Name(), o.Value)
			ok = false
		}
	}

	if !a.mapType(f, v.Type()) {
		return nil
	}
	if !a.applyOptions(f, c, byKey, ok) {
		return nil
	}
	a.titles(f, c)
	if !a.secrets(f, c, byKey) {
		return nil
	}
	if f.Required && !f.Pointer && !f.Slice && f.Kind == Boolean {
		a.nameErrorf(v, "%s is a required bool, but false is a real answer and would read as missing: declare it as *bool (nil means missing), or mark it optional", v.Name())
		return nil
	}
	if f.Required && !f.Pointer && (f.Kind == Integer || f.Kind == Number) && boundsAllowZero(f) {
		a.nameErrorf(v, "%s is a required %s whose bounds allow 0, but 0 would read as missing: declare it as *%s (nil means missing), give it bounds that exclude 0, or mark it optional", v.Name(), f.Type.Name, f.Type.Name)
		return nil
	}
	f.src, f.opts = c, byKey
	return f
}

// mapType maps the Go type to a kind: string kinds → string, int kinds →
// integer, float kinds → number, bool → boolean, time.Time → string
// date-time, []string or a slice of a named string type → multi select, and
// pointers to these.
func (a *analyzer) mapType(f *Field, t types.Type) bool {
	p := f.Pos
	orig := t
	if ptr, ok := t.(*types.Pointer); ok {
		f.Pointer = true
		t = ptr.Elem()
	}
	if isTime(t) {
		f.Kind, f.Type = DateTime, TypeRef{Path: "time", Name: "Time"}
		return true
	}
	if !f.Pointer {
		if el, b := stringSliceElem(t); b != nil {
			f.Kind, f.Slice, f.Basic = MultiSelect, true, b.Name()
			f.Type = typeRef(el)
			if named, ok := types.Unalias(el).(*types.Named); ok { // an alias of an enum type is that type
				if !a.constEnum(f, named) {
					return false
				}
			}
			return true
		}
	}
	if named, ok := types.Unalias(t).(*types.Named); ok && named.TypeParams().Len() == 0 {
		if b, ok := named.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			if !a.constEnum(f, named) {
				return false
			}
		}
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		f.Type, f.Basic = typeRef(t), b.Name()
		switch {
		case b.Info()&types.IsString != 0:
			f.Kind = String
			return true
		case b.Info()&types.IsInteger != 0 && b.Kind() != types.Uintptr:
			f.Kind = Integer
			return true
		case b.Info()&types.IsFloat != 0:
			f.Kind = Number
			return true
		case b.Kind() == types.Bool:
			f.Kind = Boolean
			return true
		}
	}
	a.errorf(p, "%s has type %s, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time.Time, or []string (multi select), or pointers to these%s; remove the elicit tag or mark it elicit:\"-\"", f.GoName, typeString(orig), typeHint(orig))
	return false
}

// stringSliceElem returns the element type of a slice of a string kind
// ([]string, []Window) and its underlying basic type, or nil, nil: the Go
// types of a multi select.
func stringSliceElem(t types.Type) (types.Type, *types.Basic) {
	if sl, ok := t.(*types.Slice); ok {
		if b, ok := sl.Elem().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return sl.Elem(), b
		}
	}
	return nil, nil
}

// typeHint suggests what to write instead of an unsupported field type.
func typeHint(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		if _, ok := p.Elem().Underlying().(*types.Slice); ok {
			return " (use " + typeString(p.Elem()) + " itself: nil already means missing)"
		}
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return "; to ask for the fields of " + typeString(t) + ", embed it (write " + typeString(t) + " without a field name) and tag its fields"
	case *types.Slice:
		return "; for a multi select use []string with enum=a|b|c, or a slice of a named string type with constants"
	case *types.Map:
		return "; ask for each entry as its own field"
	case *types.Basic:
		if u.Kind() == types.Uintptr || u.Info()&types.IsComplex != 0 {
			return "; use an int or float type"
		}
	}
	return ""
}

func typeRef(t types.Type) TypeRef {
	// An alias is written as the user wrote it (type Name = string: Name),
	// unless it has type arguments, which TypeRef cannot spell: then as what
	// it stands for.
	if a, ok := t.(*types.Alias); ok {
		if a.TypeArgs().Len() > 0 {
			return typeRef(types.Unalias(a))
		}
		path := ""
		if a.Obj().Pkg() != nil {
			path = a.Obj().Pkg().Path()
		}
		return TypeRef{Path: path, Name: a.Obj().Name()}
	}
	if n, ok := t.(*types.Named); ok {
		path := ""
		if n.Obj().Pkg() != nil {
			path = n.Obj().Pkg().Path()
		}
		return TypeRef{Path: path, Name: n.Obj().Name()}
	}
	if b, ok := t.(*types.Basic); ok {
		return TypeRef{Name: b.Name()}
	}
	return TypeRef{Name: t.String()}
}

// constEnum sets f.Enum to the typed constants of the named string type
// declared in its package, in source order, with their line comments as
// titles (f.Titled when every constant has one), the way stringer finds
// constants. A type whose constants are only partly titled is reported at
// the field and constEnum returns false: the select would silently lose
// every title (MCP 2026-07-28, client/elicitation, requested schema: a titled
// select is a oneOf, or for a multi select an anyOf, of {"const","title"}
// pairs, one for each choice).
func (a *analyzer) constEnum(f *Field, named *types.Named) bool {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return true
	}
	var consts []*types.Const
	scope := obj.Pkg().Scope()
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if ok && types.Identical(c.Type(), named) && c.Val().Kind() == constant.String {
			consts = append(consts, c)
		}
	}
	// Source order by file name, then offset: a token.Pos alone orders files
	// as the loader happened to add them, which concurrent parsing varies.
	slices.SortFunc(consts, func(x, y *types.Const) int {
		px, py := a.fset.Position(x.Pos()), a.fset.Position(y.Pos())
		return cmp.Or(cmp.Compare(px.Filename, py.Filename), cmp.Compare(px.Offset, py.Offset))
	})
	var titledConst, untitled *types.Const
	for _, c := range consts {
		if a.constDocs[c.Pos()] != "" {
			titledConst = cmp.Or(titledConst, c)
		} else {
			untitled = cmp.Or(untitled, c)
		}
	}
	if titledConst != nil && untitled != nil {
		at := a.fset.Position(untitled.Pos())
		a.diags = append(a.diags, Diagnostic{Pos: f.Pos, Related: []Related{{Pos: at, Message: untitled.Name() + " has no line comment"}},
			Message: fmt.Sprintf("%s has type %s, whose constants are only partly titled: %s has a line comment (its title) but %s (%s) has none; give every constant of %s a line comment, or none", f.GoName, obj.Name(), titledConst.Name(), untitled.Name(), constAt(at), obj.Name())})
		return false
	}
	f.Enum = make([]EnumItem, 0, len(consts))
	for _, c := range consts {
		item := EnumItem{Value: constant.StringVal(c.Val()), Title: a.constDocs[c.Pos()]}
		if c.Exported() || c.Pkg() == a.types {
			item.Const = TypeRef{Path: c.Pkg().Path(), Name: c.Name()}
		}
		f.Enum = append(f.Enum, item)
	}
	f.Titled = titledConst != nil
	return true
}

func constAt(p token.Position) string { return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line) }

// emptyOption returns the bytes [s, e) to delete from tag for an empty
// option at off (two commas in a row, or a trailing comma): the option's
// spaces and one comma.
func emptyOption(tag string, off int) (s, e int, ok bool) {
	j := off
	for j < len(tag) && isTagSpace(tag[j]) {
		j++
	}
	switch {
	case j < len(tag) && tag[j] == ',':
		return off, j + 1, true
	case j == len(tag) && off > 0 && tag[off-1] == ',':
		return off - 1, j, true
	}
	return 0, 0, false
}

// secrets decides whether f is a secret (Field.Secret) and checks the
// options that say so. A form (MCP 2026-07-28, client/elicitation, "Form
// mode": servers MUST NOT request passwords, API keys, access tokens or
// payment credentials through it) asks no secret: a field whose name looks
// like one is reported unless its tag says notsecret. A URL-mode question
// (//mcpgen:question url) is answered on the server's own page, so it may
// ask one: such a field, or one tagged secret, is Secret and its page input
// a password input. A URL question cannot have choices either: its page is
// written at generation time, before any run-time option is known.
func (a *analyzer) secrets(f *Field, c *fieldCand, byKey map[string]Option) bool {
	v := c.v
	ns, notSecret := byKey["notsecret"]
	o, tagged := byKey["secret"]
	switch {
	case tagged && notSecret:
		a.optionError(c, ns, nil, "elicit tag on %s: both secret and notsecret; keep one", v.Name())
		return false
	case tagged && !a.urlQuestion:
		a.optionError(c, o, nil, "elicit tag on %s: secret applies to a field of a URL-mode question (a struct with //mcpgen:question url; "+
			"docs/questions.md, \"Secrets: URL mode\"): a form may not ask for a secret at all", v.Name())
		return false
	case a.urlQuestion && f.JSONName == csrfField:
		a.nameErrorf(v, "%s has the JSON name %q, which the page of a URL-mode question gives its CSRF token (package runtime/page); "+
			"name it otherwise in its json tag", v.Name(), csrfField)
		return false
	case a.urlQuestion && f.Choices:
		a.optionError(c, byKey["choices"], nil, "elicit tag on %s: a URL-mode question cannot have choices: its page is written when mcpgen runs, "+
			"before any run-time option is known; give the options with enum=a|b|c or a named string type's constants", v.Name())
		return false
	}
	word, where := "", ""
	if !notSecret {
		word, where = secretLooks(f)
	}
	if word == "" && !tagged {
		return true
	}
	if !a.urlQuestion {
		a.nameErrorf(v, "%s looks like a secret (%q%s): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; "+
			"ask it in a URL-mode question (a struct with //mcpgen:question url; docs/questions.md, \"Secrets: URL mode\"), "+
			"or add notsecret to the elicit tag if it is not a secret", v.Name(), word, where)
		return false
	}
	text := (f.Kind == String || f.Kind == Integer || f.Kind == Number) && len(f.Enum) == 0
	switch {
	case !text && tagged:
		a.optionError(c, o, nil, "elicit tag on %s: secret applies to a string or a number typed in, not to a %s", v.Name(), kindNoun(f))
		return false
	case !text:
		return true // a select or a checkbox: nothing is typed, so nothing to hide
	case f.Default != nil:
		hint := ""
		if !tagged {
			hint = fmt.Sprintf(" (it looks like a secret: %q%s; add notsecret if it is not one)", word, where)
		}
		a.optionError(c, byKey["default"], nil, "elicit tag on %s: a secret has no default: the page never shows a secret; remove default=%s", v.Name(), hint)
		return false
	}
	f.Secret = true
	return true
}

// csrfField is the name of the hidden input that carries the CSRF token in
// the page of a URL-mode question (package runtime/page, its csrfField): no
// field of such a question may have it as its JSON name.
const csrfField = "csrf_token"

// kindNoun names what a field is on a form, for messages.
func kindNoun(f *Field) string {
	switch {
	case f.Kind == MultiSelect:
		return "multi select"
	case len(f.Enum) > 0:
		return "select"
	case f.Kind == Boolean:
		return "bool"
	case f.Kind == DateTime:
		return "date"
	}
	return f.Kind.String()
}
