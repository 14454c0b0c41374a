// Package exact reads a JSON value the way encoding/json decodes it into a
// Go type, by exact JSON name: encoding/json also fills a struct field from
// a key that differs from the field's name only in case ("Account" fills
// `json:"account"`), which every check that looks the key up exactly never
// sees. [Arguments] removes such keys first, so that what is checked is what
// the code gets.
package exact

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/format"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonscan"
)

// keyShape tells where a Go type holds structs whose JSON objects
// encoding/json would decode, so that Arguments knows which members of
// a JSON value to keep.
type keyShape struct {
	kind   shapeKind
	fields map[string]*keyShape // shapeStruct: each field's exact JSON name → its shape
	elem   *keyShape            // shapeList, shapeMap: the elements' shape
}

type shapeKind uint8

const (
	shapeLeaf   shapeKind = iota // nothing below decodes by key
	shapeStruct                  // an object decoded into a struct's fields
	shapeList                    // an array of elem
	shapeMap                     // an object of elem values
)

// shapes caches keyShapeOf by type.
var shapes sync.Map // reflect.Type → *keyShape

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// keyShapeOf returns the shape of t (cached).
func keyShapeOf(t reflect.Type) *keyShape {
	if s, ok := shapes.Load(t); ok {
		return s.(*keyShape)
	}
	s := buildShape(t, map[reflect.Type]*keyShape{})
	shapes.Store(t, s)
	return s
}

// buildShape computes t's shape; seen holds the shapes under construction,
// for recursive types.
func buildShape(t reflect.Type, seen map[reflect.Type]*keyShape) *keyShape {
	if s, ok := seen[t]; ok {
		return s
	}
	leaf := &keyShape{}
	if t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType)) {
		return leaf // decodes itself (time.Time and the like)
	}
	switch t.Kind() {
	case reflect.Pointer:
		// A pointer decodes as what it points to; sharing that shape (not
		// copying it) keeps a recursive type's shape whole while it is built.
		return buildShape(t.Elem(), seen)
	case reflect.Slice, reflect.Array, reflect.Map:
		s := &keyShape{kind: shapeList}
		if t.Kind() == reflect.Map {
			s.kind = shapeMap
		}
		seen[t] = s
		s.elem = buildShape(t.Elem(), seen)
		if s.elem.kind == shapeLeaf {
			return leaf
		}
		return s
	case reflect.Struct:
		s := &keyShape{kind: shapeStruct, fields: map[string]*keyShape{}}
		seen[t] = s
		for name, ft := range jsonFields(t) {
			s.fields[name] = buildShape(ft, seen)
		}
		return s
	}
	return leaf
}

// jsonFields returns the fields encoding/json decodes a JSON object into for
// struct type t, by their exact JSON name: exported fields named by their
// json tag or Go name, embedded structs' fields promoted, and a name that
// several fields share at one depth resolved as encoding/json resolves it
// (the shallowest wins; at equal depth a single tagged field wins; otherwise
// none does).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	type cand struct {
		typ    reflect.Type
		depth  int
		tagged bool
	}
	byName := map[string][]cand{}
	visited := map[reflect.Type]bool{}
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		if visited[t] {
			return
		}
		visited[t] = true
		defer delete(visited, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sf.Anonymous {
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name != "" && !validTagName(name) {
				name = ""
			}
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				walk(ft, depth+1)
				continue
			}
			tagged := name != ""
			if !tagged {
				name = sf.Name
			}
			byName[name] = append(byName[name], cand{typ: sf.Type, depth: depth, tagged: tagged})
		}
	}
	walk(t, 0)
	out := make(map[string]reflect.Type, len(byName))
	for name, cs := range byName {
		best := cs[0].depth
		for _, c := range cs {
			best = min(best, c.depth)
		}
		var top []cand
		for _, c := range cs {
			if c.depth == best {
				top = append(top, c)
			}
		}
		if len(top) > 1 {
			var tagged []cand
			for _, c := range top {
				if c.tagged {
					tagged = append(tagged, c)
				}
			}
			top = tagged
		}
		if len(top) == 1 {
			out[name] = top[0].typ
		}
	}
	return out
}

