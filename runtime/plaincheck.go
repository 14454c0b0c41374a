package runtime

import (
	"encoding/json"
	"math"
	"slices"
	"unicode/utf8"
)

// quickNode is a tool's input schema compiled for [quickNode.valid], the
// check that lets [Flow.checkPlain] skip the general validator
// (jsonschema-go) for arguments that are valid, the common case. It exists
// only for schemas made of the keywords it knows (see compileQuick); any
// other schema is always left to jsonschema-go.
//
// For JSON values as encoding/json decodes them into an any (nil, bool,
// float64, string, []any, map[string]any) valid agrees exactly with
// jsonschema-go's Validate on those keywords (runtime/plaincheck_test.go
// holds them to it); anything else is reported invalid, so that the caller
// asks jsonschema-go. An invalid result is always decided, and worded, by
// jsonschema-go.
type quickNode struct {
	types    []string // allowed JSON types; nil: any
	enum     []string // strings only; nil: no enum
	hasConst bool
	constVal string
	min, max *float64
	xmin     *float64 // exclusiveMinimum
	xmax     *float64 // exclusiveMaximum
	minLen   int      // -1: none
	maxLen   int      // -1: none
	minItems int      // -1: none
	maxItems int      // -1: none
	props    map[string]*quickNode
	required []string
	items    *quickNode
	oneOf    []*quickNode
	anyOf    []*quickNode
}

// quickAnnotations are keywords that do not affect validation in
// jsonschema-go (format is an annotation there).
var quickAnnotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "format": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
}

// compileQuick compiles a schema from its JSON (decoded into an any), or
// reports false when it uses a keyword or a form quickNode does not know.
func compileQuick(s any) (*quickNode, bool) {
	if s == true {
		return &quickNode{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}, true
	}
	m, ok := s.(map[string]any)
	if !ok {
		return nil, false
	}
	n := &quickNode{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	for k, v := range m {
		if quickAnnotations[k] {
			continue
		}
		ok := true
		switch k {
		case "type":
			switch t := v.(type) {
			case string:
				n.types = []string{t}
			case []any:
				n.types, ok = stringList(t)
			default:
				ok = false
			}
		case "enum":
			var list []any
			if list, ok = v.([]any); ok {
				n.enum, ok = stringList(list)
				ok = ok && len(n.enum) > 0
			}
		case "const":
			n.constVal, ok = v.(string)
			n.hasConst = true
		case "minimum":
			n.min, ok = quickNumber(v)
		case "maximum":
			n.max, ok = quickNumber(v)
		case "exclusiveMinimum":
			n.xmin, ok = quickNumber(v)
		case "exclusiveMaximum":
			n.xmax, ok = quickNumber(v)
		case "minLength":
			n.minLen, ok = quickCount(v)
		case "maxLength":
			n.maxLen, ok = quickCount(v)
		case "minItems":
			n.minItems, ok = quickCount(v)
		case "maxItems":
			n.maxItems, ok = quickCount(v)
		case "required":
			var list []any
			if list, ok = v.([]any); ok {
				n.required, ok = stringList(list)
			}
		case "additionalProperties":
			am, isMap := v.(map[string]any)
			ok = v == true || isMap && len(am) == 0
		case "properties":
			pm, isMap := v.(map[string]any)
			ok = isMap
			n.props = make(map[string]*quickNode, len(pm))
			for name, ps := range pm {
				if n.props[name], ok = compileQuick(ps); !ok {
					break
				}
			}
		case "items":
			n.items, ok = compileQuick(v)
		case "oneOf", "anyOf":
			list, isList := v.([]any)
			ok = isList && len(list) > 0
			var alts []*quickNode
			for _, a := range list {
				var c *quickNode
				if c, ok = compileQuick(a); !ok {
					break
				}
				alts = append(alts, c)
			}
			if k == "oneOf" {
				n.oneOf = alts
			} else {
				n.anyOf = alts
			}
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return n, true
}

func stringList(list []any) ([]string, bool) {
	out := make([]string, 0, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func quickNumber(v any) (*float64, bool) {
	f, ok := v.(float64)
	return &f, ok
}

func quickCount(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

// jsonTypeOf is jsonschema-go's JSON type of a decoded value: a float64
// without a fractional part is an integer. ok is false for a Go value
// encoding/json does not decode into an any.
func jsonTypeOf(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return "boolean", true
	case float64:
		if _, f := math.Modf(x); f == 0 {
			return "integer", true
		}
		return "number", true
	case string:
		return "string", true
	case []any:
		return "array", true
	case map[string]any:
		return "object", true
	}
	return "", false
}

// valid reports whether v is valid against n (see [quickNode]).
func (n *quickNode) valid(v any) bool {
	got, ok := jsonTypeOf(v)
	if !ok {
		return false
	}
	if n.types != nil && !slices.Contains(n.types, got) && !(got == "integer" && slices.Contains(n.types, "number")) {
		return false
	}
	if n.enum != nil || n.hasConst {
		s, ok := v.(string)
		if !ok || n.enum != nil && !slices.Contains(n.enum, s) || n.hasConst && s != n.constVal {
			return false
		}
	}
	switch x := v.(type) {
	case float64:
		if n.min != nil && x < *n.min || n.max != nil && x > *n.max ||
			n.xmin != nil && x <= *n.xmin || n.xmax != nil && x >= *n.xmax {
			return false
		}
	case string:
		if n.minLen >= 0 || n.maxLen >= 0 {
			c := utf8.RuneCountInString(x)
			if n.minLen >= 0 && c < n.minLen || n.maxLen >= 0 && c > n.maxLen {
				return false
			}
		}
	case []any:
		if n.minItems >= 0 && len(x) < n.minItems || n.maxItems >= 0 && len(x) > n.maxItems {
			return false
		}
		if n.items != nil {
			for _, it := range x {
				if !n.items.valid(it) {
					return false
				}
			}
		}
	case map[string]any:
		for _, name := range n.required {
			if _, ok := x[name]; !ok {
				return false
			}
		}
		for name, p := range n.props {
			if pv, ok := x[name]; ok && !p.valid(pv) {
				return false
			}
		}
	}
	if n.oneOf != nil {
		matched := 0
		for _, a := range n.oneOf {
			if a.valid(v) {
				matched++
			}
		}
		if matched != 1 {
			return false
		}
	}
	if n.anyOf != nil && !slices.ContainsFunc(n.anyOf, func(a *quickNode) bool { return a.valid(v) }) {
		return false
	}
	return true
}

// compileQuickJSON compiles a schema's JSON, or returns nil.
func compileQuickJSON(b []byte) *quickNode {
	var s any
	if json.Unmarshal(b, &s) != nil {
		return nil
	}
	n, ok := compileQuick(s)
	if !ok {
		return nil
	}
	return n
}
