package annotate

import (
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Arg is a plain argument of a tool: a field its arguments can fill that
// carries no elicit tag. Generated code decodes it by its exact JSON name and
// checks the rules its jsonschema tag gives the tool's input schema
// (invopop/jsonschema's dialect, which runtime.Flow.InputSchema reflects): a
// plain argument's only checks are the input schema's.
type Arg struct {
	GoName   string         // field name
	Path     []string       // selector path from the struct
	JSONName string         // key in the arguments
	Pos      token.Position // position of the field

	// Kind is the JSON Schema type, for a field of a string, integer,
	// float, bool or time.Time type (or a pointer to one); Opaque fields
	// have none.
	Kind    Kind
	Type    TypeRef // the scalar type (Kind set)
	Basic   string  // its underlying predeclared type ("" for time.Time)
	Pointer bool
	// Opaque: any other type (slices, maps, structs, …), or a jsonschema
	// keyword the generated check does not enforce (pattern, multipleOf,
	// nullable, …). The field is decoded with encoding/json by exact name,
	// and the runtime checks the tool's input schema as a whole.
	Opaque bool
	// WholeStruct: the json tag's ",string" or ",inline" option, which only
	// encoding/json decoding the whole struct applies.
	WholeStruct bool
	// ViaPointer: promoted through an embedded pointer to a struct, which
	// encoding/json allocates on the way.
	ViaPointer bool
	// InSchema: the input schema has the property (not jsonschema:"-"), so
	// null and every other JSON type but Kind's are refused.
	InSchema bool
	// Required: the input schema requires it (invopop: no omitempty or
	// omitzero in the json tag, or "required" in the jsonschema tag).
	Required bool

	// Title and Description of the input schema's property (the jsonschema
	// tag's title= and description=, jsonschema_description, or the whole
	// tag when it has no key=value pair: go-sdk's dialect).
	Title, Description string
	// Annotated: the jsonschema tag carries an annotation (default,
	// example, readOnly, writeOnly) or a format mcpgen does not check, which
	// the generated input schema does not write: the runtime then reflects
	// the schema instead.
	Annotated bool

	Format               string // "email", "uri", "date" or "date-time" (others are annotations)
	MinLength, MaxLength *uint64
	// Number bounds as written (JSON numbers).
	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum string
	Enum                                                 []string // string enum values

	// The members below follow from the ones above; [Struct.Derive] sets
	// them once when the model is built.

	// SchemaType is the JSON Schema type of Kind ("" when Opaque).
	SchemaType string
	// Rules: the argument has rules on its value (bounds, format, enum),
	// which generated code checks unless it is Opaque.
	Rules bool
}

// argModel models a field without an elicit tag as a plain argument.
func (a *analyzer) argModel(c *fieldCand) *Arg {
	v := c.v
	g := &Arg{GoName: v.Name(), Path: c.path, JSONName: c.json, Pos: a.fset.Position(v.Pos()), ViaPointer: c.viaPtr}
	tag := reflect.StructTag(c.tags)
	jsonTags := strings.Split(tag.Get("json"), ",")
	js := tag.Get("jsonschema")
	jsTags := strings.Split(js, ",")
	g.InSchema = jsTags[0] != "-"
	if g.InSchema {
		g.Required = true
		for _, o := range jsonTags[1:] {
			if o == "omitempty" || o == "omitzero" {
				g.Required = false
			}
			if o == "string" || o == "inline" {
				g.Opaque, g.WholeStruct = true, true
			}
		}
		for _, o := range jsTags {
			if o == "required" {
				g.Required = true
			}
		}
	}
	if _, extras := tag.Lookup("jsonschema_extras"); extras {
		g.Opaque = true
	}
	t := v.Type()
	if decodesItself(t) {
		g.Opaque = true
	}
	if p, ok := t.(*types.Pointer); ok {
		g.Pointer, t = true, p.Elem()
	}
	switch {
	case isTime(t):
		g.Kind, g.Type = DateTime, TypeRef{Path: "time", Name: "Time"}
	default:
		b, ok := t.Underlying().(*types.Basic)
		if !ok {
			g.Opaque = true
			return g
		}
		g.Type, g.Basic = typeRef(t), b.Name()
		switch {
		case b.Info()&types.IsString != 0:
			g.Kind = String
		case b.Info()&types.IsInteger != 0 && b.Kind() != types.Uintptr:
			g.Kind = Integer
		case b.Info()&types.IsFloat != 0:
			g.Kind = Number
		case b.Kind() == types.Bool:
			g.Kind = Boolean
		default:
			g.Opaque = true
			return g
		}
	}
	g.Description = tag.Get("jsonschema_description")
	if g.InSchema && strings.Contains(js, "=") {
		for _, msg := range g.keywords(js) {
			a.errorf(g.Pos, "jsonschema tag on %s: %s", v.Name(), msg)
		}
	} else if g.InSchema && js != "" && js != "required" && g.Description == "" {
		g.Description = js
	}
	return g
}

// keywords reads the jsonschema tag's keywords as invopop/jsonschema does
// for the field's type (its genericKeywords, stringKeywords and
// numericalKeywords), marking the field Opaque for any the generated check
// does not enforce.
// It returns what is wrong with the values it reads: a bound that is not a
// JSON number (RFC 8259, section 6), which would make the input schema
// invalid JSON, or a length beyond what a Go int holds on 32-bit platforms.
func (g *Arg) keywords(js string) []string {
	var bad []string
	for _, tag := range splitUnescapedCommas(js) {
		name, val, ok := strings.Cut(tag, "=")
		if !ok {
			if tag != "required" && tag != "" {
				if tag == "nullable" {
					g.Opaque = true
				}
			}
			continue
		}
		switch name {
		case "title":
			g.Title = val
			continue
		case "description":
			g.Description = val
			continue
		case "default", "example", "readOnly", "writeOnly":
			g.Annotated = true
			continue
		case "type", "anchor", "oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type":
			g.Opaque = true
			continue
		}
		length := func() *uint64 {
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return nil // invopop drops it
			}
			if n > math.MaxInt32 {
				bad = append(bad, fmt.Sprintf("%s=%s is more than %d, the largest int on 32-bit platforms", name, val, math.MaxInt32))
			}
			return &n
		}
		kind := g.Kind
		if kind == DateTime {
			kind = String // invopop reflects time.Time as a string and reads string keywords for it
		}
		switch kind {
		case String:
			switch name {
			case "minLength":
				g.MinLength = length()
				g.Opaque = g.Opaque || g.Kind == DateTime
			case "maxLength":
				g.MaxLength = length()
				g.Opaque = g.Opaque || g.Kind == DateTime
			case "format":
				switch {
				case g.Kind == DateTime && (val == "date" || val == "date-time"):
					g.Format = val
				case g.Kind == String && (val == "email" || val == "uri" || val == "date" || val == "date-time"):
					g.Format = val
				default:
					g.Annotated = true
				}
			case "enum":
				g.Enum = append(g.Enum, val)
				g.Opaque = g.Opaque || g.Kind == DateTime
			default:
				g.Opaque = true
			}
		case Integer, Number:
			if strings.Count(tag, "=") != 1 {
				continue // invopop drops it
			}
			if _, err := strconv.ParseFloat(val, 64); err != nil {
				continue // not a number at all: invopop drops it
			}
			if !jsonNumber(val) {
				bad = append(bad, fmt.Sprintf("%s=%s is not a JSON number (write it like 5, -0.5 or 1e3): the input schema would not be valid JSON", name, val))
				continue
			}
			switch name {
			case "minimum":
				g.Minimum = val
			case "maximum":
				g.Maximum = val
			case "exclusiveMinimum":
				g.ExclusiveMinimum = val
			case "exclusiveMaximum":
				g.ExclusiveMaximum = val
			default:
				g.Opaque = true
			}
		default:
			if name != "default" {
				g.Opaque = true
			}
		}
	}
	return bad
}

