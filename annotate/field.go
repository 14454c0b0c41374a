package annotate

import (
	"cmp"
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/impl"
)

// validFormat checks a default against its format with the same checks the
// generated code uses at run time.
func validFormat(format, s string) bool { return impl.CheckFormat(format, s) }

// knownOptions lists every elicit tag option (README.md, "The tag").
var knownOptions = []string{
	"required", "optional", "title", "description", "format",
	"minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems",
	"enum", "default", "ask", "-", "notsecret",
}

var flagOptions = map[string]bool{"required": true, "optional": true, "-": true, "notsecret": true}

// fieldModel maps a Go field and its elicit tag to a Field, reporting every
// problem; it returns nil when the field is not elicitable or is broken.
func (a *analyzer) fieldModel(c *fieldCand) *Field {
	v := c.v
	fpos := a.fset.Position(v.Pos())
	opts, err := ParseTag(c.elicit)
	if err != nil {
		te := err.(*TagError)
		a.errorf(c.at(te.Offset), "elicit tag on %s: %s", v.Name(), te.Msg)
		return nil
	}
	f := &Field{GoName: v.Name(), Path: c.path, JSONName: c.json, Pos: fpos, Required: true}
	byKey := map[string]Option{}
	ok := true
	for _, o := range opts {
		if !slices.Contains(knownOptions, o.Key) {
			msg := fmt.Sprintf("elicit tag on %s: unknown option %q", v.Name(), o.Key)
			if s := nearest(o.Key, knownOptions); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; known options: " + strings.Join(knownOptions, ", ")
			}
			a.errorf(c.at(o.Offset), "%s", msg)
			ok = false
			continue
		}
		if _, dup := byKey[o.Key]; dup {
			a.errorf(c.at(o.Offset), "elicit tag on %s: option %q is given twice; keep one", v.Name(), o.Key)
			ok = false
			continue
		}
		if flagOptions[o.Key] && o.HasVal {
			a.errorf(c.at(o.Offset), "elicit tag on %s: %q is a flag and takes no value; write %s alone", v.Name(), o.Key, o.Key)
			ok = false
			continue
		}
		if !flagOptions[o.Key] && !o.HasVal {
			a.errorf(c.at(o.Offset), "elicit tag on %s: %q needs a value: %s=…", v.Name(), o.Key, o.Key)
			ok = false
			continue
		}
		byKey[o.Key] = o
	}
	if _, skip := byKey["-"]; skip {
		if len(opts) > 1 {
			a.errorf(c.at(byKey["-"].Offset), "elicit tag on %s: \"-\" (never elicit) cannot be combined with other options; write elicit:\"-\" alone", v.Name())
		}
		return nil
	}
	if !ok {
		return nil
	}
	if _, r := byKey["required"]; r {
		if o, opt := byKey["optional"]; opt {
			a.errorf(c.at(o.Offset), "elicit tag on %s: both required and optional; keep one (required is the default)", v.Name())
			return nil
		}
	}
	if _, opt := byKey["optional"]; opt {
		f.Required = false
	}
	if o, has := byKey["ask"]; has {
		switch o.Value {
		case "always":
			f.AskAlways = true
		case "missing":
		default:
			a.errorf(c.at(o.Offset), "elicit tag on %s: ask=%s: want ask=missing (the default) or ask=always", v.Name(), o.Value)
			return nil
		}
	}

	if !a.mapType(f, v.Type()) {
		return nil
	}
	if !a.applyOptions(f, c, byKey) {
		return nil
	}
	a.titles(f, c)
	if _, ns := byKey["notsecret"]; !ns {
		if word := secretWord(f.GoName, f.JSONName); word != "" {
			a.errorf(fpos, "%s looks like a secret (%q): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; use URL mode elicitation for it, or add notsecret to the elicit tag if it is not a secret", v.Name(), word)
			return nil
		}
	}
	if f.Required && !f.Pointer && !f.Slice && f.Kind == Boolean {
		a.errorf(fpos, "%s is a required bool, but false is a real answer and would read as missing: declare it as *bool (nil means missing), or mark it optional", v.Name())
		return nil
	}
	if f.Required && !f.Pointer && (f.Kind == Integer || f.Kind == Number) && boundsAllowZero(f) {
		a.errorf(fpos, "%s is a required %s whose bounds allow 0, but 0 would read as missing: declare it as *%s (nil means missing), give it bounds that exclude 0, or mark it optional", v.Name(), f.Type.Name, f.Type.Name)
		return nil
	}
	return f
}

