package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

type analyzer struct {
	fset        *token.FileSet
	types       *types.Package
	files       []*ast.File
	info        *types.Info
	diags       []Diagnostic
	taggedNames []string                 // structs tagged or named by -type: their generated identifiers are tolerated
	astFields   map[token.Pos]*ast.Field // field name (or embedded type) position → AST field
	constDocs   map[token.Pos]string     // constant name position → its line comment
	top         token.Position           // collect: the root struct's field being walked
}

func (a *analyzer) errorf(pos token.Position, format string, args ...any) {
	a.diags = append(a.diags, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

func (a *analyzer) run(wanted, found map[string]bool) *Package {
	model := &Package{Name: a.types.Name(), Path: a.types.Path()}
	for _, f := range a.files {
		if name := a.fset.Position(f.Package).Filename; name != "" {
			model.Dir = filepath.Dir(name)
			break
		}
	}
	a.astFields = map[token.Pos]*ast.Field{}
	a.constDocs = map[token.Pos]string{}
	type cand struct {
		gd *ast.GenDecl
		ts *ast.TypeSpec
		f  *ast.File
	}
	var cands []cand
	for _, file := range a.files {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							if len(fl.Names) == 0 {
								a.astFields[embeddedIdentPos(fl.Type)] = fl
							}
							for _, n := range fl.Names {
								a.astFields[n.Pos()] = fl
							}
						}
					}
					cands = append(cands, cand{gd, s, file})
				case *ast.ValueSpec:
					if gd.Tok == token.CONST && s.Comment != nil {
						for _, n := range s.Names {
							a.constDocs[n.Pos()] = strings.TrimSpace(s.Comment.Text())
						}
					}
				}
			}
		}
	}
	for _, c := range cands {
		name := c.ts.Name.Name
		st, isStruct := c.ts.Type.(*ast.StructType)
		annotated := isStruct && (a.hasElicitTag(c.ts, st) || declaresTool(structDoc(c.gd, c.ts)))
		if isStruct && (wanted[name] || annotated) {
			a.taggedNames = append(a.taggedNames, name)
		}
		if len(wanted) > 0 {
			if !wanted[name] {
				continue
			}
			found[name] = true
			if !isStruct {
				a.errorf(a.fset.Position(c.ts.Name.Pos()), "-type %s: %s is not a struct type", name, name)
				continue
			}
		} else if !annotated {
			continue
		}
		if c.ts.TypeParams != nil {
			a.errorf(a.fset.Position(c.ts.Name.Pos()), "%s has type parameters; mcpgen generates methods for a concrete struct only: declare a struct without type parameters and tag its fields", name)
			continue
		}
		obj, _ := a.info.Defs[c.ts.Name].(*types.TypeName)
		if obj == nil {
			continue
		}
		s := a.structModel(obj, c.gd, c.ts)
		if s != nil {
			s.Derive()
			s.HandlerDeclared = a.declaredByUser(s.Names.HandlerType)
			model.Structs = append(model.Structs, s)
		}
	}
	a.collide(model)
	model.Directives = directives(a.fset, a.files)
	return model
}

// declaredByUser reports whether the package scope declares name in a file
// that is not mcpgen's own output.
func (a *analyzer) declaredByUser(name string) bool {
	obj := a.types.Scope().Lookup(name)
	return obj != nil && a.inUserFile(obj.Pos())
}

// isOwnOutput reports whether a parsed file starts with [GeneratedHeader].
func isOwnOutput(f *ast.File) bool {
	return len(f.Comments) > 0 && f.Comments[0].Pos() == f.FileStart && isHeaderLine(f.Comments[0].List[0].Text)
}

func embeddedIdentPos(e ast.Expr) token.Pos {
	switch t := e.(type) {
	case *ast.StarExpr:
		return embeddedIdentPos(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Pos()
	case *ast.IndexExpr:
		return embeddedIdentPos(t.X)
	}
	return e.Pos()
}

// structDoc returns the doc comment of a type declaration: the spec's own,
// or the declaration's when it declares that one type.
func structDoc(gd *ast.GenDecl, ts *ast.TypeSpec) *ast.CommentGroup {
	if ts.Doc == nil && len(gd.Specs) == 1 {
		return gd.Doc
	}
	return ts.Doc
}

// declaresTool reports whether a doc comment has //mcpgen:tool or
// //mcpgen:question: the struct is a tool's arguments (or a question) even
// when none of its fields has an elicit tag, so that a tool which asks
// nothing before its branch (only questions in the middle of it, with
// runtime.Ask) is generated without -type.
func declaresTool(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if text, ok := strings.CutPrefix(c.Text, "//mcpgen:"); ok {
			if verb, _, _ := strings.Cut(text, " "); verb == "tool" || verb == "question" {
				return true
			}
		}
	}
	return false
}

