package engine

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/internal/clip"
)

// Choice is one option of a select whose options are known only at run time
// (a field tagged elicit:"choices"): the caller's own accounts, the files in
// a folder. See runtime.Choice.
type Choice struct {
	Value string
	Title string
}

// rules are the run-time rules of one form (a tool's arguments or a
// question): options, typed echoes and defaults computed by the server while
// it runs. They shape the requestedSchema sent, they are part of the digest
// of the question asked, and an accepted answer must keep them.
type rules struct {
	choices  map[string][]Choice // by JSON name: the only values an answer may hold
	equal    map[string]string   // by JSON name: the value an answer must equal
	defaults map[string]any      // by JSON name: pre-filled values
	// descriptions are, by JSON name, the help text of this form in place
	// of the tag's description.
	descriptions map[string]string
	// fixed holds, by JSON name, the only option of a required select,
	// taken and not asked (see settle).
	fixed map[string]any
	// confirmed names the fields of fixed whose option is what the user
	// answered: values of the user's, not taken for them.
	confirmed map[string]bool
	// prefill holds, by JSON name, the only option of a required select
	// kept in the form because the user answered it: shown pre-filled with
	// it (when no default is given), never taken without the user.
	prefill map[string]any
	// stale says, one entry a field, which of the user's answers are no
	// longer among the field's options (see settle), for the reason a form
	// asked again carries.
	stale []string
}

func (r *rules) empty() bool {
	return r == nil || len(r.choices) == 0 && len(r.equal) == 0 && len(r.defaults) == 0 && len(r.descriptions) == 0 &&
		len(r.prefill) == 0
}

// defaultsOf returns the run-time defaults (nil without rules).
func (r *rules) defaultsOf() map[string]any {
	if r == nil {
		return nil
	}
	return r.defaults
}

// defaultOf returns the run-time default of the field name, if any.
func (r *rules) defaultOf(name string) (any, bool) {
	if r == nil {
		return nil, false
	}
	v, ok := r.defaults[name]
	return v, ok
}

// apply returns schema with the rules written into its properties: choices
// as the grammar's select of the property's type (a string property becomes
// a single select, an array property a multi select, titled when every
// choice has a title, exactly as a static enum renders), defaults as
// "default", descriptions as "description". Properties without rules are
// shared with schema, not copied.
func (r *rules) apply(schema *jsonschema.Schema) *jsonschema.Schema {
	if r.empty() {
		return schema
	}
	out := &jsonschema.Schema{Type: schema.Type, Properties: jsonschema.NewProperties(), Required: schema.Required}
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		p := pair.Value
		choices, hasChoices := r.choices[pair.Key]
		def, hasDefault := r.defaults[pair.Key]
		if !hasDefault {
			def, hasDefault = r.prefill[pair.Key]
		}
		desc, hasDesc := r.descriptions[pair.Key]
		if hasChoices || hasDefault || hasDesc {
			cp := *p
			if hasChoices {
				setChoices(&cp, choices)
			}
			if hasDefault {
				cp.Default = def
			}
			if hasDesc {
				cp.Description = desc
			}
			p = &cp
		}
		out.Properties.Set(pair.Key, p)
	}
	return out
}

// settle works out what the run-time choices decide before target's
// missing fields are asked for, given answers, the values the user gave
// for the form's fields in this call (nil on a first call; see
// round.userAnswers). A required single select with exactly one option
// takes it and is not asked when the user never answered it, or answered
// that option (r.fixed holds those values, for the caller to apply with the
// answers; applying them now would also fill the defaults of optional
// fields still to be asked). A user's answer is never replaced: a field
// whose answer is no longer among its options stays in the form, its one
// option pre-filled (r.prefill), and r.stale says why it is asked again. A
// required field with no option at all is a tool error result of tool
// naming it (there is nothing to pick); otherwise settle returns nil.
func (r *rules) settle(tool string, target Args, answers map[string]any) *Result {
	if r == nil || len(r.choices) == 0 {
		return nil
	}
	full := target.RequestedSchema()
	r.fixed, r.confirmed, r.prefill, r.stale = map[string]any{}, nil, nil, nil
	var none []string
	for pair := full.Properties.Oldest(); pair != nil; pair = pair.Next() {
		choices, ok := r.choices[pair.Key]
		if !ok {
			continue
		}
		answer, answered := answers[pair.Key]
		why := ""
		if answered && len(choices) > 0 {
			if why = notChosen(answer, choices); why != "" {
				r.stale = append(r.stale, fmt.Sprintf("%s: %s is no longer one of the options (%s)", pair.Key, quoteAnswer(answer), why))
			}
		}
		if !slices.Contains(full.Required, pair.Key) {
			continue
		}
		switch {
		case len(choices) == 0:
			none = append(none, describeTitle(pair.Key, pair.Value))
		case len(choices) == 1 && pair.Value.Type == "string" && why != "":
			if r.prefill == nil {
				r.prefill = map[string]any{}
			}
			r.prefill[pair.Key] = choices[0].Value
		case len(choices) == 1 && pair.Value.Type == "string":
			r.fixed[pair.Key] = choices[0].Value
			if answered {
				if r.confirmed == nil {
					r.confirmed = map[string]bool{}
				}
				r.confirmed[pair.Key] = true
			}
		}
	}
	if len(none) > 0 {
		return ToolError("%s: there is nothing to choose from for %s", tool, strings.Join(none, ", "))
	}
	return nil
}