func boundsAllowZero(f *Field) bool {
	return (f.Minimum == nil || *f.Minimum <= 0) && (f.Maximum == nil || *f.Maximum >= 0)
}

// mapType maps the Go type to a kind (README.md, "The tag": string kinds → string, int
// kinds → integer, float kinds → number, bool → boolean, time.Time → string
// date-time, []string or a slice of a named string type → multi select;
// pointers to these).
func (a *analyzer) mapType(f *Field, t types.Type) bool {
	p := f.Pos
	orig := t
	if ptr, ok := t.(*types.Pointer); ok {
		f.Pointer = true
		t = ptr.Elem()
	}
	if isTime(t) {
		f.Kind, f.Type = DateTime, TypeRef{Path: "time", Name: "Time"}
		return true
	}
	if sl, ok := t.(*types.Slice); ok && !f.Pointer {
		el := sl.Elem()
		if b, ok := el.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			f.Kind, f.Slice, f.Basic = MultiSelect, true, b.Name()
			f.Type = typeRef(el)
			if named, ok := el.(*types.Named); ok {
				if !a.constEnum(f, named) {
					return false
				}
			}
			return true
		}
	}
	if named, ok := t.(*types.Named); ok && named.TypeParams().Len() == 0 {
		if b, ok := named.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			if !a.constEnum(f, named) {
				return false
			}
		}
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		f.Type, f.Basic = typeRef(t), b.Name()
		switch {
		case b.Info()&types.IsString != 0:
			f.Kind = String
			return true
		case b.Info()&types.IsInteger != 0 && b.Kind() != types.Uintptr:
			f.Kind = Integer
			return true
		case b.Info()&types.IsFloat != 0:
			f.Kind = Number
			return true
		case b.Kind() == types.Bool:
			f.Kind = Boolean
			return true
		}
	}
	a.errorf(p, "%s has type %s, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time.Time, or []string (multi select), or pointers to these%s; remove the elicit tag or mark it elicit:\"-\"", f.GoName, typeString(orig), typeHint(orig))
	return false
}

// typeHint suggests what to write instead of an unsupported field type.
func typeHint(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		if _, ok := p.Elem().Underlying().(*types.Slice); ok {
			return " (use " + typeString(p.Elem()) + " itself: nil already means missing)"
		}
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return "; to ask for the fields of " + typeString(t) + ", embed it (write " + typeString(t) + " without a field name) and tag its fields"
	case *types.Slice:
		return "; for a multi select use []string with enum=a|b|c, or a slice of a named string type with constants"
	case *types.Map:
		return "; ask for each entry as its own field"
	case *types.Basic:
		if u.Kind() == types.Uintptr || u.Info()&types.IsComplex != 0 {
			return "; use an int or float type"
		}
	}
	return ""
}

func typeRef(t types.Type) TypeRef {
	if n, ok := t.(*types.Named); ok {
		path := ""
		if n.Obj().Pkg() != nil {
			path = n.Obj().Pkg().Path()
		}
		return TypeRef{Path: path, Name: n.Obj().Name()}
	}
	if b, ok := t.(*types.Basic); ok {
		return TypeRef{Name: b.Name()}
	}
	return TypeRef{Name: t.String()}
}

