// Package shape is the one digest of an argument struct that both sides of
// mcpgen compute: annotate from go/types when it generates, and
// runtime/impl from reflect when a generated flow is built
// (impl.NewFlow). Generated code carries the generator's digest; a flow
// whose struct no longer has it was generated for another struct (the
// struct changed and go generate was not run), and the runtime refuses to
// build it ([Check]).
//
// The digest is one entry per field of the struct, in declaration order:
//
//	Name:TTTTTTTT:GGGGGGGG
//
// the field's Go name, the FNV-1a 32-bit hash (hex) of its type as
// [Writer] spells it (an embedded field's marked), and that of its struct
// tag. Per field, so that a mismatch names the field and what changed.
//
// Both sides spell a type with a [Writer], so that the spelling cannot
// drift; what go/types and reflect print differently is normalised away
// before it reaches the Writer, and what one of them cannot be trusted to
// see the same is left out (see [Writer.Named]):
//
//   - a type of the struct's own package is ".Name", and its underlying
//     type follows once per field ("=…"): reflect calls package main
//     "main", go/types by its import path;
//   - an unexported field declared in another package is left out (it is
//     reached through a type of the own package defined over another
//     package's struct, type Stamp time.Time); its exported fields stay,
//     since reflect cannot tell which package declared them: an exported
//     field added to that struct by an update (type Link url.URL) makes
//     the file stale, and go generate makes it current;
//   - a type of another package is its import path and name only, unless
//     it is a struct embedded from outside the standard library
//     (encoding/json promotes its fields): then its exported fields follow,
//     never its unexported ones, which may change with the dependency
//     without changing the form; the standard library's structs change
//     with the Go release a server is built with, so theirs never do;
//   - a generic instantiation is its generic type's name without the type
//     arguments, which reflect spells with import paths and go/types with
//     package names;
//   - byte and rune are uint8 and int32, an alias is the type it stands
//     for, an interface is "interface" and a function "func", whatever
//     their methods and signature.
package shape

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Field is one field of a struct as the digest sees it.
type Field struct {
	Name string // Go name
	Type string // the type as a [Writer] spells it, "^" first when embedded
	Tag  string // the raw struct tag (reflect.StructTag, types.Struct.Tag)
}

// Entry is the digest entry of f: "Name:TTTTTTTT:GGGGGGGG" (see the package
// doc).
func (f Field) Entry() string {
	return f.Name + ":" + hash(f.Type) + ":" + hash(f.Tag)
}

// Entries returns the digest of fields: one [Field.Entry] each, in order.
func Entries(fields []Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Entry()
	}
	return out
}

func hash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%08x", h.Sum32())
}

// Writer spells a type for the digest. Both walkers (go/types in annotate,
// reflect here) call its methods as they descend the type; a method appends
// to the spelling and returns whether the walker should descend into the
// named type's underlying type (Named) or a struct's fields.
type Writer struct {
	b    strings.Builder
	seen map[string]bool // named types expanded in this field
}

// String is the spelling so far.
func (w *Writer) String() string { return w.b.String() }

// Reset empties the spelling and forgets the named types expanded, for the
// next field.
func (w *Writer) Reset() {
	w.b.Reset()
	clear(w.seen)
}

// Write appends a piece of spelling: "*", "[]", "[3]", "map[", "]",
// "chan ", "<-chan ", "chan<- ", a basic type's name, "interface", "func",
// "error", "unsafe.Pointer", "invalid".
func (w *Writer) Write(s string) { w.b.WriteString(s) }

// Embedded marks the field being spelled as embedded.
func (w *Writer) Embedded() { w.b.WriteByte('^') }

