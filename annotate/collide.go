package annotate

import (
	"go/token"
	"go/types"
)

// collide reports what would keep the generated code of model from
// compiling, or shadow a user's declaration: two structs whose generated
// files would have the same name; an identifier mcpgen would generate
// ([StructIdents]) twice (a field Inner_Date and a promoted Inner.Date share
// a check function); and a name a user calls or implements (New<T>Flow, the
// <T>Handler interface, the exported methods the runtime's interfaces
// require) that the package already declares outside mcpgen's own output.
// The helpers only generated code calls (Ident.Helper) are spelled so that
// no reasonable user code declares them, and are not looked up; the handler
// type of the file written once is the user's to declare
// (Struct.HandlerDeclared). Each collision is a diagnostic at the user's
// declaration, never output.
func (a *analyzer) collide(model *Package) {
	generated := map[string]Ident{}
	files := map[string]*Struct{}
	for _, s := range model.Structs {
		name := s.Names.ElicitFile
		if prev := files[name]; prev != nil {
			a.relatedf(s.Pos, len(s.Name), Related{Pos: prev.Pos, Message: "the other struct, " + prev.Name}, "mcpgen would generate %s for both %s and %s (file names are lower case); rename one of them", name, prev.Name, s.Name)
			continue
		}
		files[name] = s
		for _, id := range StructIdents(s) {
			if id.Kind == "method" {
				if !id.Helper {
					a.collideMember(s, id)
				}
				continue
			}
			if prev, ok := generated[id.Name]; ok {
				a.relatedf(id.Pos, 0, Related{Pos: prev.Pos, Message: "the other declaration: " + prev.Describe()}, "%s collides with %s", id.Describe(), prev.Describe())
				continue
			}
			generated[id.Name] = id
			if id.Once || id.Helper {
				continue
			}
			if obj := a.types.Scope().Lookup(id.Name); obj != nil && a.inUserFile(obj.Pos()) {
				a.relatedf(a.fset.Position(obj.Pos()), len(obj.Name()), Related{Pos: id.Pos, Message: "the other declaration: " + id.Describe()}, "%s %s collides with %s in %s; rename yours", ObjectKind(obj), obj.Name(), id.Describe(), id.File)
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

// ObjectKind names the kind of a package-level object in a diagnostic:
// "func", "var", "const", "type", or "name" for any other.
func ObjectKind(obj types.Object) string {
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