// validTagName reports whether encoding/json accepts name from a json tag.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// Arguments returns the arguments raw (a JSON object) as they decode
// into a value of type t by exact JSON name: at every level where the Go
// type is a struct, members whose key is not the exact JSON name of a field
// are removed (encoding/json would fill a field from a key that differs only
// in case). The top-level fields named in dates that hold an RFC 3339
// full-date ("2026-07-28", what the input schema announces for a time.Time
// with format date) are written as the date-time time.Time reads
// ("2026-07-28T00:00:00Z"). raw is returned as it is when nothing changes,
// and when it is not valid JSON, for json.Unmarshal to judge.
func Arguments(raw json.RawMessage, t reflect.Type, dates []string) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return raw
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	shape := keyShapeOf(t)
	if exactAlready(raw, shape, dates) {
		return raw
	}
	out, changed := exactValue(raw, shape, dates)
	if !changed {
		return raw
	}
	return out
}

// exactAlready reports, reading raw once without allocating, whether it is
// an object that Arguments would return unchanged because it holds what
// the common arguments hold: keys of plain ASCII that are each the exact
// JSON name of a field, none of them a date field, and values that decode
// by no key (no struct below). Anything else takes exactValue.
func exactAlready(raw []byte, shape *keyShape, dates []string) bool {
	if shape.kind != shapeStruct {
		return false
	}
	s := jsonscan.Scanner{B: raw}
	s.Space()
	if s.I >= len(s.B) || s.B[s.I] != '{' {
		return false
	}
	s.I++
	s.Space()
	if s.I < len(s.B) && s.B[s.I] == '}' {
		s.I++
		s.Space()
		return s.I == len(s.B)
	}
	for {
		s.Space()
		if s.I >= len(s.B) || s.B[s.I] != '"' {
			return false
		}
		key, ok := s.Str()
		if !ok {
			return false
		}
		name := key[1 : len(key)-1]
		fs, ok := shape.fields[string(name)]
		if !ok || fs.kind != shapeLeaf {
			return false
		}
		for _, d := range dates {
			if d == string(name) {
				return false
			}
		}
		s.Space()
		if s.I >= len(s.B) || s.B[s.I] != ':' {
			return false
		}
		s.I++
		if !s.Skip(0) {
			return false
		}
		s.Space()
		if s.I >= len(s.B) {
			return false
		}
		switch s.B[s.I] {
		case ',':
			s.I++
		case '}':
			s.I++
			s.Space()
			return s.I == len(s.B)
		default:
			return false
		}
	}
}

// exactValue applies Arguments to one JSON value of shape s (dates
// applies at this level only).
func exactValue(raw json.RawMessage, s *keyShape, dates []string) (json.RawMessage, bool) {
	switch s.kind {
	case shapeStruct, shapeMap:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || m == nil {
			return raw, false
		}
		changed := false
		for k, v := range m {
			elem := s.elem
			if s.kind == shapeStruct {
				fs, ok := s.fields[k]
				if !ok {
					delete(m, k)
					changed = true
					continue
				}
				elem = fs
			}
			if nv, c := exactValue(v, elem, nil); c {
				m[k], changed = nv, true
			}
		}
		for _, name := range dates {
			var d string
			if v, ok := m[name]; ok && json.Unmarshal(v, &d) == nil && format.IsDate(d) {
				m[name] = json.RawMessage(`"` + d + `T00:00:00Z"`)
				changed = true
			}
		}
		return remarshal(raw, m, changed)
	case shapeList:
		var l []json.RawMessage
		if json.Unmarshal(raw, &l) != nil || l == nil {
			return raw, false
		}
		changed := false
		for i, v := range l {
			if nv, c := exactValue(v, s.elem, nil); c {
				l[i], changed = nv, true
			}
		}
		return remarshal(raw, l, changed)
	}
	return raw, false
}

func remarshal(raw json.RawMessage, v any, changed bool) (json.RawMessage, bool) {
	if !changed {
		return raw, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw, false
	}
	return b, true
}
