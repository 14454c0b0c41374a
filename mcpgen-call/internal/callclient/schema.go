package callclient

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/format"
)

// A field is one property of a form's requestedSchema, in the restricted
// grammar of MCP 2026-07-28 client/elicitation ("Requested schema"): a
// string (with minLength, maxLength, format), a number or integer (minimum,
// maximum), a boolean, a single select (enum, enum with the legacy
// enumNames, or oneOf of {const, title}) or a multi select (type array with
// items.enum or items.anyOf of {const, title}; minItems, maxItems).
type field struct {
	Name        string
	Title       string // title, else the property name
	Description string
	Required    bool
	Kind        string // "string", "number", "integer", "boolean", "select", "multi"
	Format      string
	MinLength   *int
	MaxLength   *int
	Minimum     *float64
	Maximum     *float64
	MinItems    *int
	MaxItems    *int
	Options     []option // select and multi
	Default     any      // as the schema gives it (JSON-decoded)
}

// An option is one choice of a select: its value and the label shown.
type option struct {
	Value string
	Label string
}

// wireProperty is a property of the requested schema as JSON has it.
type wireProperty struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []titledConst   `json:"oneOf"`
	Default     json.RawMessage `json:"default"`
	Items       *struct {
		Enum  []string      `json:"enum"`
		AnyOf []titledConst `json:"anyOf"`
	} `json:"items"`
}

