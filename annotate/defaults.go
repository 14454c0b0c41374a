package annotate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/format"
)

// validFormat checks a default against its format with the same checks the
// generated code uses at run time.
func validFormat(name, s string) bool { return format.Check(name, s) }

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
		if unsigned(f.Basic) {
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