// hasElicitTag reports whether a struct declaration has a field with an elicit
// tag, directly or through an embedded struct (whose promoted fields would
// be elicited).
func (a *analyzer) hasElicitTag(ts *ast.TypeSpec, st *ast.StructType) bool {
	if obj, _ := a.info.Defs[ts.Name].(*types.TypeName); obj != nil {
		if s, ok := obj.Type().Underlying().(*types.Struct); ok && structHasElicit(s, nil) {
			return true
		}
	}
	for _, f := range st.Fields.List {
		if f.Tag != nil {
			if s, err := strconv.Unquote(f.Tag.Value); err == nil {
				if _, ok := reflect.StructTag(s).Lookup("elicit"); ok {
					return true
				}
			} else if strings.Contains(f.Tag.Value, "elicit:") {
				return true
			}
		}
	}
	return false
}

func (a *analyzer) structModel(obj *types.TypeName, gd *ast.GenDecl, ts *ast.TypeSpec) *Struct {
	pos := a.fset.Position(ts.Name.Pos())
	s := &Struct{Name: obj.Name(), Pos: pos, File: pos.Filename}
	doc := structDoc(gd, ts)
	a.directives(s, doc)
	if s.Tool == "" && !s.Question {
		s.Tool = defaultToolName(s.Name)
	}
	if s.Key == "" && !s.Question {
		s.Key = s.Tool
	}
	st := obj.Type().Underlying().(*types.Struct)
	var cands []*fieldCand
	a.collect(st, nil, 0, false, map[types.Type]bool{}, &cands)
	s.Fields, s.Args = a.resolve(cands)
	if s.Question {
		s.Args = nil // a question's struct is filled from a form, never from arguments
	}
	s.DecodesItself = decodesItself(obj.Type())
	named := map[string]bool{}
	for _, fd := range s.Fields {
		named[fd.JSONName] = true
	}
	for _, g := range s.Args {
		named[g.JSONName] = true
	}
	for _, c := range cands {
		if named[c.json] {
			s.Order = append(s.Order, c.json)
			delete(named, c.json)
		}
	}
	if !structHasElicit(st, nil) {
		a.checkNothingAsked(s, doc)
	}
	return s
}

// checkNothingAsked reports what cannot work on a struct none of whose
// fields has an elicit tag: a question with nothing to ask, and the
// directives of a tool's form, which such a tool never shows (it asks
// nothing before Accept, its only branch; a question asked in the middle of
// it has its own message and is keyed by the name the branch gives it).
func (a *analyzer) checkNothingAsked(s *Struct, doc *ast.CommentGroup) {
	if s.Question {
		a.errorf(s.Pos, "%s is a //mcpgen:question without an elicit field, so runtime.Ask would have nothing to ask; tag the fields to ask with elicit:\"…\"", s.Name)
		return
	}
	if doc == nil {
		return
	}
	for _, c := range doc.List {
		text, ok := strings.CutPrefix(c.Text, "//mcpgen:")
		if !ok {
			continue
		}
		verb, _, _ := strings.Cut(text, " ")
		var why string
		switch verb {
		case "message":
			why = "the message of a question asked in Accept is the question's own //mcpgen:message or runtime.AskOptions.Message"
		case "key":
			why = "a question asked in Accept is keyed by the name given to runtime.Ask"
		case "unsealed":
			why = "there is no form answer to accept without requestState"
		case "enumnames":
			why = "a question asked in Accept takes //mcpgen:enumnames on its own struct"
		default:
			continue
		}
		a.errorf(a.fset.Position(c.Pos()), "//mcpgen:%s does nothing on %s: it has no elicit field, so no form is asked before Accept, its only branch, and %s; remove the directive", verb, s.Name, why)
	}
}