// Named appends a named type: ".name" when it is of the struct's own
// package (own), else "path.name"; name is cut at its first "[" (type
// arguments are left out). It reports whether to spell the type's
// underlying type after it, with "=" written: the first time the type is
// met in this field, and only for a type of the struct's own package or
// (expand) a struct embedded from another package outside the standard
// library.
func (w *Writer) Named(path, name string, own, expand bool) bool {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	key := "." + name
	if !own {
		key = path + "." + name
	}
	w.b.WriteString(key)
	if !own && (!expand || standard(path)) || w.seen[key] {
		return false
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[key] = true
	w.b.WriteByte('=')
	return true
}

// standard reports whether path is a package of the standard library (its
// first element has no dot), whose structs change with the Go release the
// server is built with, not with what go generate saw: their fields are
// left out of the digest. (A module path without a dot counts as standard:
// its fields are left out too, which only digests less.)
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// StructField appends one field of a struct being spelled: its name, "^"
// when embedded, and a space; the walker then spells its type and calls
// [Writer.EndField] with its tag.
func (w *Writer) StructField(name string, embedded bool) {
	w.b.WriteString(name)
	if embedded {
		w.b.WriteByte('^')
	}
	w.b.WriteByte(' ')
}

// EndField ends a field [Writer.StructField] began, with its tag.
func (w *Writer) EndField(tag string) {
	w.b.WriteByte(' ')
	w.b.WriteString(strconv.Quote(tag))
	w.b.WriteByte(';')
}

// KeepField reports whether a field of a struct being spelled goes into
// the digest: its exported fields, and its unexported ones only when the
// struct is not embedded from another package (exportedOnly) and the field
// is declared in the struct's own package (ownField). An unexported field
// of another package can change with that package (a dependency's update,
// the Go release the server is built with) without changing the form; it
// is reached through a type of the own package defined over another
// package's struct (type Money dep.Decimal, type Stamp time.Time).
func KeepField(name string, exportedOnly, ownField bool) bool {
	r, _ := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return true
	}
	return !exportedOnly && ownField
}

// Of returns the digest's fields of struct type t, as reflect sees it.
func Of(t reflect.Type) []Field {
	var out []Field
	var w Writer
	own := t.PkgPath()
	for i := range t.NumField() {
		f := t.Field(i)
		w.Reset()
		if f.Anonymous {
			w.Embedded()
		}
		writeType(&w, f.Type, own, f.Anonymous, false)
		out = append(out, Field{Name: f.Name, Type: w.String(), Tag: string(f.Tag)})
	}
	return out
}

// writeType spells t with w as the go/types walker does (annotate's
// shape.go): embedded says t is an embedded field's type (or its pointer's
// element).
func writeType(w *Writer, t reflect.Type, own string, embedded, exportedOnly bool) {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			// A predeclared type: a basic one, or error.
			if t.Kind() == reflect.Interface {
				w.Write("error")
			} else {
				w.Write(basic(t.Kind()))
			}
			return
		}
		isOwn := t.PkgPath() == own
		expand := embedded && t.Kind() == reflect.Struct
		if !w.Named(t.PkgPath(), t.Name(), isOwn, expand) {
			return
		}
		exportedOnly = !isOwn
	}
	switch t.Kind() {
	case reflect.Pointer:
		w.Write("*")
		writeType(w, t.Elem(), own, embedded, exportedOnly)
	case reflect.Slice:
		w.Write("[]")
		writeType(w, t.Elem(), own, false, exportedOnly)
	case reflect.Array:
		w.Write("[" + strconv.Itoa(t.Len()) + "]")
		writeType(w, t.Elem(), own, false, exportedOnly)
	case reflect.Map:
		w.Write("map[")
		writeType(w, t.Key(), own, false, exportedOnly)
		w.Write("]")
		writeType(w, t.Elem(), own, false, exportedOnly)
	case reflect.Chan:
		switch t.ChanDir() {
		case reflect.RecvDir:
			w.Write("<-chan ")
		case reflect.SendDir:
			w.Write("chan<- ")
		default:
			w.Write("chan ")
		}
		writeType(w, t.Elem(), own, false, exportedOnly)
	case reflect.Struct:
		w.Write("struct{")
		for i := range t.NumField() {
			f := t.Field(i)
			// An unexported field's PkgPath is its package's ("main" for
			// package main, as own is).
			if !KeepField(f.Name, exportedOnly, f.PkgPath == "" || f.PkgPath == own) {
				continue
			}
			w.StructField(f.Name, f.Anonymous)
			writeType(w, f.Type, own, f.Anonymous, exportedOnly)
			w.EndField(string(f.Tag))
		}
		w.Write("}")
	case reflect.Interface:
		w.Write("interface")
	case reflect.Func:
		w.Write("func")
	default:
		w.Write(basic(t.Kind()))
	}
}

