package exact

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// ErrorText describes an error of json.Unmarshal of a value of type t (a
// pointer to the argument struct, or to one argument's field) the way form
// answers are described: the field by its JSON path, the expected type by its JSON
// Schema name (JSON Schema Validation §6.1.1: "an integer", "a number",
// "a string", "a boolean", "an array", "an object"), and the JSON type that
// came ("replicas: must be an integer, got string"). A number that is
// of the right kind but beyond the Go type's range "does not fit in int8",
// as for form answers. root names the value itself: "arguments" for the
// argument struct, an argument's key for one argument, which also prefixes
// the paths within it.
func ErrorText(err error, t reflect.Type, root string) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err.Error()
	}
	path, field := jsonPath(t, te.Field)
	switch {
	case path == "":
		path = root
	case root != "arguments":
		path = root + "." + path
	}
	got, num, isNum := strings.Cut(te.Value, " ")
	if got == "bool" {
		got = "boolean"
	}
	want := deref(te.Type)
	if isNum && got == "number" {
		switch want.Kind() {
		case reflect.Float32, reflect.Float64:
			return path + ": does not fit in " + typeName(want)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if x, err := strconv.ParseFloat(num, 64); err != nil || x == math.Trunc(x) {
				return path + ": does not fit in " + typeName(want)
			}
		}
	}
	if field != nil && deref(field).Kind() == reflect.Slice && deref(field) != want {
		// An item of the list has the wrong type.
		return path + ": must be an array of " + plural(want) + ", got " + got + " in the array"
	}
	return path + ": must be " + schemaTypeName(want) + ", got " + got
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}

// schemaTypeName is the JSON Schema type of a Go type, with its article.
func schemaTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

func plural(t reflect.Type) string {
	switch s := schemaTypeName(t); {
	case strings.HasPrefix(s, "an "):
		return s[3:] + "s"
	default:
		return strings.TrimPrefix(s, "a ") + "s"
	}
}

// jsonPath turns the Field of a json.UnmarshalTypeError ("In.x", Go names
// for embedded structs, JSON keys otherwise) into the JSON path of the value
// ("x"), and returns the Go type of the field it names (nil when unknown).
func jsonPath(t reflect.Type, field string) (string, reflect.Type) {
	if field == "" {
		return "", nil
	}
	var out []string
	cur := deref(t)
	var last reflect.Type
	for _, part := range strings.Split(field, ".") {
		if cur == nil || cur.Kind() != reflect.Struct {
			out = append(out, part)
			cur, last = nil, nil
			continue
		}
		if sf, ok := cur.FieldByName(part); ok && sf.Anonymous && jsonKey(sf) == "" {
			// An embedded struct: its fields are promoted, so its name is not
			// part of the JSON path.
			cur = deref(sf.Type)
			continue
		}
		out = append(out, part)
		last = jsonFields(cur)[part] // nil when none
		cur = deref(last)
	}
	return strings.Join(out, "."), last
}

func jsonKey(sf reflect.StructField) string {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	return name
}