// constEnum sets f.Enum to the typed constants of the named string type
// declared in its package, in source order, with their line comments as
// titles (f.Titled when every constant has one), the way stringer finds
// constants. A type whose constants are only partly titled is reported at
// the field and constEnum returns false: the select would silently lose
// every title (a titled select needs a title on each choice, MCP 2026-07-28 client/elicitation).
func (a *analyzer) constEnum(f *Field, named *types.Named) bool {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return true
	}
	var consts []*types.Const
	scope := obj.Pkg().Scope()
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if ok && types.Identical(c.Type(), named) && c.Val().Kind() == constant.String {
			consts = append(consts, c)
		}
	}
	slices.SortFunc(consts, func(x, y *types.Const) int { return cmp.Compare(x.Pos(), y.Pos()) })
	var titledConst, untitled *types.Const
	for _, c := range consts {
		if a.constDocs[c.Pos()] != "" {
			titledConst = cmp.Or(titledConst, c)
		} else {
			untitled = cmp.Or(untitled, c)
		}
	}
	if titledConst != nil && untitled != nil {
		a.errorf(f.Pos, "%s has type %s, whose constants are only partly titled: %s has a line comment (its title) but %s (%s) has none; give every constant of %s a line comment, or none", f.GoName, obj.Name(), titledConst.Name(), untitled.Name(), constAt(a.fset.Position(untitled.Pos())), obj.Name())
		return false
	}
	f.Enum = make([]EnumItem, 0, len(consts))
	for _, c := range consts {
		f.Enum = append(f.Enum, EnumItem{Value: constant.StringVal(c.Val()), Title: a.constDocs[c.Pos()]})
	}
	f.Titled = titledConst != nil
	return true
}

func constAt(p token.Position) string { return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line) }

