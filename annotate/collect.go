package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// fieldCand is one field of a tool's argument struct as encoding/json sees
// it (promoted fields of embedded structs included), before [analyzer.resolve]
// settles which of the fields sharing a JSON name encoding/json fills.
type fieldCand struct {
	v      *types.Var
	path   []string
	json   string
	depth  int
	named  bool // JSON name from a json tag
	elicit string
	hasTag bool
	jsTag  string
	src    *tagSource     // where the tag's bytes are in the source; nil without a tag literal
	fpos   token.Position // the field
	top    token.Position // the field of the root struct it comes from (an embedded one, when promoted)
	tags   string         // the whole struct tag
	viaPtr bool           // promoted through an embedded pointer
}

// collect walks the struct's fields with encoding/json's rules for embedding.
// viaPtr: st is reached through an embedded pointer.
func (a *analyzer) collect(st *types.Struct, path []string, depth int, viaPtr bool, seen map[types.Type]bool, out *[]*fieldCand) {
	for i := 0; i < st.NumFields(); i++ {
		a.collectField(st, i, path, depth, viaPtr, seen, out)
	}
}

// collectField is collect's step for field i of st: its tags checked, an
// embedded struct's fields collected in its place, and a field that can be
// an argument appended to out.
func (a *analyzer) collectField(st *types.Struct, i int, path []string, depth int, viaPtr bool, seen map[types.Type]bool, out *[]*fieldCand) {
	v := st.Field(i)
	rawTag := st.Tag(i)
	fpos := a.fset.Position(v.Pos())
	if depth == 0 {
		a.top = fpos
	}
	tag := reflect.StructTag(rawTag)
	elicit, hasElicit := tag.Lookup("elicit")
	if strings.TrimSpace(elicit) == "-" {
		hasElicit = false // "never elicit": a plain argument, checked as one
	}
	jname, ok := a.checkTags(v, tag, fpos, hasElicit)
	if !ok {
		return
	}
	if v.Embedded() && jname == "" && a.collectEmbedded(st, v, path, depth, viaPtr, seen, out) {
		return
	}
	if !a.argumentField(v, hasElicit, fpos) {
		return
	}
	c := &fieldCand{v: v, path: append(append([]string(nil), path...), v.Name()), json: jname, depth: depth,
		named: jname != "", elicit: elicit, hasTag: hasElicit, jsTag: tag.Get("jsonschema"), top: a.top, tags: string(tag), viaPtr: viaPtr}
	if c.json == "" {
		c.json = v.Name()
	}
	c.src, c.fpos = newTagSource(a.fset, a.astFields[v.Pos()]), fpos
	*out = append(*out, c)
}

// checkTags reports what is wrong with field v's struct tag as a whole
// (malformed, a key twice, json's ,string on an elicitable field, a JSON
// name encoding/json ignores, json:"-") and returns the JSON name, with
// false when the field is no argument at all.
func (a *analyzer) checkTags(v *types.Var, tag reflect.StructTag, fpos token.Position, hasElicit bool) (jname string, ok bool) {
	rawTag := string(tag)
	if hasElicit || strings.Contains(rawTag, "elicit") {
		if msg := checkStructTag(rawTag); msg != "" {
			d := Diagnostic{Pos: fpos, Message: fmt.Sprintf("malformed struct tag on %s: %s; write key:\"value\" pairs separated by spaces, e.g. `json:\"name\" elicit:\"optional\"`", v.Name(), msg)}
			if af := a.astFields[v.Pos()]; af != nil && af.Tag != nil {
				d.Pos, d.End = a.fset.Position(af.Tag.Pos()), a.fset.Position(af.Tag.End())
			}
			a.diags = append(a.diags, d)
			return "", false
		}
	}
	if !hasElicit {
		a.checkElicitKey(v, rawTag, fpos)
	}
	if dup := repeatedKey(rawTag, "elicit", "json", "jsonschema"); dup != "" {
		a.nameErrorf(v, "the struct tag of %s has the key %s twice: reflect.StructTag reads the first only, so the second is silently ignored; merge them into one %s:\"…\"", v.Name(), dup, dup)
		return "", false
	}
	jsonTag := tag.Get("json")
	if _, opts, _ := strings.Cut(jsonTag, ","); hasElicit && slices.Contains(strings.Split(opts, ","), "string") && v.Exported() {
		a.nameErrorf(v, "%s has the json option ,string, which a form cannot follow (an answer arrives as a JSON value of the field's type, as the requestedSchema says, never inside a string); remove ,string, or the elicit tag to keep it a plain argument", v.Name())
		return "", false
	}
	jname, _, _ = strings.Cut(jsonTag, ",")
	if jname != "" && jsonTag != "-" && !validJSONName(jname) {
		a.nameErrorf(v, "%s has json name %q, which encoding/json ignores (it reads the field as %q while a JSON Schema names it %q): use letters, digits, spaces and the punctuation !#$%%&()*+-./:;<=>?@[]^_{|}~", v.Name(), jname, v.Name(), jname)
		return "", false
	}
	if jsonTag == "-" {
		if hasElicit {
			a.nameErrorf(v, "%s has json:\"-\", so it never arrives in arguments and cannot be elicited; remove the elicit tag or the json tag", v.Name())
		}
		return "", false
	}
	return jname, true
}