// directives reads //mcpgen: lines from the struct's doc comment.
func (a *analyzer) directives(s *Struct, doc *ast.CommentGroup) {
	if doc == nil {
		return
	}
	for _, c := range doc.List {
		text, ok := strings.CutPrefix(c.Text, "//mcpgen:")
		if !ok {
			continue
		}
		p := a.fset.Position(c.Pos())
		verb, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		if toolOnly[verb] && questionDirective(doc) {
			a.errorf(p, "//mcpgen:%s applies to a tool's arguments, not to a //mcpgen:question (a question is asked with runtime.Ask under the name the branch gives it)", verb)
			continue
		}
		switch verb {
		case "question":
			if rest != "" {
				a.errorf(p, "//mcpgen:question takes no value (got %q); its message is //mcpgen:message or runtime.AskOptions.Message", rest)
			}
			s.Question = true
		case "message":
			if rest == "" {
				a.errorf(p, "//mcpgen:message needs the message text")
			}
			s.Message = rest
		case "tool":
			name, desc, _ := strings.Cut(rest, " ")
			if !validToolName(name) {
				a.errorf(p, "//mcpgen:tool needs a tool name of letters, digits, '_', '-' or '.' (got %q)", name)
			}
			s.Tool, s.ToolDescription = name, strings.TrimSpace(desc)
		case "key":
			if !validToolName(rest) {
				a.errorf(p, "//mcpgen:key needs a key of letters, digits, '_', '-' or '.' (got %q)", rest)
			}
			s.Key = rest
		case "unsealed":
			s.Unsealed = true
		case "enumnames":
			if rest != "" {
				a.errorf(p, "//mcpgen:enumnames takes no value (got %q)", rest)
			}
			s.LegacyEnumNames = true
		case "rounds":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > 10 {
				a.errorf(p, "//mcpgen:rounds needs a whole number from 1 to 10 (got %q)", rest)
			}
			s.MaxRounds = n
		default:
			a.errorf(p, "unknown directive //mcpgen:%s; known: message, tool, key, unsealed, rounds, enumnames, question", verb)
		}
	}
}

// toolOnly are the directives that configure a tool, not a question.
var toolOnly = map[string]bool{"tool": true, "key": true, "unsealed": true, "rounds": true}

// questionDirective reports whether a doc comment has //mcpgen:question.
func questionDirective(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if c.Text == "//mcpgen:question" || strings.HasPrefix(c.Text, "//mcpgen:question ") {
			return true
		}
	}
	return false
}

func validToolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// defaultToolName is snake_case of the type name without an Args, Input,
// Params or Arguments suffix: BookFlightArgs → book_flight.
func defaultToolName(name string) string {
	for _, suf := range []string{"Arguments", "Args", "Input", "Params"} {
		if t, ok := strings.CutSuffix(name, suf); ok && t != "" {
			name = t
			break
		}
	}
	words := splitWords(name)
	for i := range words {
		words[i] = strings.ToLower(words[i])
	}
	return strings.Join(words, "_")
}

type fieldCand struct {
	v        *types.Var
	path     []string
	json     string
	depth    int
	named    bool // JSON name from a json tag
	elicit   string
	hasTag   bool
	jsTag    string
	tagStart token.Position // start of the elicit tag value, or the field position
	top      token.Position // the field of the root struct it comes from (an embedded one, when promoted)
	rawTag   bool           // tagStart is exact (raw string literal)
	tags     string         // the whole struct tag
	viaPtr   bool           // promoted through an embedded pointer
}