// applyOptions checks each option against the field's kind and fills the model.
func (a *analyzer) applyOptions(f *Field, c *fieldCand, opts map[string]Option) bool {
	ok := true
	bad := func(o Option, format string, args ...any) {
		a.errorf(c.at(o.Offset), "elicit tag on %s: %s", f.GoName, fmt.Sprintf(format, args...))
		ok = false
	}
	if o, has := opts["title"]; has {
		f.Title = o.Value
	}
	if o, has := opts["description"]; has {
		f.Description = o.Value
	}
	if o, has := opts["format"]; has {
		switch {
		case f.Kind == DateTime && (o.Value == "date" || o.Value == "date-time"):
			f.Format = o.Value
		case f.Kind == String && slices.Contains([]string{"email", "uri", "date", "date-time"}, o.Value):
			if len(f.Enum) > 0 || opts["enum"].Key != "" {
				bad(o, "format cannot be combined with enum: the choices already fix the values; remove format")
			}
			f.Format = o.Value
		case f.Kind == DateTime:
			bad(o, "format=%s does not fit a time.Time; write format=date or format=date-time (the default)", o.Value)
		case f.Kind == String:
			bad(o, "format=%s is not a format of the form grammar, which knows only email, uri, date and date-time; remove it and check the value in your handler", o.Value)
		default:
			bad(o, "%s", kindMismatch("format", f))
		}
	}
	if f.Kind == DateTime && f.Format == "" {
		f.Format = "date-time"
	}
	// countOpt reads a length or item count option of a field of kind;
	// want describes the number, e.g. "a length in characters, e.g. %s=100".
	countOpt := func(key string, kind Kind, want string, dst **uint64) {
		o, has := opts[key]
		if !has {
			return
		}
		if f.Kind != kind {
			bad(o, "%s", kindMismatch(key, f))
			return
		}
		n, err := strconv.ParseUint(o.Value, 10, 32)
		if err != nil {
			bad(o, "%s=%s is not a whole number ≥ 0; write "+want, key, o.Value, key)
			return
		}
		*dst = &n
	}
	countOpt("minLength", String, "a length in characters, e.g. %s=100", &f.MinLength)
	countOpt("maxLength", String, "a length in characters, e.g. %s=100", &f.MaxLength)
	countOpt("minItems", MultiSelect, "a count of choices, e.g. %s=1", &f.MinItems)
	countOpt("maxItems", MultiSelect, "a count of choices, e.g. %s=1", &f.MaxItems)
	numOpt := func(key string, dst **float64, lit *string) {
		o, has := opts[key]
		if !has {
			return
		}
		if f.Kind != Integer && f.Kind != Number {
			bad(o, "%s", kindMismatch(key, f))
			return
		}
		if f.Kind == Integer {
			n, why := exactInt(o.Value)
			switch why {
			case notNumber:
				bad(o, "%s=%s is not a number; write a finite decimal number, e.g. %s=1 or %s=0.5", key, o.Value, key, key)
				return
			case notWhole:
				x, _ := strconv.ParseFloat(o.Value, 64)
				bad(o, "%s=%s is not a whole number, but %s is an integer (%s); write e.g. %s=%s", key, o.Value, f.GoName, f.Type.Name, key, fmtFloat(math.Round(x)))
				return
			case inexact:
				bad(o, "%s=%s is too large to read exactly in that notation; write it in plain digits, e.g. %s=%s", key, o.Value, key, n)
				return
			}
			if lo, hi := intRange(f); n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
				bad(o, "%s=%s is outside what %s can hold (%s to %s); write a bound in that range, or use a wider type", key, o.Value, f.Type.Name, lo, hi)
				return
			}
			// The bound goes out exactly as written in digits: a float64
			// would round -9223372036854775808 to -9223372036854776000.
			x, _ := new(big.Float).SetInt(n).Float64()
			*dst = &x
			*lit = n.String()
			return
		}
		x, err := strconv.ParseFloat(o.Value, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(x) || math.IsInf(x, 0) && !errors.Is(err, strconv.ErrRange) {
			bad(o, "%s=%s is not a number; write a finite decimal number, e.g. %s=1 or %s=0.5", key, o.Value, key, key)
			return
		}
		if lim := floatLimit(f); math.Abs(x) > lim {
			bad(o, "%s=%s is outside what %s can hold (-%s to %s); write a bound in that range%s", key, o.Value, f.Type.Name, fmtLimit(lim), fmtLimit(lim), widerHint(f))
			return
		}
		*dst = &x
		*lit = canonicalNumber(o.Value)
	}
	numOpt("minimum", &f.Minimum, &f.MinimumLit)
	numOpt("maximum", &f.Maximum, &f.MaximumLit)
	if f.Minimum != nil && f.Maximum != nil && compareBounds(f, f.MinimumLit, f.MaximumLit) > 0 {
		bad(opts["minimum"], "minimum=%s is above maximum=%s, so no value can satisfy both; swap them or fix one", f.MinimumLit, f.MaximumLit)
	}
	if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
		bad(opts["minLength"], "minLength=%d is above maxLength=%d, so no value can satisfy both; swap them or fix one", *f.MinLength, *f.MaxLength)
	}
	if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
		bad(opts["minItems"], "minItems=%d is above maxItems=%d, so no answer can satisfy both; swap them or fix one", *f.MinItems, *f.MaxItems)
	}
	if o, has := opts["enum"]; has {
		if f.Kind != String && f.Kind != MultiSelect {
			bad(o, "%s", kindMismatch("enum", f))
		} else if items, msg := parseEnum(o); msg != "" {
			bad(o, "%s", msg)
		} else {
			f.Enum, f.Titled = items, items[0].Title != ""
		}
	}
	if f.Kind == MultiSelect && len(f.Enum) == 0 {
		a.errorf(f.Pos, "%s is a multi select (%s) and needs its choices: add enum=a|b|c, or use a slice of a named string type with constants", f.GoName, "[]"+f.Type.Name)
		ok = false
	}
	if len(f.Enum) > 0 && f.MinLength != nil {
		bad(opts["minLength"], "minLength cannot be combined with enum: the choices already fix the values; remove minLength")
	}
	if len(f.Enum) > 0 && f.MaxLength != nil {
		bad(opts["maxLength"], "maxLength cannot be combined with enum: the choices already fix the values; remove maxLength")
	}
	if f.MinItems != nil && len(f.Enum) > 0 && *f.MinItems > uint64(len(f.Enum)) {
		bad(opts["minItems"], "minItems=%d is more than the %d choices, so no answer can satisfy it; lower it to at most %d", *f.MinItems, len(f.Enum), len(f.Enum))
	}
	// A required non-pointer string or multi select reads "" or [] as no
	// answer, so the schema must not allow them: a form that sent one would
	// pass the validator and still leave the field missing.
	if f.Required && !f.Pointer && f.Kind == String && f.Format == "" && len(f.Enum) == 0 {
		if f.MinLength == nil {
			one := uint64(1)
			f.MinLength = &one
		} else if *f.MinLength == 0 {
			bad(opts["minLength"], "minLength=0 on a required string: \"\" reads as no answer; leave minLength out (it becomes 1), or make the field optional or a *string")
		}
	}
	if f.Required && f.Kind == MultiSelect {
		if f.MinItems == nil {
			one := uint64(1)
			f.MinItems = &one
		} else if *f.MinItems == 0 {
			bad(opts["minItems"], "minItems=0 on a required multi select: an empty list reads as no answer; leave minItems out (it becomes 1), or make the field optional")
		}
	}
	if !ok {
		return false
	}
	if o, has := opts["default"]; has {
		d, msg := parseDefault(f, o)
		if msg != "" {
			bad(o, "default=%s: %s", o.Value, msg)
			return false
		}
		f.Default = d
	}
	return ok
}

