package annotate

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// knownOptions lists every elicit tag option: the flags required, optional,
// "-" (never elicit), notsecret, secret (a secret field of a URL-mode
// question that its name does not reveal) and choices (a select whose
// options come at run time), and the key=value options, whose keys are
// the JSON Schema keywords they set (title, format, minLength, enum, default,
// …) or, for ask, how the flow asks.
var knownOptions = []string{
	"required", "optional", "title", "description", "format",
	"minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems",
	"enum", "default", "ask", "-", "notsecret", "secret", "choices",
}

var flagOptions = map[string]bool{"required": true, "optional": true, "-": true, "notsecret": true, "secret": true, "choices": true}

// fixableOptions are the options an unknown one may be a misspelling of
// that a suggested fix may write in its place: key=value options for an
// option with a value, flags for one without (a fix must not make an option
// that needs a value, or a flag given one), and never "-", which would
// silently stop asking the field.
func fixableOptions(hasVal bool) []string {
	var ks []string
	for _, k := range knownOptions {
		if flagOptions[k] != hasVal && k != "-" {
			ks = append(ks, k)
		}
	}
	return ks
}

// formats are the string formats of the form grammar (MCP 2026-07-28,
// client/elicitation, requested schema: a string property's format).
var formats = []string{"email", "uri", "date", "date-time"}

// optionsByKey checks the options of a field's tag one by one (known, given
// once, a flag without a value or a key with one) and returns them by key;
// ok is false when any is wrong, each reported.
func (a *analyzer) optionsByKey(c *fieldCand, opts []Option) (byKey map[string]Option, ok bool) {
	name := c.v.Name()
	byKey, ok = map[string]Option{}, true
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		if n := strayWords(opts, i); n > 0 {
			if msg, s, e, text := strayMsg(c, opts[i:i+n+1]); msg != "" {
				a.tagError(c, o.Offset, e, c.fix("Write "+text, s, e, text), "elicit tag on %s: %s", name, msg)
				ok = false
				opts = slices.Delete(slices.Clone(opts), i+1, i+n+1) // reported with o
			}
		}
		if !slices.Contains(knownOptions, o.Key) {
			msg := fmt.Sprintf("elicit tag on %s: unknown option %q", name, o.Key)
			ks, ke := c.keySpan(o)
			var fixes []SuggestedFix
			if s := nearest(o.Key, fixableOptions(o.HasVal)); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
				fixes = c.fix(fmt.Sprintf("Replace %q with %q", o.Key, s), ks, ke, s)
			} else if strings.Trim(o.Key, "-_–—") == "" {
				msg += `; did you mean "-" (never elicit)?` // no fix: it would stop asking the field
			} else {
				msg += "; known options: " + strings.Join(knownOptions, ", ")
			}
			a.tagError(c, o.Offset, ke, fixes, "%s", msg)
			ok = false
			continue
		}
		if _, dup := byKey[o.Key]; dup {
			a.optionError(c, o, nil, "elicit tag on %s: option %q is given twice; keep one", name, o.Key)
			ok = false
			continue
		}
		if flagOptions[o.Key] && o.HasVal {
			_, ke := c.keySpan(o)
			_, oe := c.optionSpan(o)
			a.optionError(c, o, c.fix("Write "+o.Key+" alone", ke, oe, ""), "elicit tag on %s: %q is a flag and takes no value; write %s alone", name, o.Key, o.Key)
			ok = false
			continue
		}
		if !flagOptions[o.Key] && !o.HasVal {
			a.optionError(c, o, nil, "elicit tag on %s: %q needs a value: %s=…", name, o.Key, o.Key)
			ok = false
			continue
		}
		byKey[o.Key] = o
	}
	return byKey, ok
}

// strayWords counts the options right after opts[i], a known key=value
// option, that are bare words continuing its value: the user separated a
// list's items, or the parts of a text, with unquoted commas
// (enum=EUR,USD,GBP; title=Hello, world). A bare word is an unknown option
// without a value that does not look like a misspelt flag (requird,
// optinal): a misspelt key=value option would have its "=".
func strayWords(opts []Option, i int) int {
	if !opts[i].HasVal || !slices.Contains(knownOptions, opts[i].Key) {
		return 0
	}
	n := 0
	for _, o := range opts[i+1:] {
		if o.HasVal || slices.Contains(knownOptions, o.Key) || nearest(o.Key, []string{"required", "optional", "notsecret"}) != "" {
			break
		}
		n++
	}
	return n
}