// collect walks the struct's fields with encoding/json's rules for embedding.
// viaPtr: st is reached through an embedded pointer.
func (a *analyzer) collect(st *types.Struct, path []string, depth int, viaPtr bool, seen map[types.Type]bool, out *[]*fieldCand) {
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		rawTag := st.Tag(i)
		fpos := a.fset.Position(v.Pos())
		if depth == 0 {
			a.top = fpos
		}
		tag := reflect.StructTag(rawTag)
		elicit, hasElicit := tag.Lookup("elicit")
		if hasElicit || strings.Contains(rawTag, "elicit") {
			if msg := checkStructTag(rawTag); msg != "" {
				tpos := fpos
				if af := a.astFields[v.Pos()]; af != nil && af.Tag != nil {
					tpos = a.fset.Position(af.Tag.Pos())
				}
				a.errorf(tpos, "malformed struct tag on %s: %s; write key:\"value\" pairs separated by spaces, e.g. `json:\"name\" elicit:\"optional\"`", v.Name(), msg)
				continue
			}
		}
		if !hasElicit {
			a.checkElicitKey(v, rawTag, fpos)
		}
		jsonTag := tag.Get("json")
		jname, _, _ := strings.Cut(jsonTag, ",")
		if jname != "" && jsonTag != "-" && !validJSONName(jname) {
			a.errorf(fpos, "%s has json name %q, which encoding/json ignores (it reads the field as %q while a JSON Schema names it %q): use letters, digits, spaces and the punctuation !#$%%&()*+-./:;<=>?@[]^_{|}~", v.Name(), jname, v.Name(), jname)
			continue
		}
		if jsonTag == "-" {
			if hasElicit {
				a.errorf(fpos, "%s has json:\"-\", so it never arrives in arguments and cannot be elicited; remove the elicit tag or the json tag", v.Name())
			}
			continue
		}
		if v.Embedded() && jname == "" {
			t := v.Type()
			ptr := false
			if p, ok := t.(*types.Pointer); ok {
				t, ptr = p.Elem(), true
			}
			if est, ok := t.Underlying().(*types.Struct); ok && !isTime(t) {
				if seen[t] {
					continue
				}
				if ptr && structHasElicit(est, nil) {
					a.errorf(fpos, "embedded pointer *%s holds elicit fields; embed %s by value so its fields can be set", typeString(t), typeString(t))
					continue
				}
				seen[t] = true
				a.collect(est, append(append([]string(nil), path...), v.Name()), depth+1, viaPtr || ptr, seen, out)
				delete(seen, t)
				continue
			}
		}
		if !v.Exported() {
			if hasElicit {
				a.errorf(fpos, "%s is unexported, so encoding/json cannot set it; export it (%s) and name it in JSON with a json tag", v.Name(), exportName(v.Name()))
			}
			continue
		}
		c := &fieldCand{v: v, path: append(append([]string(nil), path...), v.Name()), json: jname, depth: depth,
			named: jname != "", elicit: elicit, hasTag: hasElicit, jsTag: tag.Get("jsonschema"), top: a.top, tags: rawTag, viaPtr: viaPtr}
		if c.json == "" {
			c.json = v.Name()
		}
		c.tagStart, c.rawTag = a.tagValuePos(v, fpos)
		*out = append(*out, c)
	}
}

// tagValuePos returns the position of the first character of the elicit tag's
// value, exact when the tag is a raw string literal.
func (a *analyzer) tagValuePos(v *types.Var, fallback token.Position) (token.Position, bool) {
	af := a.astFields[v.Pos()]
	if af == nil || af.Tag == nil {
		return fallback, false
	}
	lit := af.Tag.Value
	p := a.fset.Position(af.Tag.Pos())
	if !strings.HasPrefix(lit, "`") || strings.Contains(lit, "\n") {
		return p, false
	}
	idx := strings.Index(lit, `elicit:"`)
	if idx < 0 {
		return p, false
	}
	p.Column += idx + len(`elicit:"`)
	p.Offset += idx + len(`elicit:"`)
	return p, true
}

func (c *fieldCand) at(offset int) token.Position {
	p := c.tagStart
	if c.rawTag {
		p.Column += offset
		p.Offset += offset
	}
	return p
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
		if _, ok := reflect.StructTag(st.Tag(i)).Lookup("elicit"); ok {
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
	for _, c := range cands {
		group := byName[c.json]
		if len(group) > 1 {
			win := dominant(group)
			if win == nil && group[0] == c && anyTagged(group) { // report once
				a.errorf(group[len(group)-1].top, "%s", hiddenMsg(c, nil, group))
			}
			if win != c {
				if win != nil && c.hasTag {
					a.errorf(c.top, "%s", hiddenMsg(c, win, group))
				}
				continue
			}
		}
		if !c.hasTag {
			args = append(args, a.argModel(c))
			continue
		}
		if f := a.fieldModel(c); f != nil {
			f.DecodesItself = decodesItself(c.v.Type())
			fields = append(fields, f)
		}
	}
	return fields, args
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

func isTime(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func exportName(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// validJSONName reports whether encoding/json takes name from a json tag
// (its isValidTag): letters, digits, spaces and most punctuation; not
// backslash, quotes or the comma.
func validJSONName(name string) bool {
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
