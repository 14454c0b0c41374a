package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/skeleton"
)

// runtimePath is the import path of the package whose Choice a
// <Field>Choices method returns (gen spells it too, for the code it writes).
const runtimePath = "github.com/mcpgen/mcpgen/runtime"

// checkChoicesMethods reports each elicit:"choices" field of tool s whose
// handler lacks the field's <Field>Choices method (Field.ChoicesMethod),
// at the field's choices option, with the method's exact signature. The
// handler is the handler type mcpgen names (Struct.Names.HandlerType) when
// the package declares it, and any type a user file asserts to implement
// the handler interface (var _ TArgsHandler = T{}). Without this, the
// generated interface would gain the method and the package would fail to
// compile at that assertion, in another file than the tag that asks for it.
//
// It is an error, not a warning: the generated file would leave the package
// uncompilable, and mcpgen writes nothing that does not compile. The
// suggested fix adds to the file declaring the handler a stub of every
// missing method (the same edits for each field of one handler, so that
// applying all fixes adds each stub once), which compiles and lists no
// option: until the user lists them, a call ends in a tool error.
func (a *analyzer) checkChoicesMethods(s *Struct) {
	var want []*Field
	for _, f := range s.Fields {
		if f.ChoicesMethod != "" {
			want = append(want, f)
		}
	}
	if len(want) == 0 {
		return
	}
	for _, tn := range a.handlerTypes(s) {
		var missing []*Field
		for _, f := range want {
			if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, a.types, f.ChoicesMethod); obj == nil {
				missing = append(missing, f)
			}
		}
		if len(missing) == 0 {
			continue
		}
		fix, recv := a.choicesStubs(s, tn, missing)
		hint := ""
		if fix != nil {
			hint = "; go run github.com/mcpgen/mcpgen/cmd/mcpgen-vet -fix ./... adds a stub"
		}
		for _, f := range missing {
			at, ok := a.choicesAt[f]
			if !ok {
				at[0] = f.Pos
			}
			d := Diagnostic{Pos: at[0], End: at[1],
				Message: fmt.Sprintf("elicit tag on %s: choices takes its options from the handler's %s method, which %s lacks; "+
					"add func (%s) %s(ctx context.Context, args *%s) ([]runtime.Choice, error), listing the options of %s for each call%s "+
					"(docs/questions.md, \"Run-time choices\")",
					f.GoName, f.ChoicesMethod, tn.Name(), recv, f.ChoicesMethod, s.Name, f.JSONName, hint),
				Related: []Related{{Pos: a.fset.Position(tn.Pos()), Message: fmt.Sprintf("%s, the handler of %s, has no %s", tn.Name(), s.Name, f.ChoicesMethod)}},
			}
			if fix != nil {
				d.SuggestedFixes = []SuggestedFix{*fix}
			}
			a.diags = append(a.diags, d)
		}
	}
}

// handlerTypes returns the types of the user's files that handle tool s:
// its handler type, when the package declares it outside mcpgen's output,
// and each type a `var _ <Interface> = …` of a user file assigns to its
// handler interface (T{}, &T{}, (*T)(nil), new(T)), in source order, each
// once. Generic types are left out: no handler of a tool is generic.
func (a *analyzer) handlerTypes(s *Struct) []*types.TypeName {
	var out []*types.TypeName
	seen := map[*types.TypeName]bool{}
	add := func(obj types.Object) {
		tn, ok := obj.(*types.TypeName)
		if !ok || seen[tn] || tn.Pkg() != a.types || !a.inUserFile(tn.Pos()) {
			return
		}
		if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
			return
		}
		if _, isIface := tn.Type().Underlying().(*types.Interface); isIface {
			return
		}
		seen[tn] = true
		out = append(out, tn)
	}
	if s.HandlerDeclared {
		add(a.types.Scope().Lookup(s.Names.HandlerType))
	}
	for _, f := range a.files {
		if isOwnOutput(f) {
			continue
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				iface, _ := vs.Type.(*ast.Ident)
				if iface == nil || iface.Name != s.Names.Interface || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, n := range vs.Names {
					if n.Name != "_" {
						continue
					}
					if id := assertedType(vs.Values[i]); id != nil {
						add(a.info.Uses[id])
					}
				}
			}
		}
	}
	return out
}

