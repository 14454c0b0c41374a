package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
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
	// choicesAt: where each elicit:"choices" field's choices option is
	// (start, end), for the diagnostic of a missing <Field>Choices method.
	choicesAt map[*Field][2]token.Position
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
	model := &Package{Name: a.types.Name(), Path: a.types.Path(), TakenNames: takenNames(a.types.Scope()), Dir: a.packageDir()}
	cands := a.index()
	tools := a.toolPositions(cands, wanted)
	named, listed := a.toolsNamed(wanted), map[string]bool{}
	for _, c := range cands {
		name := c.ts.Name.Name
		st, isStruct := c.ts.Type.(*ast.StructType)
		annotated := isStruct && (a.hasElicitTag(c.ts, st) || declaresTool(structDoc(c.gd, c.ts)))
		if isStruct && (wanted[name] || annotated) {
			a.taggedNames = append(a.taggedNames, name)
		}
		a.listTool(model, c.f, c.gd, c.ts, annotated, named, listed)
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
		if s := a.structOf(c, tools); s != nil {
			model.Structs = append(model.Structs, s)
		}
	}
	sortTools(model.Tools)
	a.collide(model)
	a.collideTools(model)
	a.unregistered(model)
	return model
}

// packageDir is the directory of the package's files: the file's own name,
// not one a //line comment gives (that names the source it was produced
// from, not where the package is).
func (a *analyzer) packageDir() string {
	for _, f := range a.files {
		if name := a.fset.PositionFor(f.Package, false).Filename; name != "" {
			return filepath.Dir(name)
		}
	}
	return ""
}

// typeDecl is one type declaration of the package: a candidate struct.
type typeDecl struct {
	gd *ast.GenDecl
	ts *ast.TypeSpec
	f  *ast.File
}

// index lists the package's type declarations in source order and fills
// a.astFields (every struct field's syntax by its name's position) and
// a.constDocs (a constant's line comment, an enum item's title).
func (a *analyzer) index() []typeDecl {
	a.astFields = map[token.Pos]*ast.Field{}
	a.constDocs = map[token.Pos]string{}
	var decls []typeDecl
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
					decls = append(decls, typeDecl{gd, s, file})
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
	return decls
}

// toolPositions gives every tool of the package by name, whether -type asks
// for it or not, at its first declaration: a second struct under a tool's
// name would replace the first when both are registered (an SDK keeps one
// tool per name).
func (a *analyzer) toolPositions(decls []typeDecl, wanted map[string]bool) map[string]token.Position {
	tools := map[string]token.Position{}
	for _, c := range decls {
		st, isStruct := c.ts.Type.(*ast.StructType)
		annotated := isStruct && (a.hasElicitTag(c.ts, st) || declaresTool(structDoc(c.gd, c.ts)))
		if tool, ok := toolNameOf(structDoc(c.gd, c.ts), c.ts.Name.Name); ok && (annotated || isStruct && wanted[c.ts.Name.Name]) {
			if _, seen := tools[tool]; !seen {
				tools[tool] = a.fset.Position(c.ts.Name.Pos())
			}
		}
	}
	return tools
}

// structOf builds the model of the struct c declares, or reports why it
// has none (type parameters; a tool name another struct took first) and
// returns nil.
func (a *analyzer) structOf(c typeDecl, tools map[string]token.Position) *Struct {
	name := c.ts.Name.Name
	if c.ts.TypeParams != nil {
		a.errorf(a.fset.Position(c.ts.Name.Pos()), "%s has type parameters; mcpgen generates methods for a concrete struct only: declare a struct without type parameters and tag its fields", name)
		return nil
	}
	obj, _ := a.info.Defs[c.ts.Name].(*types.TypeName)
	if obj == nil {
		return nil
	}
	s := a.structModel(obj, c.gd, c.ts)
	if s == nil {
		return nil
	}
	s.BuildConstraint = buildConstraint(c.f, s.File)
	if s.Clients == nil {
		s.Clients = a.fileClients(c.f)
	}
	if first := tools[s.Tool]; !s.Question && first != s.Pos {
		a.relatedf(s.Pos, len(s.Name), Related{Pos: first, Message: "the tool's first declaration"},
			"%s declares the tool %s, which another struct of this package declares first: a server keeps one tool per name, so one would replace the other; give one a new name with //mcpgen:tool NAME", s.Name, s.Tool)
	}
	s.Derive()
	s.HandlerDeclared = a.declaredByUser(s.Names.HandlerType)
	a.checkChoicesMethods(s)
	return s
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
	s.Shape = structShape(obj)
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
