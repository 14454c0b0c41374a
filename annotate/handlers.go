package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
)

// handlerMarker is in the doc comment of every handler file mcpgen writes
// (gen's handlerFile), which is how a handler file is recognised after the
// user renamed its struct.
const handlerMarker = "mcpgen wrote it once"

// orphanHandler is a handler file of mcpgen's (now the user's) whose handler
// type matches no struct of the package any more.
type orphanHandler struct {
	file   string
	pos    token.Position // the handler type's name
	typ    string         // the handler type: signupArgsHandler
	old    string         // the struct it was written for: SignupArgs
	iface  string         // the interface of its assertion: SignupArgsHandler ("" when none)
	params string         // the struct its methods take (*SignupArgs), "" when none
}

// orphanHandlers finds the handler files whose type no longer matches a
// struct (the struct was renamed), and pairs each with the struct of model
// that has no handler: one diagnostic naming the renames to make instead of
// the type errors of that file, and no second handler skeleton. It returns
// the diagnostics and the files whose errors they replace.
func (a *analyzer) orphanHandlers(model *Package) ([]Diagnostic, map[string]bool) {
	var orphans []orphanHandler
	for _, f := range a.files {
		if isOwnOutput(f) || !hasComment(f, handlerMarker) {
			continue
		}
		if o, ok := a.handlerOf(f); ok {
			orphans = append(orphans, o)
		}
	}
	if len(orphans) == 0 {
		return nil, nil
	}
	var homeless []*Struct
	for _, s := range model.Structs {
		if !s.HandlerDeclared && !s.Question {
			homeless = append(homeless, s)
		}
	}
	var diags []Diagnostic
	files := map[string]bool{}
	for _, o := range orphans {
		if len(homeless) != 1 || len(orphans) != 1 {
			continue // not a plain rename: the type errors say what is wrong
		}
		s := homeless[0]
		var also []string
		if o.params != "" && o.params != s.Name {
			also = append(also, fmt.Sprintf("%s to %s in its method signatures", o.params, s.Name))
		}
		if o.iface != "" && o.iface != s.Names.Interface {
			also = append(also, fmt.Sprintf("%s to %s in its assertion", o.iface, s.Names.Interface))
		}
		msg := fmt.Sprintf("rename %s to %s in %s", o.typ, s.Names.HandlerType, filepath.Base(o.file))
		if len(also) > 0 {
			msg += ", and " + strings.Join(also, " and ")
		}
		msg += fmt.Sprintf(": this handler was written for %s, which no longer exists, and %s has no handler (was %s renamed %s?); mcpgen writes no second handler", o.old, s.Name, o.old, s.Name)
		diags = append(diags, Diagnostic{Pos: o.pos, Message: msg, Related: []Related{{Pos: s.Pos, Message: s.Name + ", which has no handler"}}})
		files[o.file] = true
		s.HandlerDeclared = true
	}
	return diags, files
}

// handlerOf reads the handler type of a handler file: the type of its
// `var _ XHandler = xHandler{}` assertion, or the receiver of its Accept,
// Decline and Cancel methods. It reports ok when that type is not the
// handler type of a struct the package declares.
func (a *analyzer) handlerOf(f *ast.File) (orphanHandler, bool) {
	o := orphanHandler{file: a.fset.PositionFor(f.Package, false).Filename}
	declared := map[string]token.Pos{}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					declared[s.Name.Name] = s.Name.Pos()
				case *ast.ValueSpec:
					if len(s.Names) == 1 && s.Names[0].Name == "_" && len(s.Values) == 1 {
						iface, _ := s.Type.(*ast.Ident)
						lit, _ := s.Values[0].(*ast.CompositeLit)
						if iface != nil && lit != nil && strings.HasSuffix(iface.Name, "Handler") {
							if t, ok := lit.Type.(*ast.Ident); ok {
								o.iface, o.typ = iface.Name, t.Name
							}
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 || d.Type.Params == nil || len(d.Type.Params.List) < 2 {
				continue
			}
			switch d.Name.Name {
			case MethodAccept, MethodDecline, MethodCancel, MethodUnaskable:
			default:
				continue
			}
			star, ok := d.Type.Params.List[1].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			if id, ok := star.X.(*ast.Ident); ok {
				o.params = id.Name
				if o.typ == "" {
					o.typ = recvTypeName(d.Recv.List[0].Type)
				}
			}
		}
	}
	pos, ok := declared[o.typ]
	if o.typ == "" || !ok {
		return o, false
	}
	o.pos = a.fset.Position(pos)
	switch {
	case o.iface != "":
		o.old = strings.TrimSuffix(o.iface, "Handler")
	case o.params != "":
		o.old = o.params
	default:
		return o, false
	}
	if _, ok := a.types.Scope().Lookup(exportName(strings.TrimSuffix(o.typ, "Handler"))).(*types.TypeName); ok {
		return o, false // its struct is still there
	}
	for _, name := range a.taggedNames {
		if HandlerTypeName(name) == o.typ {
			return o, false
		}
	}
	return o, true
}

func hasComment(f *ast.File, text string) bool {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.Contains(c.Text, text) {
				return true
			}
		}
	}
	return false
}
