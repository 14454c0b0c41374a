package annotate

import (
	"reflect"
	"testing"
)

// fill sets every exported member reachable from v to a non-zero value:
// strings "a", numbers 1, bools true, pointers to filled values, lists of
// one filled element.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.String:
		v.SetString("a")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
}

// leaf is one member reachable from a filled model: how to reach it from
// the model's root (field indices; lists at their first element, pointers
// followed) and its dotted name ("Struct.Fields.Default.Lit").
type leaf struct {
	root  string // "Package" or "Struct"
	path  []int
	name  string // Type.Member of the last step, as digestExcluded spells it
	where string
}

func leaves(root string, t reflect.Type, path []int, where string, out *[]leaf) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		p := append(append([]int(nil), path...), i)
		l := leaf{root: root, path: p, name: t.Name() + "." + f.Name, where: where + "." + f.Name}
		*out = append(*out, l)
		if _, excluded := digestExcluded[l.name]; !excluded {
			leaves(root, f.Type, p, l.where, out)
		}
	}
}

// at follows path from v (a filled model), through pointers and first
// list elements.
func at(v reflect.Value, path []int) reflect.Value {
	for _, i := range path {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice {
			if v.Kind() == reflect.Pointer {
				v = v.Elem()
			} else {
				v = v.Index(0)
			}
		}
		v = v.Field(i)
	}
	return v
}

// mutate changes v to another value of its type, in place.
func mutate(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice:
		v.Set(reflect.Zero(v.Type())) // filled: not nil
	case reflect.Struct:
		// A struct member (token.Position, TypeRef): change its first
		// exported member; its own members are leaves of their own.
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				mutate(v.Field(i))
				return
			}
		}
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	}
}

func filledModel() (*Package, *Struct) {
	p, s := &Package{}, &Struct{}
	fill(reflect.ValueOf(p).Elem())
	fill(reflect.ValueOf(s).Elem())
	return p, s
}

// TestModelDigestCoversEveryMember: changing any member of the model that
// digestExcluded does not name, at any depth (a field's title, an enum
// item's title, a bound, a default, the command line…), changes the
// digest; changing an excluded member does not. A member added to the model
// is covered without a change here, and a map, func or other kind the
// encoder does not know fails this test rather than being digested wrongly.
func TestModelDigestCoversEveryMember(t *testing.T) {
	var all []leaf
	leaves("Package", reflect.TypeOf(Package{}), nil, "Package", &all)
	leaves("Struct", reflect.TypeOf(Struct{}), nil, "Struct", &all)
	p0, s0 := filledModel()
	base := ModelDigest(p0, s0)
	seen := map[string]bool{}
	for _, l := range all {
		p, s := filledModel()
		root := reflect.ValueOf(p).Elem()
		if l.root == "Struct" {
			root = reflect.ValueOf(s).Elem()
		}
		mutate(at(root, l.path))
		_, excluded := digestExcluded[l.name]
		seen[l.name] = seen[l.name] || excluded
		if got := ModelDigest(p, s); (got == base) != excluded {
			if excluded {
				t.Errorf("changing %s (excluded: %s) changed the digest", l.where, digestExcluded[l.name])
			} else {
				t.Errorf("changing %s left the digest unchanged: it must go into ModelDigest (or into digestExcluded, with the reason it cannot change the output)", l.where)
			}
		}
	}
	for name := range digestExcluded {
		if !seen[name] {
			t.Errorf("digestExcluded names %s, which is not a member of the model", name)
		}
	}
}

// TestModelDigestOrderAndLists: the order of fields and of enum items, and
// a nil list against an empty one, change the digest.
func TestModelDigestOrderAndLists(t *testing.T) {
	p := &Package{Name: "m", Path: "example.com/m"}
	mk := func() *Struct {
		return &Struct{Name: "Args", Fields: []*Field{
			{GoName: "A", JSONName: "a", Title: "A", Enum: []EnumItem{{Value: "x", Title: "X"}, {Value: "y", Title: "Y"}}},
			{GoName: "B", JSONName: "b", Title: "B"},
		}}
	}
	base := ModelDigest(p, mk())
	if ModelDigest(p, mk()) != base {
		t.Fatal("the digest of equal models differs")
	}
	s := mk()
	s.Fields[0], s.Fields[1] = s.Fields[1], s.Fields[0]
	if ModelDigest(p, s) == base {
		t.Error("reordering fields left the digest unchanged")
	}
	s = mk()
	s.Fields[0].Enum[0], s.Fields[0].Enum[1] = s.Fields[0].Enum[1], s.Fields[0].Enum[0]
	if ModelDigest(p, s) == base {
		t.Error("reordering enum items left the digest unchanged")
	}
	s = mk()
	s.Fields[1].Enum = []EnumItem{}
	if ModelDigest(p, s) == base {
		t.Error("an empty enum list digests as a nil one")
	}
	// A string boundary cannot move between members unnoticed.
	a, b := mk(), mk()
	a.Fields[0].Title, a.Fields[0].Description = "ab", "c"
	b.Fields[0].Title, b.Fields[0].Description = "a", "bc"
	if ModelDigest(p, a) == ModelDigest(p, b) {
		t.Error("moving text from Title to Description left the digest unchanged")
	}
}