// strayMsg explains a key=value option followed by bare words (group[1:]),
// as written in c's tag, and how to write it: a list (enum=, and default=
// of a multi select) separates its items with '|'; a title, description or
// default of a string holding ',' goes in single quotes. It returns "" for
// other options, whose stray words are reported as unknown options;
// otherwise also the bytes [s, e) of the elicit value written so, and the
// text to write instead.
func strayMsg(c *fieldCand, group []Option) (msg string, s, e int, text string) {
	o, last := group[0], group[len(group)-1]
	s, e = c.trimSpan(o.Offset, last.End)
	written := c.elicit[s:e]
	t := c.v.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	b, _ := t.Underlying().(*types.Basic)
	isText := b != nil && b.Info()&types.IsString != 0
	switch _, multi := stringSliceElem(c.v.Type()); {
	case o.Key == "enum", o.Key == "default" && multi != nil:
		items := slices.Clone(o.Items)
		for _, w := range group[1:] {
			items = append(items, w.Key)
		}
		for i, it := range items {
			items[i] = quoteItem(it)
		}
		text = o.Key + "=" + strings.Join(items, "|")
		return fmt.Sprintf("%s: list items are separated by \"|\", not \",\"; write %s", written, text), s, e, text
	case o.Key == "title", o.Key == "description", o.Key == "default" && isText:
		_, val, _ := strings.Cut(written, "=")
		val = strings.TrimSpace(val)
		if strings.Contains(val, "'") {
			return "", 0, 0, ""
		}
		text = o.Key + "=" + quoteItem(val)
		return fmt.Sprintf("%s: a value holding \",\" goes in single quotes; write %s", written, text), s, e, text
	}
	return "", 0, 0, ""
}