// collectEmbedded collects the fields of v, an embedded struct without a
// JSON name, in its place (reporting an embedded pointer to elicitable
// fields), and reports whether v was such a struct.
func (a *analyzer) collectEmbedded(st *types.Struct, v *types.Var, path []string, depth int, viaPtr bool, seen map[types.Type]bool, out *[]*fieldCand) bool {
	t := v.Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	if est, ok := t.Underlying().(*types.Struct); ok && !isTime(t) {
		if seen[t] {
			return true
		}
		if ptr && structHasElicit(est, nil) {
			a.nameErrorf(v, "embedded pointer *%s holds elicit fields; embed %s by value so its fields can be set", typeString(t), typeString(t))
			if af := a.astFields[v.Pos()]; af != nil {
				if star, ok := af.Type.(*ast.StarExpr); ok && !holdsByValue(t, st, map[types.Type]bool{}) {
					at := a.fset.Position(star.Star)
					next := at
					next.Offset, next.Column = at.Offset+1, at.Column+1
					a.diags[len(a.diags)-1].SuggestedFixes = []SuggestedFix{{Message: "Embed " + typeString(t) + " by value", Edits: []TextEdit{{Pos: at, End: next}}}}
				}
			}
			return true
		}
		seen[t] = true
		a.collect(est, append(append([]string(nil), path...), v.Name()), depth+1, viaPtr || ptr, seen, out)
		delete(seen, t)
		return true
	}
	return false
}

// argumentField reports whether field v can be an argument: exported, not
// holding elicit tags in a nested object, of a type the package declares.
func (a *analyzer) argumentField(v *types.Var, hasElicit bool, fpos token.Position) bool {
	if !v.Exported() {
		switch {
		case hasElicit && v.Name() == "_":
			a.nameErrorf(v, "a blank field (_) is never set, so it cannot be elicited; give it a name or remove its elicit tag")
		case hasElicit:
			a.nameErrorf(v, "%s is unexported, so encoding/json cannot set it; export it (%s) and name it in JSON with a json tag", v.Name(), exportName(v.Name()))
		}
		return false
	}
	if inner := nestedElicit(v.Type(), map[types.Type]bool{}); inner != nil {
		how := "embed " + typeString(inner) + " without a json name to ask its fields here"
		if _, named := types.Unalias(inner).(*types.Named); !named {
			how = "move its fields into this struct to ask them"
		}
		a.nameErrorf(v, "%s's type %s holds fields with elicit tags (in %s), which are never asked there: a form is flat "+
			"(a requestedSchema holds no nested objects, MCP 2026-07-28 client/elicitation); %s, or drop their elicit tags",
			v.Name(), typeString(v.Type()), typeString(inner), how)
		return false
	}
	if invalidType(v.Type()) {
		// A type error the compiler reports (or a name only mcpgen's
		// output declares): not the tag's fault, so no diagnostic here.
		a.unresolved = append(a.unresolved, Diagnostic{Pos: fpos, Message: fmt.Sprintf(
			"the type of %s names something only mcpgen's output declares; mcpgen builds its model before generating, so give %s a type the package itself declares", v.Name(), v.Name())})
		return false
	}
	return true
}