// formatExample names a format with an example of a valid value.
func formatExample(format string) string {
	switch format {
	case "date":
		return "date; write YYYY-MM-DD (RFC 3339 full-date), e.g. 2026-07-28"
	case "date-time":
		return "date-time; write an RFC 3339 date-time, e.g. 2026-07-28T09:30:00Z"
	case "email":
		return "email address, e.g. name@example.com"
	case "uri":
		return "absolute URI, e.g. https://example.com/"
	}
	return format
}

// kindMismatch says that option key does not apply to the field's kind, and
// what to write instead.
func kindMismatch(key string, f *Field) string {
	applies := map[string]string{
		"format": "strings", "minLength": "strings", "maxLength": "strings",
		"minimum": "integers and numbers", "maximum": "integers and numbers",
		"minItems": "multi selects ([]string)", "maxItems": "multi selects ([]string)",
		"enum": "strings and []string",
	}[key]
	goType := f.Type.Name
	if f.Pointer {
		goType = "*" + goType
	} else if f.Slice {
		goType = "[]" + goType
	}
	msg := fmt.Sprintf("%s applies to %s, not to %s (%s is %s)", key, applies, kindPhrase(f), f.GoName, goType)
	var hint string
	switch {
	case key == "enum" && f.Kind == Boolean:
		hint = "a bool is already a yes/no choice: remove enum, or make the field a string"
	case key == "enum", key == "format":
		hint = "remove " + key + ", or make the field a string"
	case (f.Kind == Integer || f.Kind == Number) && strings.HasPrefix(key, "min"):
		hint = "for a number's bounds use minimum"
	case f.Kind == Integer || f.Kind == Number:
		hint = "for a number's bounds use maximum"
	case f.Kind == String && strings.HasPrefix(key, "min"):
		hint = "for a string's length use minLength"
	case f.Kind == String:
		hint = "for a string's length use maxLength"
	case f.Kind == MultiSelect && strings.HasPrefix(key, "min"):
		hint = "for the number of choices use minItems"
	case f.Kind == MultiSelect:
		hint = "for the number of choices use maxItems"
	default:
		hint = "remove " + key
	}
	return msg + "; " + hint
}

func kindPhrase(f *Field) string {
	if f.Kind == DateTime {
		return "time.Time"
	}
	if f.Kind == MultiSelect {
		return "a multi select"
	}
	return f.Kind.String() + "s"
}