type titledConst struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// parseSchema reads a requestedSchema (any JSON-encodable value, as go-sdk
// hands it over) into its fields, in the order that order returns for
// their names (the order of the properties on the wire; see
// propertyOrders.lookup), the rest by name.
func parseSchema(schema any, order func(names []string) []string) ([]field, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxFormBytes {
		return nil, &limitError{Limit: "MaxFormBytes",
			What: fmt.Sprintf("the requestedSchema is %d bytes; mcpgen-call shows forms of at most %s", len(raw), byteSize(MaxFormBytes))}
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("requestedSchema: %v", err)
	}
	if len(s.Properties) > MaxFormFields {
		return nil, &limitError{Limit: "MaxFormFields",
			What: fmt.Sprintf("the requestedSchema has %d properties; mcpgen-call shows forms of at most %d fields", len(s.Properties), MaxFormFields)}
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	required := make(map[string]bool, len(s.Required))
	for _, name := range s.Required {
		required[name] = true
	}
	var fields []field
	for _, name := range orderedNames(s.Properties, order(names)) {
		var p wireProperty
		if err := json.Unmarshal(s.Properties[name], &p); err != nil {
			return nil, fmt.Errorf("requestedSchema property %q: %v", name, err)
		}
		f := field{Name: name, Title: clean(p.Title), Description: clean(p.Description), Required: required[name],
			Kind: p.Type, Format: p.Format, MinLength: p.MinLength, MaxLength: p.MaxLength,
			Minimum: p.Minimum, Maximum: p.Maximum, MinItems: p.MinItems, MaxItems: p.MaxItems}
		if f.Title == "" {
			f.Title = clean(name)
		}
		if len(p.Default) > 0 {
			if err := json.Unmarshal(p.Default, &f.Default); err != nil {
				return nil, fmt.Errorf("requestedSchema property %q: default: %v", name, err)
			}
		}
		switch {
		case p.Type == "array" && p.Items != nil:
			f.Kind = "multi"
			f.Options = options(p.Items.Enum, nil, p.Items.AnyOf)
		case len(p.OneOf) > 0 || len(p.Enum) > 0:
			f.Kind = "select"
			f.Options = options(p.Enum, p.EnumNames, p.OneOf)
		case p.Type == "string" || p.Type == "number" || p.Type == "integer" || p.Type == "boolean":
		default:
			return nil, fmt.Errorf("requestedSchema property %q: type %q is not in the elicitation grammar", name, p.Type)
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// orderedNames lists props' names in order, then any order misses, sorted:
// O(n log n) in the number of properties, whatever the server sends.
func orderedNames(props map[string]json.RawMessage, order []string) []string {
	names := make([]string, 0, len(props))
	seen := make(map[string]bool, len(props))
	for _, n := range order {
		if _, ok := props[n]; ok && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	rest := make([]string, 0, len(props)-len(names))
	for n := range props {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

func options(enum, names []string, titled []titledConst) []option {
	var out []option
	for i, v := range enum {
		label := v
		if i < len(names) && names[i] != "" {
			label = names[i]
		}
		out = append(out, option{Value: v, Label: clean(label)})
	}
	for _, c := range titled {
		label := c.Title
		if label == "" {
			label = c.Const
		}
		out = append(out, option{Value: c.Const, Label: clean(label)})
	}
	return out
}

// parseText reads what was typed into a string, number or integer field
// and checks it against the field's rules: the value to send, or an error
// saying what is wrong. Empty text is no answer: (nil, nil) for an
// optional field, an error for a required one.
func (f field) parseText(text string) (any, error) {
	if text == "" {
		if f.Required {
			return nil, fmt.Errorf("%s is required", f.Title)
		}
		return nil, nil
	}
	switch f.Kind {
	case "integer":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s must be a whole number", f.Title)
		}
		return n, f.check(n)
	case "number":
		x, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%s must be a number", f.Title)
		}
		return x, f.check(x)
	}
	return text, f.check(text)
}

// check holds one value (as JSON decodes it, or as parseText makes it) to
// the field's rules: the checks the server will make, made before sending
// (formats with internal/format, the server's own checkers).
func (f field) check(v any) error {
	switch f.Kind {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s must be a string", f.Title)
		}
		n := utf8.RuneCountInString(s)
		if f.MinLength != nil && n < *f.MinLength {
			return fmt.Errorf("%s must be %s", f.Title, between(f.MinLength, nil, "characters"))
		}
		if f.MaxLength != nil && n > *f.MaxLength {
			return fmt.Errorf("%s must be %s", f.Title, between(nil, f.MaxLength, "characters"))
		}
		if f.Format != "" && !format.Check(f.Format, s) {
			return fmt.Errorf("%s must be a valid %s (%s)", f.Title, f.Format, formatHint[f.Format])
		}
	case "number", "integer":
		x, ok := number(v)
		if !ok || f.Kind == "integer" && x != math.Trunc(x) {
			return fmt.Errorf("%s must be a %s", f.Title, map[string]string{"number": "number", "integer": "whole number"}[f.Kind])
		}
		if f.Minimum != nil && x < *f.Minimum {
			return fmt.Errorf("%s must be at least %v", f.Title, *f.Minimum)
		}
		if f.Maximum != nil && x > *f.Maximum {
			return fmt.Errorf("%s must be at most %v", f.Title, *f.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s must be true or false", f.Title)
		}
	case "select":
		s, ok := v.(string)
		if !ok || !f.hasOption(s) {
			return fmt.Errorf("%s must be one of %s", f.Title, f.optionValues())
		}
	case "multi":
		items, err := stringList(v)
		if err != nil {
			return fmt.Errorf("%s must be a list of strings", f.Title)
		}
		for _, s := range items {
			if !f.hasOption(s) {
				return fmt.Errorf("%s: %q is not one of %s", f.Title, s, f.optionValues())
			}
		}
		if f.MinItems != nil && len(items) < *f.MinItems {
			return fmt.Errorf("%s: choose at least %d", f.Title, *f.MinItems)
		}
		if f.MaxItems != nil && len(items) > *f.MaxItems {
			return fmt.Errorf("%s: choose at most %d", f.Title, *f.MaxItems)
		}
	}
	return nil
}

// hint says what the field takes, as the server's schema states it:
// bounds (minimum/maximum, minLength/maxLength, minItems/maxItems), format
// and default, joined by " · " ("" when the schema states none of them).
func (f field) hint() string {
	var parts []string
	switch f.Kind {
	case "string":
		if s := between(f.MinLength, f.MaxLength, "characters"); s != "" {
			parts = append(parts, s)
		}
		if f.Format != "" {
			s := clean(f.Format)
			if h, ok := formatHint[f.Format]; ok {
				s += ", " + h
			}
			parts = append(parts, s)
		}
	case "number", "integer":
		s := "a number"
		if f.Kind == "integer" {
			s = "a whole number"
		}
		switch {
		case f.Minimum != nil && f.Maximum != nil:
			s += fmt.Sprintf(" from %v to %v", *f.Minimum, *f.Maximum)
		case f.Minimum != nil:
			s += fmt.Sprintf(" of at least %v", *f.Minimum)
		case f.Maximum != nil:
			s += fmt.Sprintf(" of at most %v", *f.Maximum)
		}
		parts = append(parts, s)
	case "multi":
		if s := between(f.MinItems, f.MaxItems, ""); s != "" {
			parts = append(parts, "choose "+s)
		}
	}
	if f.Default != nil {
		parts = append(parts, "default: "+f.defaultLabel())
	}
	return strings.Join(parts, " · ")
}

// between is "3 to 20 unit", "at least 3 unit", "at most 20 unit" or "".
func between(lo, hi *int, unit string) string {
	var s string
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		s = fmt.Sprintf("exactly %d", *lo)
	case lo != nil && hi != nil:
		s = fmt.Sprintf("%d to %d", *lo, *hi)
	case lo != nil:
		s = fmt.Sprintf("at least %d", *lo)
	case hi != nil:
		s = fmt.Sprintf("at most %d", *hi)
	default:
		return ""
	}
	if unit == "characters" && (lo == nil || hi == nil || *lo == *hi) && (lo != nil && *lo == 1 || hi != nil && *hi == 1) {
		unit = "character" // "at least 1 character", "exactly 1 character"
	}
	return strings.TrimSpace(s + " " + unit)
}

// defaultLabel is the default as the form shows it: an option's label, Yes
// or No, a list's labels, else the value.
func (f field) defaultLabel() string {
	label := func(v string) string {
		for _, o := range f.Options {
			if o.Value == v {
				return o.Label
			}
		}
		return clean(v)
	}
	switch d := f.Default.(type) {
	case bool:
		if d {
			return "Yes"
		}
		return "No"
	case string:
		return label(d)
	case float64:
		return strconv.FormatFloat(d, 'f', -1, 64)
	case []any:
		var labels []string
		for _, v := range d {
			labels = append(labels, label(fmt.Sprint(v)))
		}
		return strings.Join(labels, ", ")
	}
	return clean(fmt.Sprint(f.Default))
}

// formatHint shows what a format looks like, for error messages.
var formatHint = map[string]string{
	"email":     "name@example.com",
	"uri":       "https://example.com/path",
	"date":      "YYYY-MM-DD",
	"date-time": "YYYY-MM-DDThh:mm:ssZ",
}

func (f field) hasOption(v string) bool {
	return slices.ContainsFunc(f.Options, func(o option) bool { return o.Value == v })
}

func (f field) optionValues() string {
	b, _ := json.Marshal(slices.Collect(func(yield func(string) bool) {
		for _, o := range f.Options {
			if !yield(o.Value) {
				return
			}
		}
	}))
	return string(b)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func stringList(v any) ([]string, error) {
	switch x := v.(type) {
	case []string:
		return x, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			s, ok := item.(string)
			if !ok {
				return nil, fmt.Errorf("not a string: %v", item)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("not a list: %T", v)
}

// sdkCheck holds a scripted answer's content to what go-sdk's client
// checks before sending it anyway (go-sdk v1.8.0, mcp/client.go,
// Client.elicit: the content against the requested schema: required
// properties, types, bounds, lengths, enums; no format), so that such an
// answer is refused with a message naming the field and its rule. The rest
// (formats, a property the form does not have) is sent as given, for the
// server to check and ask again with its reason.
func sdkCheck(fields []field, content map[string]any) error {
	for _, f := range fields {
		v, ok := content[f.Name]
		if !ok {
			if f.Required && f.Default == nil {
				return fmt.Errorf("%q (%s) is required", f.Name, f.Title)
			}
			continue
		}
		f.Format = "" // left to the server
		if err := f.check(v); err != nil {
			return fmt.Errorf("%q: %v", f.Name, err)
		}
	}
	return nil
}