// quoteAnswer writes an answer's value for a reason: a string quoted, a
// list of strings as a JSON array.
func quoteAnswer(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(clip.Text(s))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip.Text(string(b))
}

// confirmedShown returns r with the fields of r.confirmed (the user's own
// answer, the one option left) shown pre-filled instead of taken, or nil
// when there are none: a form asked that way (the field's answer was not
// among the options) keeps that shape while the user answers it, so that
// the answer applies to the form as it was shown.
func (r *rules) confirmedShown() *rules {
	if r == nil || len(r.confirmed) == 0 {
		return nil
	}
	alt := *r
	alt.fixed, alt.prefill, alt.confirmed = maps.Clone(r.fixed), maps.Clone(r.prefill), nil
	if alt.prefill == nil {
		alt.prefill = map[string]any{}
	}
	for name := range r.confirmed {
		alt.prefill[name] = alt.fixed[name]
		delete(alt.fixed, name)
	}
	return &alt
}

// taken returns content without the options settle took for fields the
// user never answered (a new map when it drops any): what a state keeps as
// the user's answers, so that an option taken is taken again from the
// options of the request at hand, and never counts as the user's answer.
func (r *rules) taken(content map[string]any) map[string]any {
	if r == nil || len(r.fixed) == 0 {
		return content
	}
	var out map[string]any
	for name := range r.fixed {
		if _, ok := content[name]; ok && !r.confirmed[name] {
			if out == nil {
				out = maps.Clone(content)
			}
			delete(out, name)
		}
	}
	if out == nil {
		return content
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// problems says what is wrong with the rules a server gave a form at run
// time, checked against fresh(), a zero value of the form's struct: a name
// that is no elicitable field, a choices field with an empty or a repeated
// option value, a default or an echo that the field's own rules refuse (a
// pre-filled value the user could not submit, an echo no answer can
// equal). It returns nil when there is nothing wrong.
func (r *rules) problems(fresh func() Args) []string {
	if r.empty() {
		return nil
	}
	var out []string
	var all *jsonschema.Schema
	known := func(what string, names []string) {
		if len(names) == 0 {
			return
		}
		if all == nil {
			all = fresh().RequestedSchema()
		}
		for _, name := range names {
			if _, ok := all.Properties.Get(name); !ok {
				out = append(out, fmt.Sprintf("%s names %q, which is not an elicitable field", what, name))
			}
		}
	}
	known("Choices", slices.Collect(maps.Keys(r.choices)))
	known("Equal", slices.Collect(maps.Keys(r.equal)))
	known("Defaults", slices.Collect(maps.Keys(r.defaults)))
	known("Descriptions", slices.Collect(maps.Keys(r.descriptions)))
	for name, d := range r.descriptions {
		if d == "" {
			out = append(out, fmt.Sprintf("Descriptions of %s is empty (leave the field out to keep the tag's)", name))
		}
	}
	for name, choices := range r.choices {
		seen := make(map[string]bool, len(choices))
		for _, c := range choices {
			switch {
			case c.Value == "":
				out = append(out, fmt.Sprintf("Choices of %s hold an option with an empty value, which counts as no answer", name))
			case seen[c.Value]:
				out = append(out, fmt.Sprintf("Choices of %s hold the option %q twice", name, c.Value))
			}
			seen[c.Value] = true
		}
	}
	check := func(what string, content map[string]any) {
		var ve *ValidationError
		if err := fresh().ApplyPartial(content); !errors.As(err, &ve) {
			return
		}
		for _, fe := range ve.Errors {
			if _, given := content[fe.Field]; given {
				out = append(out, fmt.Sprintf("%s of %s", what, fe.Error()))
			}
		}
	}
	if len(r.defaults) > 0 {
		check("the default", r.defaults)
	}
	for name, d := range r.defaults {
		// "" pre-fills nothing (a "last used" option the user never had).
		if choices, ok := r.choices[name]; ok && d != "" {
			if why := notChosen(d, choices); why != "" {
				out = append(out, fmt.Sprintf("the default of %s, %q, is not one of its Choices (%s)", name, d, why))
			}
		}
	}
	if len(r.equal) > 0 {
		echoes := make(map[string]any, len(r.equal))
		for k, v := range r.equal {
			echoes[k] = v
		}
		check("the echo (Equal)", echoes)
	}
	sort.Strings(out)
	return out
}

// overlayFixed writes into content the option of each field left with one
// (see settle), over any value it held.
func (r *rules) overlayFixed(content map[string]any) {
	if r != nil {
		maps.Copy(content, r.fixed)
	}
}

// withFixed returns content with the values settle fixed added (a new map;
// content is not changed), or nil when both are empty.
func (r *rules) withFixed(content map[string]any) map[string]any {
	if len(content) == 0 && (r == nil || len(r.fixed) == 0) {
		return nil
	}
	out := make(map[string]any, len(content)+2)
	if r != nil {
		maps.Copy(out, r.fixed)
	}
	maps.Copy(out, content)
	return out
}

// schema returns target's requestedSchema of fields (every missing one when
// none are named) with the rules written in; a field whose run-time choices
// are empty (an optional one: settle refuses a required one) is left out.
func (r *rules) schema(target Args, fields ...string) *jsonschema.Schema {
	s := target.RequestedSchema(fields...)
	if r.empty() {
		return s
	}
	s = r.apply(s)
	for name, choices := range r.choices {
		if _, fixed := r.fixed[name]; len(choices) == 0 || fixed {
			s.Properties.Delete(name)
			s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(n string) bool { return n == name })
		}
	}
	return s
}

// setChoices writes choices into the select property p.
func setChoices(p *jsonschema.Schema, choices []Choice) {
	titled := len(choices) > 0
	for _, c := range choices {
		titled = titled && c.Title != ""
	}
	var enum []any
	var alts []*jsonschema.Schema
	for _, c := range choices {
		if titled {
			alts = append(alts, &jsonschema.Schema{Const: c.Value, Title: c.Title})
		} else {
			enum = append(enum, c.Value)
		}
	}
	if p.Type == "array" {
		if titled {
			p.Items = &jsonschema.Schema{AnyOf: alts}
		} else {
			p.Items = &jsonschema.Schema{Type: "string", Enum: enum}
		}
		return
	}
	p.Enum, p.OneOf = enum, alts
}

// check returns the run-time rules content breaks, for the fields named (a
// field content lacks is not judged; nil fields: none), in the order of
// fields, added to ve.
func (r *rules) check(content map[string]any, fields []string, ve *ValidationError) *ValidationError {
	if r.empty() {
		return ve
	}
	for _, name := range fields {
		v, ok := content[name]
		if !ok {
			continue
		}
		if choices, ok := r.choices[name]; ok {
			if bad := notChosen(v, choices); bad != "" {
				ve = addError(ve, name, "enum", bad)
				continue
			}
		}
		if want, ok := r.equal[name]; ok {
			if s, _ := v.(string); s != want {
				ve = addError(ve, name, "const", fmt.Sprintf("must be exactly %q", want))
			}
		}
	}
	return ve
}

// notChosen says why v (a string or an array of strings) is not among
// choices, or returns "" when it is.
func notChosen(v any, choices []Choice) string {
	in := func(s string) bool {
		return slices.ContainsFunc(choices, func(c Choice) bool { return c.Value == s })
	}
	values := make([]string, len(choices))
	for i, c := range choices {
		values[i] = c.Value
	}
	why := "must be one of: " + strings.Join(values, ", ")
	switch x := v.(type) {
	case string:
		if !in(x) {
			return why
		}
	case []string:
		for _, s := range x {
			if !in(s) {
				return "each item " + why
			}
		}
	case []any:
		for _, item := range x {
			if s, ok := item.(string); !ok || !in(s) {
				return "each item " + why
			}
		}
	}
	return "" // other types: the generated ApplyContent reports the type
}

func addError(ve *ValidationError, field, keyword, message string) *ValidationError {
	if ve == nil {
		ve = &ValidationError{}
	}
	ve.Add(field, keyword, message)
	return ve
}

// formDigest is SHA-256 over everything a user saw and answered in a form:
// the key (or question name) it was asked under, the message when it is part
// of the question, the requestedSchema (invopop/jsonschema's encoding is
// byte-stable, and run-time choices and defaults are in it) and the typed
// echoes, which the schema does not show. An answer applies only to a
// question whose digest is the same.
func formDigest(key, message string, schema *jsonschema.Schema, r *rules) []byte {
	b, _ := json.Marshal(schema)
	return digestJSON(key, message, b, r)
}

// digestJSON is formDigest of the schema encoded as b.
func digestJSON(key, message string, b []byte, r *rules) []byte {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(message))
	h.Write([]byte{0})
	h.Write(b)
	if r != nil && len(r.equal) > 0 {
		names := make([]string, 0, len(r.equal))
		for n := range r.equal {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			h.Write([]byte{0})
			h.Write([]byte(n + "=" + r.equal[n]))
		}
	}
	return h.Sum(nil)
}
