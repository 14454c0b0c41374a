package annotate

import (
	"go/types"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/shape"
)

// structShape returns the digest of struct type obj as go/types sees it
// (package internal/shape: one entry per field, the same digest the runtime
// computes with reflect when the flow is built, which refuses a flow whose
// struct changed since it was generated), or nil when a type in it did not
// resolve (the digest would then differ from reflect's; the runtime checks
// nothing for a nil digest).
func structShape(obj *types.TypeName) []string {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	own := obj.Pkg()
	var out []shape.Field
	var w shape.Writer
	for i := range st.NumFields() {
		f := st.Field(i)
		w.Reset()
		if f.Embedded() {
			w.Embedded()
		}
		if !writeShape(&w, f.Type(), own, f.Embedded(), false) {
			return nil
		}
		out = append(out, shape.Field{Name: f.Name(), Type: w.String(), Tag: st.Tag(i)})
	}
	return shape.Entries(out)
}

// writeShape spells t with w as package shape's reflect walker does
// (shape.Of): embedded says t is an embedded field's type (or its
// pointer's element), exportedOnly that t is inside a struct embedded from
// another package. It reports false for a type reflect cannot be held to
// (an invalid type, a type parameter).
func writeShape(w *shape.Writer, t types.Type, own *types.Package, embedded, exportedOnly bool) bool {
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		obj := n.Obj()
		if obj.Pkg() == nil {
			w.Write(obj.Name()) // error (comparable is no field's type)
			return true
		}
		isOwn := obj.Pkg() == own
		_, isStruct := n.Underlying().(*types.Struct)
		if !w.Named(obj.Pkg().Path(), obj.Name(), isOwn, embedded && isStruct) {
			return true
		}
		exportedOnly = !isOwn
		t = n.Underlying()
	}
	switch t := t.(type) {
	case *types.Basic:
		switch {
		case t.Kind() == types.UnsafePointer:
			w.Write("unsafe.Pointer")
		case t.Kind() == types.Invalid || t.Info()&types.IsUntyped != 0:
			return false
		default:
			w.Write(types.Typ[t.Kind()].Name()) // byte → uint8, rune → int32
		}
	case *types.Pointer:
		w.Write("*")
		return writeShape(w, t.Elem(), own, embedded, exportedOnly)
	case *types.Slice:
		w.Write("[]")
		return writeShape(w, t.Elem(), own, false, exportedOnly)
	case *types.Array:
		w.Write("[" + strconv.FormatInt(t.Len(), 10) + "]")
		return writeShape(w, t.Elem(), own, false, exportedOnly)
	case *types.Map:
		w.Write("map[")
		if !writeShape(w, t.Key(), own, false, exportedOnly) {
			return false
		}
		w.Write("]")
		return writeShape(w, t.Elem(), own, false, exportedOnly)
	case *types.Chan:
		switch t.Dir() {
		case types.RecvOnly:
			w.Write("<-chan ")
		case types.SendOnly:
			w.Write("chan<- ")
		default:
			w.Write("chan ")
		}
		return writeShape(w, t.Elem(), own, false, exportedOnly)
	case *types.Struct:
		w.Write("struct{")
		for i := range t.NumFields() {
			f := t.Field(i)
			if !shape.KeepField(f.Name(), exportedOnly, f.Pkg() == own) {
				continue
			}
			w.StructField(f.Name(), f.Embedded())
			if !writeShape(w, f.Type(), own, f.Embedded(), exportedOnly) {
				return false
			}
			w.EndField(t.Tag(i))
		}
		w.Write("}")
	case *types.Interface:
		w.Write("interface")
	case *types.Signature:
		w.Write("func")
	default:
		return false // a type parameter, a tuple: not a field's type reflect can see
	}
	return true
}