// nestedElicit returns the struct type, other than time.Time, that a field
// of type t holds as a nested JSON object at any depth (t itself, what a
// pointer, slice, array or map of it holds, or a field of such a struct,
// as encoding/json reads it) when that struct has fields with elicit tags,
// which no form can ask; nil otherwise. seen guards against recursive
// types.
func nestedElicit(t types.Type, seen map[types.Type]bool) types.Type {
	// Pointers, slices, arrays and maps (channels too, which encoding/json
	// refuses anyway) hold their Elem.
	for {
		u, ok := t.Underlying().(interface{ Elem() types.Type })
		if !ok {
			break
		}
		t = u.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || isTime(t) || seen[t] {
		return nil
	}
	seen[t] = true
	if structHasElicit(st, nil) {
		return t
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() && !f.Embedded() || reflect.StructTag(st.Tag(i)).Get("json") == "-" {
			continue // encoding/json never reads it
		}
		if inner := nestedElicit(f.Type(), seen); inner != nil {
			return inner
		}
	}
	return nil
}

// holdsByValue reports whether a value of type t holds a value of struct
// st (as a field, an array element, at any depth): embedding t by value in
// st would then make an invalid recursive type.
func holdsByValue(t types.Type, st *types.Struct, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if types.Identical(u, st) {
			return true
		}
		for i := 0; i < u.NumFields(); i++ {
			if holdsByValue(u.Field(i).Type(), st, seen) {
				return true
			}
		}
	case *types.Array:
		return holdsByValue(u.Elem(), st, seen)
	}
	return false
}

// structHasElicit reports whether st or a struct embedded in it (at any
// depth, by value or pointer) has a field with an elicit tag. seen guards
// against embedding cycles (type A struct{ *A }).
func structHasElicit(st *types.Struct, seen map[*types.Struct]bool) bool {
	if seen[st] {
		return false
	}
	if seen == nil {
		seen = map[*types.Struct]bool{}
	}
	seen[st] = true
	for i := 0; i < st.NumFields(); i++ {
		if v, ok := reflect.StructTag(st.Tag(i)).Lookup("elicit"); ok && strings.TrimSpace(v) != "-" {
			return true
		}
		if st.Field(i).Embedded() {
			t := st.Field(i).Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if est, ok := t.Underlying().(*types.Struct); ok && structHasElicit(est, seen) {
				return true
			}
		}
	}
	return false
}

// resolve applies encoding/json's dominance rules to JSON names (the rules of
// encoding/json's typeFields/dominantField: among fields sharing a JSON name,
// the shallowest wins; at equal depth a json-tagged field beats untagged ones;
// otherwise all of them are hidden) and builds the elicitable fields and the
// plain arguments (the other fields encoding/json fills). An
// elicit tag on a field that encoding/json hides is an error: no argument or
// answer could ever set it.
func (a *analyzer) resolve(cands []*fieldCand) ([]*Field, []*Arg) {
	byName := map[string][]*fieldCand{}
	for _, c := range cands {
		byName[c.json] = append(byName[c.json], c)
	}
	var fields []*Field
	var args []*Arg
	var kept []*fieldCand
	defer func() { a.foldCollisions(kept) }()
	for _, c := range cands {
		group := byName[c.json]
		if len(group) > 1 {
			win := dominant(group)
			if win == nil && group[0] == c && anyTagged(group) { // report once
				d := Diagnostic{Pos: group[len(group)-1].top, Message: hiddenMsg(c, nil, group)}
				for _, g := range group[:len(group)-1] {
					d.Related = append(d.Related, Related{Pos: g.fpos, Message: "also named " + strconv.Quote(c.json) + ": " + strings.Join(g.path, ".")})
				}
				a.diags = append(a.diags, d)
			}
			if win != c {
				if win != nil && c.hasTag {
					a.diags = append(a.diags, Diagnostic{Pos: c.top, Message: hiddenMsg(c, win, group),
						Related: []Related{{Pos: win.fpos, Message: "the field encoding/json uses: " + strings.Join(win.path, ".")}}})
				}
				continue
			}
		}
		if !c.hasTag { // elicit:"-" included: "never elicit", a plain argument
			if jsonless(c.v.Type()) {
				a.nameErrorf(c.v, "%s has type %s, which holds a channel, a function, a complex number or an unsafe.Pointer: JSON cannot carry it, and the tool's input schema cannot describe it; tag it json:\"-\" to keep it out of the arguments", c.v.Name(), typeString(c.v.Type()))
				continue
			}
			args = append(args, a.argModel(c))
			kept = append(kept, c)
			continue
		}
		if f := a.fieldModel(c); f != nil {
			f.DecodesItself = decodesItself(c.v.Type())
			fields = append(fields, f)
			kept = append(kept, c)
		}
	}
	return fields, args
}

