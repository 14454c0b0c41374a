package annotate

import (
	"go/token"
	"go/types"
)

// collide reports every identifier mcpgen would generate for the structs of
// model ([StructIdents]) that collides with another one it would generate,
// or with one the package declares outside mcpgen's own output (a method or
// field of the struct for a generated method); and two structs whose
// generated files would have the same name. Generated code would not
// compile, or a user's declaration would be shadowed: each is a diagnostic,
// never output.
func (a *analyzer) collide(model *Package) {
	generated := map[string]Ident{}
	files := map[string]*Struct{}
	for _, s := range model.Structs {
		name := ElicitFileName(s.Name)
		if prev := files[name]; prev != nil {
			a.relatedf(s.Pos, len(s.Name), Related{Pos: prev.Pos, Message: "the other struct, " + prev.Name}, "mcpgen would generate %s for both %s and %s (file names are lower case); rename one of them", name, prev.Name, s.Name)
			continue
		}
		files[name] = s
		for _, id := range StructIdents(s) {
			if id.Kind == "method" {
				a.collideMember(s, id)
				continue
			}
			if prev, ok := generated[id.Name]; ok {
				a.relatedf(id.Pos, 0, Related{Pos: prev.Pos, Message: "the other declaration: " + prev.Describe()}, "%s collides with %s", id.Describe(), prev.Describe())
				continue
			}
			generated[id.Name] = id
			if id.Once {
				continue // the handler type: the user's to declare (Struct.HandlerDeclared)
			}
			if obj := a.types.Scope().Lookup(id.Name); obj != nil && a.inUserFile(obj.Pos()) {
				a.relatedf(a.fset.Position(obj.Pos()), len(obj.Name()), Related{Pos: id.Pos, Message: "the other declaration: " + id.Describe()}, "%s %s collides with %s in %s; rename yours", objKind(obj), obj.Name(), id.Describe(), id.File)
			}
		}
	}
}

// collideMember reports a method or field of struct s, declared by the
// user, named like the generated method id.
func (a *analyzer) collideMember(s *Struct, id Ident) {
	tn, _ := a.types.Scope().Lookup(s.Name).(*types.TypeName)
	if tn == nil {
		return
	}
	if named, ok := tn.Type().(*types.Named); ok {
		for i := 0; i < named.NumMethods(); i++ {
			if m := named.Method(i); m.Name() == id.Name && a.inUserFile(m.Pos()) {
				a.relatedf(a.fset.Position(m.Pos()), len(m.Name()), Related{Pos: id.Pos, Message: "the other declaration: " + id.Describe()}, "method %s.%s collides with %s in %s; rename yours", s.Name, m.Name(), id.Describe(), id.File)
			}
		}
	}
	if st, ok := tn.Type().Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f.Name() == id.Name {
				a.relatedf(a.fset.Position(f.Pos()), len(f.Name()), Related{Pos: id.Pos, Message: "the other declaration: " + id.Describe()}, "field %s.%s collides with %s in %s (a struct cannot have a field and a method of the same name); rename the field", s.Name, f.Name(), id.Describe(), id.File)
			}
		}
	}
}

// inUserFile reports whether pos is in one of the package's files that is
// not mcpgen's own output. ([Load] reads those files as empty, so they
// declare nothing; a go/analysis pass sees them whole.)
func (a *analyzer) inUserFile(pos token.Pos) bool {
	for _, f := range a.files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return !isOwnOutput(f)
		}
	}
	return false
}

// objKind names the kind of a package-level object in a diagnostic.
func objKind(obj types.Object) string {
	switch obj.(type) {
	case *types.Func:
		return "func"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	case *types.TypeName:
		return "type"
	}
	return "name"
}