// quoteItem writes a value or list item so that ParseTag reads it back as
// it is: in single quotes (a quote inside doubled) when it holds ',', '|' or
// a quote, or starts or ends with a space, which ParseTag would drop.
func quoteItem(s string) string {
	if strings.ContainsAny(s, ",|'") || s != "" && (isTagSpace(s[0]) || isTagSpace(s[len(s)-1])) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// applyOptions checks each option against the field's kind and fills the model.
// whole says that every option of the tag was known and well formed; when
// false (the others were reported), only the checks of the options given
// run, not those that read an option's absence (a misspelt enum or optional
// would make them report what is not wrong), and the result is false.
func (a *analyzer) applyOptions(f *Field, c *fieldCand, opts map[string]Option, whole bool) bool {
	j := &optionJudge{a: a, f: f, c: c, opts: opts, ok: whole}
	j.texts()
	j.format()
	j.count("minLength", String, "a length in characters, e.g. %s=100", &f.MinLength)
	j.count("maxLength", String, "a length in characters, e.g. %s=100", &f.MaxLength)
	j.count("minItems", MultiSelect, "a count of choices, e.g. %s=1", &f.MinItems)
	j.count("maxItems", MultiSelect, "a count of choices, e.g. %s=1", &f.MaxItems)
	j.number("minimum", &f.Minimum, &f.MinimumLit)
	j.number("maximum", &f.Maximum, &f.MaximumLit)
	j.crossedBounds()
	j.enum()
	j.choices()
	j.combinations(whole)
	j.requiredNonEmpty(whole)
	if !j.ok {
		return false
	}
	return j.defaultValue()
}

// optionJudge checks the options of one field's elicit tag (applyOptions):
// each step reads opts, fills f and reports at the option, through c, with
// the fixes that keep the meaning. ok turns false at the first error.
type optionJudge struct {
	a    *analyzer
	f    *Field
	c    *fieldCand
	opts map[string]Option
	ok   bool
}

// badFix reports option o, with fixes, and marks the tag failed.
func (j *optionJudge) badFix(o Option, fixes []SuggestedFix, format string, args ...any) {
	j.a.optionError(j.c, o, fixes, "elicit tag on %s: %s", j.f.GoName, fmt.Sprintf(format, args...))
	j.ok = false
}

// bad reports option o without a fix.
func (j *optionJudge) bad(o Option, format string, args ...any) { j.badFix(o, nil, format, args...) }

// mismatch reports option o (key), which does not apply to the field's
// kind, with the option to write instead when there is one.
func (j *optionJudge) mismatch(o Option, key string) {
	msg, use := kindMismatch(key, j.f)
	var fixes []SuggestedFix
	if use != "" && j.opts[use].Key == "" {
		ks, ke := j.c.keySpan(o)
		fixes = j.c.fix(fmt.Sprintf("Replace %s with %s", key, use), ks, ke, use)
	}
	j.badFix(o, fixes, "%s", msg)
}

// drop is the fix that removes option o.
func (j *optionJudge) drop(o Option) []SuggestedFix {
	s, e := o.Offset, o.End
	switch {
	case e < len(j.c.elicit):
		e++ // and its comma
	case s > 0:
		s-- // and the comma before it
	}
	return j.c.fix("Remove "+o.Key, s, e, "")
}

// meant is the fix that writes value instead of o's.
func (j *optionJudge) meant(o Option, value string) []SuggestedFix {
	vs, ve := j.c.valueSpan(o)
	return j.c.fix(fmt.Sprintf("Write %s=%s", o.Key, value), vs, ve, value)
}

// texts reads title= and description=; an empty one is an error.
func (j *optionJudge) texts() {
	f, opts := j.f, j.opts
	for _, key := range []string{"title", "description"} {
		if o, has := opts[key]; has && strings.TrimSpace(o.Value) == "" {
			// An empty text would silently fall back to the field's name
			// (a title) or to nothing (a description): say it.
			j.badFix(o, j.drop(o), "%s= is empty; write the text the user sees, e.g. %s=%s, or remove it", key, key,
				map[string]string{"title": "Departure date", "description": "'The day the flight leaves, YYYY-MM-DD'"}[key])
		}
	}
	if o, has := opts["title"]; has {
		f.Title = o.Value
	}
	if o, has := opts["description"]; has {
		f.Description = o.Value
	}
}

// format reads format= for a string or a time.Time (date-time by default).
func (j *optionJudge) format() {
	f, opts := j.f, j.opts
	if o, has := opts["format"]; has {
		switch {
		case f.Kind == DateTime && (o.Value == "date" || o.Value == "date-time"):
			f.Format = o.Value
		case f.Kind == String && slices.Contains(formats, o.Value):
			if len(f.Enum) > 0 || opts["enum"].Key != "" {
				j.badFix(o, j.drop(o), "format cannot be combined with enum: the choices already fix the values; remove format")
			}
			f.Format = o.Value
		case f.Kind == DateTime:
			if s := nearest(o.Value, []string{"date", "date-time"}); s != "" {
				j.badFix(o, j.meant(o, s), "format=%s does not fit a time.Time; did you mean format=%s?", o.Value, s)
				break
			}
			j.bad(o, "format=%s does not fit a time.Time; write format=date or format=date-time (the default)", o.Value)
		case f.Kind == String:
			if s := nearest(o.Value, formats); s != "" {
				j.badFix(o, j.meant(o, s), "format=%s is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=%s?", o.Value, s)
				break
			}
			j.bad(o, "format=%s is not a format of the form grammar, which knows only email, uri, date and date-time; remove it and check the value in your handler", o.Value)
		default:
			j.mismatch(o, "format")
		}
	}
	if f.Kind == DateTime && f.Format == "" {
		f.Format = "date-time"
	}
}

// count reads a length or item count option of a field of kind; want
// describes the number, e.g. "a length in characters, e.g. %s=100".
func (j *optionJudge) count(key string, kind Kind, want string, dst **uint64) {
	f, opts := j.f, j.opts
	o, has := opts[key]
	if !has {
		return
	}
	if f.Kind != kind {
		j.mismatch(o, key)
		return
	}
	n, err := strconv.ParseUint(o.Value, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		j.bad(o, "%s=%s is not a whole number ≥ 0; write "+want, key, o.Value, key)
		return
	}
	// Generated code compares the count with a Go int (len, rune
	// counts), which holds no more than math.MaxInt32 on 386 and arm:
	// a larger count would not compile there.
	if err != nil || n > math.MaxInt32 {
		j.bad(o, "%s=%s is more than %d, the largest int on 32-bit platforms; write "+want, key, o.Value, math.MaxInt32, key)
		return
	}
	*dst = &n
}

// number reads minimum= or maximum= of an integer or number field into dst,
// and lit, the bound as generated code writes it.
func (j *optionJudge) number(key string, dst **float64, lit *string) {
	f, opts := j.f, j.opts
	o, has := opts[key]
	if !has {
		return
	}
	if f.Kind != Integer && f.Kind != Number {
		j.mismatch(o, key)
		return
	}
	if f.Kind == Integer {
		n, why := exactInt(o.Value)
		switch why {
		case notNumber:
			j.bad(o, "%s=%s is not a number; write a finite decimal number, e.g. %s=1 or %s=0.5", key, o.Value, key, key)
			return
		case notWhole:
			x, _ := strconv.ParseFloat(o.Value, 64)
			j.bad(o, "%s=%s is not a whole number, but %s is an integer (%s); write e.g. %s=%s", key, o.Value, f.GoName, f.Type.Name, key, fmtFloat(math.Round(x)))
			return
		case inexact:
			j.badFix(o, j.meant(o, n.String()), "%s=%s is too large to read exactly in that notation; write it in plain digits, e.g. %s=%s", key, o.Value, key, n)
			return
		}
		if lo, hi := intRange(f); n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			j.bad(o, "%s=%s is outside what %s can hold (%s to %s); write a bound in that range, or use a wider type", key, o.Value, f.Type.Name, lo, hi)
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
		j.bad(o, "%s=%s is not a number; write a finite decimal number, e.g. %s=1 or %s=0.5", key, o.Value, key, key)
		return
	}
	if lim := floatLimit(f); math.Abs(x) > lim {
		j.bad(o, "%s=%s is outside what %s can hold (-%s to %s); write a bound in that range%s", key, o.Value, f.Type.Name, fmtLimit(lim), fmtLimit(lim), widerHint(f))
		return
	}
	*dst = &x
	*lit = canonicalNumber(o.Value)
}

// crossedBounds reports a lower bound above its upper bound.
func (j *optionJudge) crossedBounds() {
	f, opts := j.f, j.opts
	if f.Minimum != nil && f.Maximum != nil && compareBounds(f, f.MinimumLit, f.MaximumLit) > 0 {
		j.bad(opts["minimum"], "minimum=%s is above maximum=%s, so no value can satisfy both; swap them or fix one", f.MinimumLit, f.MaximumLit)
	}
	if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
		j.bad(opts["minLength"], "minLength=%d is above maxLength=%d, so no value can satisfy both; swap them or fix one", *f.MinLength, *f.MaxLength)
	}
	if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
		j.bad(opts["minItems"], "minItems=%d is above maxItems=%d, so no answer can satisfy both; swap them or fix one", *f.MinItems, *f.MaxItems)
	}
}