// basic is the name of a basic kind, as go/types names the basic type
// (byte and rune being uint8 and int32).
func basic(k reflect.Kind) string {
	if k == reflect.UnsafePointer {
		return "unsafe.Pointer"
	}
	return k.String()
}

// Diff says what differs between the digest want (generated) and got
// (the struct now): the fields added, removed or moved, or the first
// fields whose type or tag changed, e.g. "field Passengers: tag changed";
// "" when they are equal.
func Diff(want, got []string) string {
	type entry struct{ name, typ, tag string }
	parse := func(list []string) ([]entry, map[string]entry) {
		out := make([]entry, len(list))
		by := make(map[string]entry, len(list))
		for i, s := range list {
			parts := strings.SplitN(s, ":", 3)
			for len(parts) < 3 {
				parts = append(parts, "")
			}
			out[i] = entry{parts[0], parts[1], parts[2]}
			by[parts[0]] = out[i]
		}
		return out, by
	}
	w, wBy := parse(want)
	g, gBy := parse(got)
	var says []string
	for _, e := range g {
		if _, ok := wBy[e.name]; !ok {
			says = append(says, "field "+e.name+" added")
		}
	}
	for _, e := range w {
		if _, ok := gBy[e.name]; !ok {
			says = append(says, "field "+e.name+" removed")
		}
	}
	for _, e := range g {
		old, ok := wBy[e.name]
		if !ok {
			continue
		}
		switch {
		case old.typ != e.typ && old.tag != e.tag:
			says = append(says, "field "+e.name+": type and tag changed")
		case old.typ != e.typ:
			says = append(says, "field "+e.name+": type changed")
		case old.tag != e.tag:
			says = append(says, "field "+e.name+": tag changed")
		}
	}
	if len(says) == 0 && !equal(want, got) {
		says = append(says, "fields reordered")
	}
	const most = 3
	if len(says) > most {
		says = append(says[:most], fmt.Sprintf("and %d more", len(says)-most))
	}
	return strings.Join(says, "; ")
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checked caches [Check] by struct type, generated file and digest: a flow
// is built once at start, but a program may build one flow more than once.
var checked sync.Map // key → error (nil: current)

type key struct {
	t          reflect.Type
	file, want string
}

// Check compares the digest want that the generated file named file
// carries with that of struct type t now ([Of]), and returns the error
// that says to regenerate the file when they differ (nil when want is nil:
// the generator could not spell the struct, see annotate's structShape). The error names the file, the struct
// and its package, what differs, and `go generate`.
func Check(t reflect.Type, file string, want []string) error {
	if want == nil {
		return nil
	}
	k := key{t, file, strings.Join(want, " ")}
	if v, ok := checked.Load(k); ok {
		err, _ := v.(error)
		return err
	}
	var err error
	if got := Entries(Of(t)); !equal(want, got) {
		pkg := t.PkgPath()
		err = fmt.Errorf("mcpgen: %s is stale: struct %s (package %s) has changed since mcpgen generated the file (%s); "+
			"run `go generate` in the package's directory (or `go generate ./...` at the module root), then build again",
			file, t.Name(), pkg, Diff(want, got))
	}
	checked.Store(k, err)
	return err
}