func parseEnum(o Option) ([]EnumItem, string) {
	if strings.TrimSpace(o.Value) == "" {
		return nil, "enum= is empty; list the choices, e.g. enum=a|b|c"
	}
	var items []EnumItem
	seen := map[string]bool{}
	titledCount := 0
	for _, it := range o.Items {
		val, title, hasTitle := strings.Cut(it, ":")
		if val == "" {
			return nil, fmt.Sprintf("enum=%s has an empty choice; remove the extra '|' (or quote an empty value: '')", o.Value)
		}
		if seen[val] {
			return nil, fmt.Sprintf("enum lists %q twice; list each choice once", val)
		}
		seen[val] = true
		if hasTitle {
			if title == "" {
				return nil, fmt.Sprintf("enum choice %q has an empty title after ':'; write %s:Title, or drop the ':'", val, val)
			}
			titledCount++
		}
		items = append(items, EnumItem{Value: val, Title: title})
	}
	if titledCount > 0 && titledCount < len(items) {
		return nil, "enum mixes titled (value:Title) and untitled choices; title all of them or none"
	}
	return items, ""
}

// intRange is the range of the field's integer type, exactly.
func intRange(f *Field) (lo, hi *big.Int) {
	i := func(x int64) *big.Int { return big.NewInt(x) }
	u := func(x uint64) *big.Int { return new(big.Int).SetUint64(x) }
	switch f.Basic {
	case "int8":
		return i(math.MinInt8), i(math.MaxInt8)
	case "int16":
		return i(math.MinInt16), i(math.MaxInt16)
	case "int32", "rune":
		return i(math.MinInt32), i(math.MaxInt32)
	case "uint8", "byte":
		return i(0), u(math.MaxUint8)
	case "uint16":
		return i(0), u(math.MaxUint16)
	case "uint32":
		return i(0), u(math.MaxUint32)
	case "uint", "uint64":
		return i(0), u(math.MaxUint64)
	}
	return i(math.MinInt64), i(math.MaxInt64)
}

// Why exactInt could not read a literal as an integer.
const (
	isInt     = iota
	notNumber // not a finite number
	notWhole  // a number with a fraction
	inexact   // in float notation beyond 2^53, where float64 rounds
)

// exactInt reads an integer literal exactly: plain digits (with an optional
// sign) of any size, or a whole number in float notation (1e3, 10.0) up to
// 2^53, where float64 is still exact. For inexact it returns the rounded
// value as a suggestion.
func exactInt(s string) (*big.Int, int) {
	if n, ok := new(big.Int).SetString(s, 10); ok {
		return n, isInt
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return nil, notNumber
	}
	if x != math.Trunc(x) {
		return nil, notWhole
	}
	n, _ := new(big.Float).SetFloat64(x).Int(nil)
	if math.Abs(x) > 1<<53 {
		return n, inexact
	}
	return n, isInt
}

