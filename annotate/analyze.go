package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/header"
)

type analyzer struct {
	fset        *token.FileSet
	types       *types.Package
	files       []*ast.File
	info        *types.Info
	diags       []Diagnostic
	taggedNames []string                 // structs tagged or named by -type
	unresolved  []Diagnostic             // fields whose type is invalid (see Package.Unresolved)
	astFields   map[token.Pos]*ast.Field // field name (or embedded type) position → AST field
	constDocs   map[token.Pos]string     // constant name position → its line comment
	top         token.Position           // collect: the root struct's field being walked
	urlQuestion bool                     // resolve: the struct is a URL-mode question (Struct.URLMode)
}

func (a *analyzer) errorf(pos token.Position, format string, args ...any) {
	a.diags = append(a.diags, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// nameErrorf reports a problem with the declaration of obj, from its name
// to the name's end.
func (a *analyzer) nameErrorf(obj types.Object, format string, args ...any) {
	pos := a.fset.Position(obj.Pos())
	end := pos
	end.Offset += len(obj.Name())
	end.Column += len(obj.Name())
	a.diags = append(a.diags, Diagnostic{Pos: pos, End: end, Message: fmt.Sprintf(format, args...)})
}

// relatedf reports a problem with the name at pos (of length n) that
// involves another site, rel.
func (a *analyzer) relatedf(pos token.Position, n int, rel Related, format string, args ...any) {
	end := pos
	end.Offset += n
	end.Column += n
	a.diags = append(a.diags, Diagnostic{Pos: pos, End: end, Message: fmt.Sprintf(format, args...), Related: []Related{rel}})
}

func (a *analyzer) run(wanted, found map[string]bool) *Package {
	model := &Package{Name: a.types.Name(), Path: a.types.Path(), TakenNames: takenNames(a.types.Scope())}
	for _, f := range a.files {
		// The file's own name, not one a //line comment gives: that names
		// the source it was produced from, not where the package is.
		if name := a.fset.PositionFor(f.Package, false).Filename; name != "" {
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
	// Every tool of the package by name, whether -type asks for it or not:
	// a second struct under a tool's name would replace the first when both
	// are registered (an SDK keeps one tool per name).
	tools := map[string]token.Position{}
	for _, c := range cands {
		name := c.ts.Name.Name
		st, isStruct := c.ts.Type.(*ast.StructType)
		annotated := isStruct && (a.hasElicitTag(c.ts, st) || declaresTool(structDoc(c.gd, c.ts)))
		if tool, ok := toolNameOf(structDoc(c.gd, c.ts), name); ok && (annotated || isStruct && wanted[name]) {
			if _, seen := tools[tool]; !seen {
				tools[tool] = a.fset.Position(c.ts.Name.Pos())
			}
		}
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
		if s != nil && !s.Question {
			if first := tools[s.Tool]; first != s.Pos {
				a.relatedf(s.Pos, len(s.Name), Related{Pos: first, Message: "the tool's first declaration"},
					"%s declares the tool %s, which another struct of this package declares first: a server keeps one tool per name, so one would replace the other; give one a new name with //mcpgen:tool NAME", s.Name, s.Tool)
			}
		}
		if s != nil {
			s.Derive()
			s.HandlerDeclared = a.declaredByUser(s.Names.HandlerType)
			model.Structs = append(model.Structs, s)
		}
	}
	a.collide(model)
	return model
}

// declaredByUser reports whether the package scope declares name in a file
// that is not mcpgen's own output.
func (a *analyzer) declaredByUser(name string) bool {
	obj := a.types.Scope().Lookup(name)
	return obj != nil && a.inUserFile(obj.Pos())
}

// invalidType reports whether t is, or is built from, the invalid type
// go/types gives an expression it could not resolve.
func invalidType(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return invalidType(t.Elem())
	case *types.Slice:
		return invalidType(t.Elem())
	case *types.Array:
		return invalidType(t.Elem())
	case *types.Map:
		return invalidType(t.Key()) || invalidType(t.Elem())
	case *types.Named:
		_, basic := t.Underlying().(*types.Basic)
		return basic && invalidType(t.Underlying())
	}
	return false
}

// isOwnOutput reports whether a parsed file has a header line of mcpgen's
// before its package clause (see header.IsGenerated).
func isOwnOutput(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if header.IsLine(c.Text) {
				return true
			}
		}
	}
	return false
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

// toolNameOf returns the name of the tool a struct named typeName with doc
// declares (its //mcpgen:tool name, or the one derived from typeName), and
// false for a //mcpgen:question.
func toolNameOf(doc *ast.CommentGroup, typeName string) (string, bool) {
	name := defaultToolName(typeName)
	if doc == nil {
		return name, true
	}
	for _, c := range doc.List {
		text, ok := strings.CutPrefix(c.Text, "//mcpgen:")
		if !ok {
			continue
		}
		verb, rest, _ := strings.Cut(text, " ")
		switch verb {
		case "question":
			return "", false
		case "tool":
			if n, _, _ := strings.Cut(strings.TrimSpace(rest), " "); n != "" {
				name = n
			}
		}
	}
	return name, true
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
	s := &Struct{Name: obj.Name(), Pos: pos, File: a.fset.PositionFor(ts.Name.Pos(), false).Filename}
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
	a.urlQuestion = s.URLMode
	s.Fields, s.Args = a.resolve(cands)
	a.urlQuestion = false
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
		d := Diagnostic{Pos: a.fset.Position(c.Pos()), End: a.fset.Position(c.End()),
			Message: fmt.Sprintf("//mcpgen:%s does nothing on %s: it has no elicit field, so no form is asked before Accept, its only branch, and %s; remove the directive", verb, s.Name, why)}
		if del, ok := a.wholeLine(c); ok {
			d.SuggestedFixes = []SuggestedFix{{Message: "Remove //mcpgen:" + verb, Edits: []TextEdit{del}}}
		}
		a.diags = append(a.diags, d)
	}
}

// wholeLine is the edit that deletes comment c with its line, when c is
// alone on its line from the first column.
func (a *analyzer) wholeLine(c *ast.Comment) (TextEdit, bool) {
	tf := a.fset.File(c.Pos())
	if tf == nil {
		return TextEdit{}, false
	}
	line := tf.Line(c.Pos())
	if tf.LineStart(line) != c.Pos() || line+1 > tf.LineCount() || tf.LineStart(line+1) != c.End()+1 {
		return TextEdit{}, false
	}
	return TextEdit{Pos: a.fset.Position(c.Pos()), End: a.fset.Position(c.End() + 1)}, true
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
			switch {
			case rest == "url":
				s.URLMode = true
			case rest != "" && nearest(rest, []string{"url"}) != "":
				a.directiveError(c, a.commentFix(c, "Replace with //mcpgen:question url", valueAt(c.Text, rest), valueAt(c.Text, rest)+len(rest), "url"),
					"//mcpgen:question takes no value, or url for a URL-mode question (got %q); did you mean //mcpgen:question url?", rest)
			case rest != "":
				a.directiveError(c, a.dropValue(c, verb), "//mcpgen:question takes no value, or url for a URL-mode question (got %q); "+
					"its message is //mcpgen:message or runtime.AskOptions.Message", rest)
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
				a.directiveError(c, a.dropValue(c, verb), "//mcpgen:enumnames takes no value (got %q)", rest)
			}
			s.LegacyEnumNames = true
		case "rounds":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > 10 {
				a.errorf(p, "//mcpgen:rounds needs a whole number from 1 to 10 (got %q)", rest)
			}
			s.MaxRounds = n
		default:
			if near := nearest(verb, directiveVerbs); near != "" {
				a.directiveError(c, a.commentFix(c, "Replace with //mcpgen:"+near, len("//mcpgen:"), len("//mcpgen:")+len(verb), near),
					"unknown directive //mcpgen:%s; did you mean //mcpgen:%s?", verb, near)
				break
			}
			a.errorf(p, "unknown directive //mcpgen:%s; known: %s", verb, strings.Join(directiveVerbs, ", "))
		}
	}
}