// assertedType returns the type name of a handler value written T{}, &T{},
// (*T)(nil) or new(T), or nil.
func assertedType(e ast.Expr) *ast.Ident {
	switch v := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		id, _ := v.Type.(*ast.Ident)
		return id
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			return assertedType(v.X)
		}
	case *ast.CallExpr:
		if len(v.Args) != 1 {
			return nil
		}
		if fn, ok := v.Fun.(*ast.Ident); ok && fn.Name == "new" {
			id, _ := v.Args[0].(*ast.Ident)
			return id
		}
		if star, ok := ast.Unparen(v.Fun).(*ast.StarExpr); ok {
			id, _ := star.X.(*ast.Ident)
			return id
		}
	}
	return nil
}

// choicesStubs builds the fix that adds a stub of each missing method to
// handler tn, after its last declaration (the type's or a method's) in the
// file that declares it, with the imports the stubs need; nil when that
// file cannot be edited. It also returns the receiver the stubs use: *T
// when one of T's methods in that file has a pointer receiver, else T.
func (a *analyzer) choicesStubs(s *Struct, tn *types.TypeName, missing []*Field) (*SuggestedFix, string) {
	recv := tn.Name()
	file := a.fileOf(tn.Pos())
	if file == nil {
		return nil, recv
	}
	var last ast.Node
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Pos() == tn.Pos() {
					last = d
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 || recvTypeName(d.Recv.List[0].Type) != tn.Name() {
				continue
			}
			if _, ptr := d.Recv.List[0].Type.(*ast.StarExpr); ptr {
				recv = "*" + tn.Name()
			}
			if last == nil || d.End() > last.End() {
				last = d
			}
		}
	}
	if last == nil {
		return nil, recv
	}
	imports, ctxName, rtName := a.stubImports(file)
	var b strings.Builder
	for _, f := range missing {
		b.WriteString("\n")
		for _, line := range skeleton.Fill(skeleton.ChoicesDoc(f.ChoicesMethod, f.JSONName, rtName), skeleton.DocColumns-len("// ")) {
			b.WriteString("\n// " + line)
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "func (%s) %s(ctx %s.Context, args *%s) ([]%s.Choice, error) {\n", recv, f.ChoicesMethod, ctxName, s.Name, rtName)
		b.WriteString("\t// TODO: list the options.\n")
		fmt.Fprintf(&b, "\treturn []%s.Choice{}, nil\n}", rtName)
	}
	end := a.fset.Position(last.End())
	edits := append(imports, TextEdit{Pos: end, End: end, NewText: b.String()})
	names := make([]string, len(missing))
	for i, f := range missing {
		names[i] = f.ChoicesMethod
	}
	msg := fmt.Sprintf("Add a stub of %s to %s in %s", strings.Join(names, " and "), tn.Name(), filepath.Base(end.Filename))
	return &SuggestedFix{Message: msg, Edits: edits}, recv
}

// fileOf returns the parsed file of the package that holds pos.
func (a *analyzer) fileOf(pos token.Pos) *ast.File {
	for _, f := range a.files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// stubImports returns the names under which file refers to package context
// and to mcpgen's runtime, and the edit that imports those it lacks (none
// when it has both): as "context" and "runtime", or, when the file or the
// package already uses such a name for something else, as gocontext and
// mcpgenruntime.
func (a *analyzer) stubImports(file *ast.File) ([]TextEdit, string, string) {
	taken := map[string]bool{}
	have := map[string]string{}
	for _, spec := range file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." {
			continue
		}
		taken[name] = true
		if _, ok := have[path]; !ok {
			have[path] = name
		}
	}
	var add []string
	use := func(path, name, alias string) string {
		if n, ok := have[path]; ok {
			return n
		}
		spec := strconv.Quote(path)
		if taken[name] || a.types.Scope().Lookup(name) != nil {
			name = alias
			spec = name + " " + spec
		}
		add = append(add, spec)
		return name
	}
	ctxName := use("context", "context", "gocontext")
	rtName := use(runtimePath, "runtime", "mcpgenruntime")
	if len(add) == 0 {
		return nil, ctxName, rtName
	}
	sort.Strings(add)
	// A group of their own at the end of the first parenthesised import
	// declaration (gofmt keeps groups apart), else a declaration of their
	// own after the last import declaration or the package clause.
	var at token.Pos
	var text string
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() && text == "" {
			at, text = gd.Rparen, "\n\t"+strings.Join(add, "\n\t")+"\n"
			break
		}
		at = gd.End()
	}
	if text == "" {
		if !at.IsValid() {
			at = file.Name.End()
		}
		text = "\n\nimport (\n\t" + strings.Join(add, "\n\t") + "\n)"
	}
	pos := a.fset.Position(at)
	return []TextEdit{{Pos: pos, End: pos, NewText: text}}, ctxName, rtName
}