// enum reads enum= for a string or multi select.
func (j *optionJudge) enum() {
	f, opts := j.f, j.opts
	if o, has := opts["enum"]; has {
		if f.Kind != String && f.Kind != MultiSelect {
			j.mismatch(o, "enum")
		} else if items, msg := parseEnum(o); msg != "" {
			j.bad(o, "%s", msg)
		} else {
			f.Enum, f.Titled = items, items[0].Title != ""
		}
	}
}

// choices reads the choices option: options known only at run time.
func (j *optionJudge) choices() {
	f, opts := j.f, j.opts
	if o, has := opts["choices"]; has {
		switch {
		case f.Kind != String && f.Kind != MultiSelect:
			j.mismatch(o, "choices")
		case f.Format != "":
			j.badFix(opts["format"], j.drop(opts["format"]), "format cannot be combined with choices: the options fix the values; remove format")
		case opts["enum"].Key != "":
			j.bad(o, "choices and enum= both give the options; keep enum= for options fixed in the code, or choices for options known only at run time")
		case opts["default"].Key != "":
			j.bad(opts["default"], "a choices field's options are known only at run time, so its default is too: remove default= and pass it with the options (runtime.AskOptions.Defaults)")
		case f.MinLength != nil && opts["minLength"].Key != "" || f.MaxLength != nil:
			j.bad(o, "minLength and maxLength cannot be combined with choices: the options fix the values")
		}
		// The options replace any constants of a named string type.
		f.Choices, f.Enum, f.Titled = true, nil, false
		if j.a.choicesAt == nil {
			j.a.choicesAt = map[*Field][2]token.Position{}
		}
		pos, end := j.c.optionRange(o)
		j.a.choicesAt[f] = [2]token.Position{pos, end}
	}
}