// directiveVerbs are the //mcpgen: directives [analyzer.directives] reads.
var directiveVerbs = []string{"message", "tool", "key", "unsealed", "rounds", "enumnames", "question"}

// valueAt is the byte offset of a directive's value, rest, in its comment's
// text (after the verb and its spaces).
func valueAt(text, rest string) int {
	verbEnd := strings.IndexByte(text, ' ')
	return verbEnd + strings.Index(text[verbEnd:], rest)
}

// directiveError reports a problem with directive c, the whole comment.
func (a *analyzer) directiveError(c *ast.Comment, fixes []SuggestedFix, format string, args ...any) {
	a.diags = append(a.diags, Diagnostic{Pos: a.fset.Position(c.Pos()), End: a.fset.Position(c.End()), Message: fmt.Sprintf(format, args...), SuggestedFixes: fixes})
}

// dropValue is the fix that removes the value of directive c (//mcpgen:verb
// value), which takes none.
func (a *analyzer) dropValue(c *ast.Comment, verb string) []SuggestedFix {
	return a.commentFix(c, "Remove the value", len("//mcpgen:")+len(verb), len(c.Text), "")
}

// commentFix is the fix that replaces bytes [s, e) of comment c with
// text; nil when the comment's text is not its source (a carriage return
// dropped by the scanner).
func (a *analyzer) commentFix(c *ast.Comment, msg string, s, e int, text string) []SuggestedFix {
	if int(c.End()-c.Pos()) != len(c.Text) {
		return nil
	}
	return []SuggestedFix{{Message: msg, Edits: []TextEdit{{Pos: a.fset.Position(c.Pos() + token.Pos(s)), End: a.fset.Position(c.Pos() + token.Pos(e)), NewText: text}}}}
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
				d := Diagnostic{Pos: fpos, Message: fmt.Sprintf("malformed struct tag on %s: %s; write key:\"value\" pairs separated by spaces, e.g. `json:\"name\" elicit:\"optional\"`", v.Name(), msg)}
				if af := a.astFields[v.Pos()]; af != nil && af.Tag != nil {
					d.Pos, d.End = a.fset.Position(af.Tag.Pos()), a.fset.Position(af.Tag.End())
				}
				a.diags = append(a.diags, d)
				continue
			}
		}
		if !hasElicit {
			a.checkElicitKey(v, rawTag, fpos)
		}
		if dup := repeatedKey(rawTag, "elicit", "json", "jsonschema"); dup != "" {
			a.nameErrorf(v, "the struct tag of %s has the key %s twice: reflect.StructTag reads the first only, so the second is silently ignored; merge them into one %s:\"…\"", v.Name(), dup, dup)
			continue
		}
		jsonTag := tag.Get("json")
		if _, opts, _ := strings.Cut(jsonTag, ","); hasElicit && slices.Contains(strings.Split(opts, ","), "string") && v.Exported() {
			a.nameErrorf(v, "%s has the json option ,string, which a form cannot follow (an answer arrives as a JSON value of the field's type, as the requestedSchema says, never inside a string); remove ,string, or the elicit tag to keep it a plain argument", v.Name())
			continue
		}
		jname, _, _ := strings.Cut(jsonTag, ",")
		if jname != "" && jsonTag != "-" && !validJSONName(jname) {
			a.nameErrorf(v, "%s has json name %q, which encoding/json ignores (it reads the field as %q while a JSON Schema names it %q): use letters, digits, spaces and the punctuation !#$%%&()*+-./:;<=>?@[]^_{|}~", v.Name(), jname, v.Name(), jname)
			continue
		}
		if jsonTag == "-" {
			if hasElicit {
				a.nameErrorf(v, "%s has json:\"-\", so it never arrives in arguments and cannot be elicited; remove the elicit tag or the json tag", v.Name())
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
					a.nameErrorf(v, "embedded pointer *%s holds elicit fields; embed %s by value so its fields can be set", typeString(t), typeString(t))
					if af := a.astFields[v.Pos()]; af != nil {
						if star, ok := af.Type.(*ast.StarExpr); ok && !holdsByValue(t, st, map[types.Type]bool{}) {
							at := a.fset.Position(star.Star)
							next := at
							next.Offset, next.Column = at.Offset+1, at.Column+1
							a.diags[len(a.diags)-1].SuggestedFixes = []SuggestedFix{{Message: "Embed " + typeString(t) + " by value", Edits: []TextEdit{{Pos: at, End: next}}}}
						}
					}
					continue
				}
				seen[t] = true
				a.collect(est, append(append([]string(nil), path...), v.Name()), depth+1, viaPtr || ptr, seen, out)
				delete(seen, t)
				continue
			}
		}
		if !v.Exported() {
			switch {
			case hasElicit && v.Name() == "_":
				a.nameErrorf(v, "a blank field (_) is never set, so it cannot be elicited; give it a name or remove its elicit tag")
			case hasElicit:
				a.nameErrorf(v, "%s is unexported, so encoding/json cannot set it; export it (%s) and name it in JSON with a json tag", v.Name(), exportName(v.Name()))
			}
			continue
		}
		if inner := nestedElicit(v.Type(), map[types.Type]bool{}); inner != nil {
			how := "embed " + typeString(inner) + " without a json name to ask its fields here"
			if _, named := types.Unalias(inner).(*types.Named); !named {
				how = "move its fields into this struct to ask them"
			}
			a.nameErrorf(v, "%s's type %s holds fields with elicit tags (in %s), which are never asked there: a form is flat "+
				"(a requestedSchema holds no nested objects, MCP 2026-07-28 client/elicitation); %s, or drop their elicit tags",
				v.Name(), typeString(v.Type()), typeString(inner), how)
			continue
		}
		if invalidType(v.Type()) {
			// A type error the compiler reports (or a name only mcpgen's
			// output declares): not the tag's fault, so no diagnostic here.
			a.unresolved = append(a.unresolved, Diagnostic{Pos: fpos, Message: fmt.Sprintf(
				"the type of %s names something only mcpgen's output declares; mcpgen builds its model before generating, so give %s a type the package itself declares", v.Name(), v.Name())})
			continue
		}
		c := &fieldCand{v: v, path: append(append([]string(nil), path...), v.Name()), json: jname, depth: depth,
			named: jname != "", elicit: elicit, hasTag: hasElicit, jsTag: tag.Get("jsonschema"), top: a.top, tags: rawTag, viaPtr: viaPtr}
		if c.json == "" {
			c.json = v.Name()
		}
		c.src, c.fpos = newTagSource(a.fset, a.astFields[v.Pos()]), fpos
		*out = append(*out, c)
	}
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

// takenNames returns the names of scope that could be an import's name (see
// Package.TakenNames), sorted.
func takenNames(scope *types.Scope) []string {
	var out []string
	for _, n := range scope.Names() {
		if strings.IndexFunc(n, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') }) < 0 {
			out = append(out, n)
		}
	}
	return out
}