// foldCollisions reports the fields of kept (those encoding/json fills)
// whose JSON names differ only in case (strings.EqualFold, how encoding/json
// matches keys): encoding/json would fill either field from either key, so
// the runtime refuses arguments that hold both keys with -32602, and the
// tool would declare two arguments no call can pass together.
func (a *analyzer) foldCollisions(kept []*fieldCand) {
	for i, c := range kept {
		for _, prev := range kept[:i] {
			if prev.json != c.json && strings.EqualFold(prev.json, c.json) {
				a.diags = append(a.diags, Diagnostic{Pos: c.top,
					Message: fmt.Sprintf("JSON names %q (%s) and %q (%s) differ only in case: encoding/json matches keys without regard to case, so no call could pass both (the runtime refuses such arguments); give one of them another json name",
						c.json, strings.Join(c.path, "."), prev.json, strings.Join(prev.path, ".")),
					Related: []Related{{Pos: prev.fpos, Message: "the other field: " + strings.Join(prev.path, ".")}}})
				break
			}
		}
	}
}

// dominant returns the field encoding/json uses for a JSON name shared by
// several fields, or nil when they hide each other.
func dominant(group []*fieldCand) *fieldCand {
	sorted := append([]*fieldCand(nil), group...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].depth != sorted[j].depth {
			return sorted[i].depth < sorted[j].depth
		}
		return sorted[i].named && !sorted[j].named
	})
	if len(sorted) > 1 && sorted[0].depth == sorted[1].depth && sorted[0].named == sorted[1].named {
		return nil
	}
	return sorted[0]
}

func anyTagged(group []*fieldCand) bool {
	for _, g := range group {
		if g.hasTag {
			return true
		}
	}
	return false
}

func hiddenMsg(c, win *fieldCand, group []*fieldCand) string {
	var names []string
	for _, g := range group {
		names = append(names, strings.Join(g.path, "."))
	}
	if win != nil {
		return fmt.Sprintf("JSON name %q is used by %s: encoding/json would use only %s and ignore %s, so its elicit tag can never be answered; give it a distinct json tag or remove the elicit tag",
			c.json, strings.Join(names, " and "), strings.Join(win.path, "."), strings.Join(c.path, "."))
	}
	return fmt.Sprintf("JSON name %q is used by %s: at the same depth, so encoding/json would drop all of them; give each a distinct json tag",
		c.json, strings.Join(names, " and "))
}

// jsonless reports whether the tool's input schema cannot describe a value
// of type t: invopop/jsonschema, which writes it, refuses a channel, a
// function, a complex number and an unsafe.Pointer (as encoding/json does:
// "Channel, complex, and function values cannot be encoded in JSON")
// wherever it meets one, through pointers, slices, arrays, map values and
// the exported fields of structs not tagged json:"-"; a type with a
// JSONSchema or JSONSchemaAlias method describes itself and is not walked.
func jsonless(t types.Type) bool { return jsonlessIn(t, map[types.Type]bool{}) }

func jsonlessIn(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	ms := types.NewMethodSet(types.NewPointer(t))
	if ms.Lookup(nil, "JSONSchema") != nil || ms.Lookup(nil, "JSONSchemaAlias") != nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	case *types.Basic:
		switch u.Kind() {
		case types.Complex64, types.Complex128, types.UnsafePointer:
			return true
		}
	case *types.Pointer:
		return jsonlessIn(u.Elem(), seen)
	case *types.Slice:
		return jsonlessIn(u.Elem(), seen)
	case *types.Array:
		return jsonlessIn(u.Elem(), seen)
	case *types.Map:
		return jsonlessIn(u.Elem(), seen)
	case *types.Struct:
		if isTime(t) {
			return false
		}
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if (f.Exported() || f.Embedded()) && reflect.StructTag(u.Tag(i)).Get("json") != "-" && jsonlessIn(f.Type(), seen) {
				return true
			}
		}
	}
	return false
}