// jsonNumber reports whether s is a number as JSON writes it (RFC 8259,
// section 6): no leading '+' or zeros, no hexadecimal, NaN or infinity.
func jsonNumber(s string) bool {
	var v any
	return json.Unmarshal([]byte(s), &v) == nil && strings.IndexFunc(s, func(r rune) bool {
		return !strings.ContainsRune("0123456789-+.eE", r)
	}) < 0
}

// splitUnescapedCommas splits a jsonschema tag on commas not preceded by a
// backslash, which joins the two parts with a comma (invopop/jsonschema's
// splitOnUnescapedCommas).
func splitUnescapedCommas(s string) []string {
	parts := strings.Split(s, ",")
	out := []string{parts[0]}
	for _, p := range parts[1:] {
		last := out[len(out)-1]
		if last != "" && last[len(last)-1] == '\\' {
			out[len(out)-1] = last[:len(last)-1] + "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// decodesItself reports whether encoding/json or invopop/jsonschema would
// hand a value of type t (or what it points to) to the type's own methods
// (UnmarshalJSON, UnmarshalText, JSONSchema, JSONSchemaExtend), time.Time
// aside: generated code then decodes it with encoding/json, and the
// runtime checks the input schema.
func decodesItself(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if isTime(t) {
		return false
	}
	ms := types.NewMethodSet(types.NewPointer(t))
	for i := 0; i < ms.Len(); i++ {
		switch ms.At(i).Obj().Name() {
		case "UnmarshalJSON", "UnmarshalText", "JSONSchema", "JSONSchemaExtend", "JSONSchemaAlias":
			return true
		}
	}
	return false
}