// combinations reports options that cannot stand together, and a multi
// select without its choices.
func (j *optionJudge) combinations(whole bool) {
	f, opts := j.f, j.opts
	if whole && f.Kind == MultiSelect && len(f.Enum) == 0 && !f.Choices {
		j.a.errorf(f.Pos, "%s is a multi select (%s) and needs its choices: add enum=a|b|c, or use a slice of a named string type with constants", f.GoName, "[]"+f.Type.Name)
		j.ok = false
	}
	if len(f.Enum) > 0 && f.MinLength != nil {
		j.badFix(opts["minLength"], j.drop(opts["minLength"]), "minLength cannot be combined with enum: the choices already fix the values; remove minLength")
	}
	if len(f.Enum) > 0 && f.MaxLength != nil {
		j.badFix(opts["maxLength"], j.drop(opts["maxLength"]), "maxLength cannot be combined with enum: the choices already fix the values; remove maxLength")
	}
	if f.MinItems != nil && len(f.Enum) > 0 && *f.MinItems > uint64(len(f.Enum)) {
		j.bad(opts["minItems"], "minItems=%d is more than the %d choices, so no answer can satisfy it; lower it to at most %d", *f.MinItems, len(f.Enum), len(f.Enum))
	}
}

// requiredNonEmpty gives a required non-pointer string or multi select a
// minimum of 1: it reads "" or [] as no answer, so the schema must not
// allow them (a form that sent one would pass the validator and still
// leave the field missing).
func (j *optionJudge) requiredNonEmpty(whole bool) {
	f, opts := j.f, j.opts
	if whole && f.Required && !f.Pointer && f.Kind == String && f.Format == "" && len(f.Enum) == 0 && !f.Choices {
		if f.MinLength == nil {
			one := uint64(1)
			f.MinLength = &one
		} else if *f.MinLength == 0 {
			j.bad(opts["minLength"], "minLength=0 on a required string: \"\" reads as no answer; leave minLength out (it becomes 1), or make the field optional or a *string")
		}
	}
	if whole && f.Required && f.Kind == MultiSelect {
		if f.MinItems == nil {
			one := uint64(1)
			f.MinItems = &one
		} else if *f.MinItems == 0 {
			j.bad(opts["minItems"], "minItems=0 on a required multi select: an empty list reads as no answer; leave minItems out (it becomes 1), or make the field optional")
		}
	}
}

// defaultValue reads default=, after every other option is known.
func (j *optionJudge) defaultValue() bool {
	f, opts := j.f, j.opts
	if o, has := opts["default"]; has {
		d, msg := parseDefault(f, o)
		if msg != "" {
			j.bad(o, "default=%s: %s", o.Value, msg)
			return false
		}
		f.Default = d
	}
	return j.ok
}

// kindMismatch says that option key does not apply to the field's kind, and
// what to write instead; use is the option to write instead of key, when
// the hint names one ("for a number's bounds use minimum").
func kindMismatch(key string, f *Field) (msg, use string) {
	applies := map[string]string{
		"format": "strings", "minLength": "strings", "maxLength": "strings",
		"minimum": "integers and numbers", "maximum": "integers and numbers",
		"minItems": "multi selects ([]string)", "maxItems": "multi selects ([]string)",
		"enum": "strings and []string", "choices": "strings, named string types and []string",
	}[key]
	goType := f.Type.Name
	if f.Pointer {
		goType = "*" + goType
	} else if f.Slice {
		goType = "[]" + goType
	}
	msg = fmt.Sprintf("%s applies to %s, not to %s (%s is %s)", key, applies, kindPhrase(f), f.GoName, goType)
	var hint string
	switch {
	case key == "enum" && f.Kind == Boolean:
		hint = "a bool is already a yes/no choice: remove enum, or make the field a string"
	case key == "enum", key == "format", key == "choices":
		hint = "remove " + key + ", or make the field a string"
	case (f.Kind == Integer || f.Kind == Number) && strings.HasPrefix(key, "min"):
		hint = "for a number's bounds use minimum"
		use = "minimum"
	case f.Kind == Integer || f.Kind == Number:
		hint = "for a number's bounds use maximum"
		use = "maximum"
	case f.Kind == String && strings.HasPrefix(key, "min"):
		hint = "for a string's length use minLength"
		use = "minLength"
	case f.Kind == String:
		hint = "for a string's length use maxLength"
		use = "maxLength"
	case f.Kind == MultiSelect && strings.HasPrefix(key, "min"):
		hint = "for the number of choices use minItems"
		use = "minItems"
	case f.Kind == MultiSelect:
		hint = "for the number of choices use maxItems"
		use = "maxItems"
	default:
		hint = "remove " + key
	}
	return msg + "; " + hint, use
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