// compareBounds compares two bounds of the field as written (MinimumLit,
// MaximumLit): exactly for integers, as float64 for numbers.
func compareBounds(f *Field, a, b string) int {
	if f.Kind == Integer {
		x, _ := new(big.Int).SetString(a, 10)
		y, _ := new(big.Int).SetString(b, 10)
		if x != nil && y != nil {
			return x.Cmp(y)
		}
	}
	x, _ := strconv.ParseFloat(a, 64)
	y, _ := strconv.ParseFloat(b, 64)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// floatLimit is the largest finite magnitude of the field's float type.
func floatLimit(f *Field) float64 {
	if f.Basic == "float32" {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

func fmtLimit(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func widerHint(f *Field) string {
	if f.Basic == "float32" {
		return ", or use float64"
	}
	return ""
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// canonicalNumber writes a number literal the way JSON would: no '+', no
// leading zeros, no trailing ".0".
func canonicalNumber(s string) string {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func parseDefault(f *Field, o Option) (*Default, string) {
	d := &Default{Lit: o.Value}
	checkChoice := func(v string) string {
		if len(f.Enum) == 0 {
			return ""
		}
		for _, e := range f.Enum {
			if e.Value == v {
				return ""
			}
		}
		vals := make([]string, len(f.Enum))
		for i, e := range f.Enum {
			vals[i] = e.Value
		}
		return fmt.Sprintf("%q is not one of the choices (%s)", v, strings.Join(vals, ", "))
	}
	switch f.Kind {
	case String:
		d.String = o.Value
		if m := checkChoice(o.Value); m != "" {
			return nil, m
		}
		n := uint64(utf8.RuneCountInString(o.Value))
		if f.MinLength != nil && n < *f.MinLength {
			return nil, fmt.Sprintf("shorter than minLength=%d; pick a default the field accepts", *f.MinLength)
		}
		if f.MaxLength != nil && n > *f.MaxLength {
			return nil, fmt.Sprintf("longer than maxLength=%d; pick a default the field accepts", *f.MaxLength)
		}
		if f.Format != "" && !validFormat(f.Format, o.Value) {
			return nil, "not a valid " + formatExample(f.Format)
		}
	case DateTime:
		if !validFormat(f.Format, o.Value) {
			return nil, "not a valid " + formatExample(f.Format)
		}
		d.String = o.Value
	case Integer:
		n, why := exactInt(o.Value)
		switch why {
		case notNumber, notWhole:
			return nil, fmt.Sprintf("%s is an integer (%s); write a whole number, e.g. default=1", f.GoName, f.Type.Name)
		case inexact:
			return nil, fmt.Sprintf("too large to read exactly in that notation; write it in plain digits, e.g. default=%s", n)
		}
		lo, hi := intRange(f)
		if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return nil, fmt.Sprintf("outside what %s can hold (%s to %s)", f.Type.Name, lo, hi)
		}
		if f.Unsigned() {
			if _, err := strconv.ParseUint(o.Value, 10, 64); err != nil {
				return nil, fmt.Sprintf("%s is an unsigned integer (%s); write a whole number ≥ 0 without sign or exponent, e.g. default=1", f.GoName, f.Type.Name)
			}
			d.Uint = n.Uint64()
		} else {
			d.Int = n.Int64()
		}
		if m := boundsMsg(f, n.String()); m != "" {
			return nil, m
		}
	case Number:
		x, err := strconv.ParseFloat(o.Value, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(x) || math.IsInf(x, 0) && !errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Sprintf("%s is a number (%s); write a finite decimal number, e.g. default=1.5", f.GoName, f.Type.Name)
		}
		if lim := floatLimit(f); math.Abs(x) > lim {
			return nil, fmt.Sprintf("outside what %s can hold (-%s to %s); pick a default in that range%s", f.Type.Name, fmtLimit(lim), fmtLimit(lim), widerHint(f))
		}
		d.Float = x
		if m := boundsMsg(f, o.Value); m != "" {
			return nil, m
		}
	case Boolean:
		switch o.Value {
		case "true":
			d.Bool = true
		case "false":
		default:
			return nil, fmt.Sprintf("%s is a bool; write default=true or default=false", f.GoName)
		}
	case MultiSelect:
		if o.Value != "" {
			d.Strings = o.Items
		}
		seen := map[string]bool{}
		for _, it := range d.Strings {
			if m := checkChoice(it); m != "" {
				return nil, m
			}
			if seen[it] {
				return nil, fmt.Sprintf("lists %q twice; list each choice once", it)
			}
			seen[it] = true
		}
		n := uint64(len(d.Strings))
		if f.MinItems != nil && n < *f.MinItems {
			return nil, fmt.Sprintf("fewer items than minItems=%d; pick a default the field accepts", *f.MinItems)
		}
		if f.MaxItems != nil && n > *f.MaxItems {
			return nil, fmt.Sprintf("more items than maxItems=%d; pick a default the field accepts", *f.MaxItems)
		}
	}
	return d, ""
}

// boundsMsg checks a default, written as a number literal, against the bounds.
func boundsMsg(f *Field, lit string) string {
	if f.Minimum != nil && compareBounds(f, lit, f.MinimumLit) < 0 {
		return fmt.Sprintf("below minimum=%s; pick a default within the bounds", f.MinimumLit)
	}
	if f.Maximum != nil && compareBounds(f, lit, f.MaximumLit) > 0 {
		return fmt.Sprintf("above maximum=%s; pick a default within the bounds", f.MaximumLit)
	}
	return ""
}

// titles fills Title and Description from the tag, then the jsonschema tag
// (invopop's title=/description=, or the whole tag when it has no key=
// pairs: go-sdk's dialect), then the field name split into words.
func (a *analyzer) titles(f *Field, c *fieldCand) {
	js := c.jsTag
	jsTitle, jsDesc := "", ""
	if js != "" {
		if !strings.Contains(js, "=") {
			jsDesc = js
		} else {
			for _, part := range strings.Split(js, ",") {
				if v, ok := strings.CutPrefix(part, "title="); ok {
					jsTitle = v
				}
				if v, ok := strings.CutPrefix(part, "description="); ok {
					jsDesc = v
				}
			}
		}
	}
	if f.Title == "" {
		f.Title = jsTitle
	}
	if f.Title == "" {
		f.Title = HumanName(f.GoName)
	}
	if f.Description == "" {
		f.Description = jsDesc
	}
}

// HumanName splits a Go identifier into words for a form label:
// DepartureDate → "Departure date", APIKey → "API key", UserID → "User ID".
func HumanName(name string) string {
	words := splitWords(name)
	for i, w := range words {
		if i > 0 && !isAcronym(w) {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

func isAcronym(w string) bool {
	if utf8.RuneCountInString(w) < 2 {
		return false
	}
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// splitWords splits at lower→upper changes, before the last capital of an
// acronym followed by a lower-case letter, at digits boundaries and at '_'.
func splitWords(s string) []string {
	var words []string
	rs := []rune(s)
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		split := false
		switch {
		case cur == '_':
			if i > start {
				words = append(words, string(rs[start:i]))
			}
			start = i + 1
			continue
		case unicode.IsLower(prev) && unicode.IsUpper(cur):
			split = true
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			split = true
		}
		if split && i > start {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	if start < len(rs) {
		words = append(words, string(rs[start:]))
	}
	return words
}

// secretWord returns the secret-looking word in a field's names, or "".
// MCP 2026-07-28 client/elicitation: servers MUST NOT request sensitive
// information (passwords, API keys, access tokens, payment credentials)
// through form mode.
func secretWord(goName, jsonName string) string {
	norm := func(s string) string {
		s = strings.ToLower(s)
		return strings.NewReplacer("_", "", "-", "", " ", "").Replace(s)
	}
	for _, n := range []string{norm(goName), norm(jsonName)} {
		for _, w := range []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey",
			"cardnumber", "creditcard", "cvv", "cvc", "iban", "ssn", "pincode"} {
			if strings.Contains(n, w) {
				return w
			}
		}
	}
	return ""
}

// nearest returns the known option closest to s by edit distance (case
// folded), if it is close enough to be a likely misspelling.
func nearest(s string, known []string) string {
	best, bestD := "", 1<<30
	for _, k := range known {
		d := editDistance(strings.ToLower(s), strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= 2 || (bestD <= 3 && len(s) >= 7) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkStructTag reports what is wrong with a struct tag that does not follow
// the key:"value" convention of reflect.StructTag (the check go vet's
// structtag analyzer makes), or "" when it is well formed.
func checkStructTag(tag string) string {
	for {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			return ""
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 {
			return "bad syntax for struct tag key"
		}
		if i+1 >= len(tag) || tag[i] != ':' {
			return "bad syntax for struct tag pair (want key:\"value\")"
		}
		if tag[i+1] != '"' {
			return "bad syntax for struct tag value (values are double-quoted)"
		}
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return "bad syntax for struct tag value (unterminated quote)"
		}
		if _, err := strconv.Unquote(tag[:i+1]); err != nil {
			return "bad syntax for struct tag value"
		}
		tag = tag[i+1:]
		if tag != "" && tag[0] != ' ' {
			return "key:\"value\" pairs not separated by spaces"
		}
	}
}
