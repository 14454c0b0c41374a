// Package fallback writes what a tool returns instead of a form when its
// client cannot be asked one (it declared no form elicitation, MCP
// 2026-07-28, client/elicitation, capabilities): a tool error naming every
// field of the form with its title and constraints, so that the model can
// pass them as arguments or tell its user. The runtime returns it
// (runtime.Options.MissingCapability's default), and `mcpgen preview` shows
// it in the column of a client without elicitation; it imports nothing of
// runtime/ so that the generator can link it.
package fallback

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// Form is a form that cannot be asked.
type Form struct {
	// Tool is the tool's name.
	Tool string
	// Question is "" for the tool's own form, else the question's name.
	Question string
	// Message is the question's message ("" for a tool's own form, or a
	// question without one: the fields' titles are then listed).
	Message string
	// Schema is the form's requestedSchema.
	Schema *jsonschema.Schema
	// AskAlways are the fields only the user may answer (ask=always).
	AskAlways []string
	// Why says why the client cannot be asked, as
	// "this client declared no form elicitation".
	Why string
	// Problem is what was wrong with the last answer, if anything.
	Problem string
}

// Text is the tool error's text for f. For the tool's own form it says
// which fields the model can pass as arguments and call again, and which
// only the user can confirm.
func Text(f Form) string {
	schema := f.Schema
	var b strings.Builder
	if f.Question != "" {
		msg := f.Message
		if msg == "" {
			msg = "Please provide: " + strings.Join(Titles(schema), ", ")
		}
		b.WriteString(f.Tool + " needs the user to answer a question (" + strconv.Quote(msg) + "), but " + f.Why + ", so it cannot be asked:")
		for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
			b.WriteString("\n- " + DescribeField(pair.Key, pair.Value, slices.Contains(schema.Required, pair.Key)))
		}
		return b.String()
	}
	var required, optional, confirm []string
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		req := slices.Contains(schema.Required, pair.Key)
		line := "\n- " + DescribeField(pair.Key, pair.Value, req)
		switch {
		case slices.Contains(f.AskAlways, pair.Key):
			confirm = append(confirm, line)
		case req:
			required = append(required, line)
		default:
			optional = append(optional, line)
		}
	}
	b.WriteString(f.Tool + " needs input from the user, but " + f.Why + ", so it cannot be asked.")
	if len(confirm) > 0 {
		b.WriteString("\nThese must be confirmed by the user in a form, so this call cannot complete with this client:")
		b.WriteString(strings.Join(confirm, ""))
	}
	if len(required) > 0 {
		b.WriteString("\nPass these as arguments and call again:")
		b.WriteString(strings.Join(required, ""))
	}
	if len(optional) > 0 {
		b.WriteString("\nOptional; pass them as arguments if known:")
		b.WriteString(strings.Join(optional, ""))
	}
	if f.Problem != "" {
		b.WriteString("\nProblem with the last answer: " + f.Problem)
	}
	return b.String()
}

// URLText is the tool error's text when tool must ask question on the
// server's page (URL mode) but the client cannot be asked that: why says
// why, as "this client declared no URL-mode elicitation".
func URLText(tool, question, why string) string {
	return tool + " needs the user to complete a step at a URL (" + question + "), but " + why
}

// Titles lists the title of each property of schema (its key when it has
// none), in order.
func Titles(schema *jsonschema.Schema) []string {
	var out []string
	for pair := schema.Properties.Oldest(); pair != nil; pair = pair.Next() {
		t := pair.Value.Title
		if t == "" {
			t = pair.Key
		}
		out = append(out, t)
	}
	return out
}

// DescribeField renders one property of a requestedSchema for a model to
// read, for example `date ("Departure date"): required string, format date`.
func DescribeField(name string, s *jsonschema.Schema, required bool) string {
	var b strings.Builder
	b.WriteString(name)
	if s.Title != "" {
		fmt.Fprintf(&b, " (%q)", s.Title)
	}
	b.WriteString(": ")
	if required {
		b.WriteString("required ")
	} else {
		b.WriteString("optional ")
	}
	typ := s.Type
	if typ == "array" {
		typ = "array of strings"
	}
	b.WriteString(typ)
	var parts []string
	if s.Format != "" {
		parts = append(parts, "format "+s.Format)
	}
	if s.MinLength != nil {
		parts = append(parts, fmt.Sprintf("minLength %d", *s.MinLength))
	}
	if s.MaxLength != nil {
		parts = append(parts, fmt.Sprintf("maxLength %d", *s.MaxLength))
	}
	if s.Minimum != "" {
		parts = append(parts, "minimum "+s.Minimum.String())
	}
	if s.Maximum != "" {
		parts = append(parts, "maximum "+s.Maximum.String())
	}
	if s.MinItems != nil {
		parts = append(parts, fmt.Sprintf("minItems %d", *s.MinItems))
	}
	if s.MaxItems != nil {
		parts = append(parts, fmt.Sprintf("maxItems %d", *s.MaxItems))
	}
	if vals := enumValues(s); len(vals) > 0 {
		parts = append(parts, "one of "+strings.Join(vals, ", "))
	}
	if len(parts) > 0 {
		b.WriteString(", ")
		b.WriteString(strings.Join(parts, ", "))
	}
	if s.Description != "" {
		b.WriteString(" — ")
		b.WriteString(s.Description)
	}
	return b.String()
}

// enumValues lists the allowed values of a select property in any of its
// forms (enum, oneOf/anyOf of consts, items of either).
func enumValues(s *jsonschema.Schema) []string {
	if s.Items != nil {
		return enumValues(s.Items)
	}
	var out []string
	for _, v := range s.Enum {
		out = append(out, fmt.Sprint(v))
	}
	for _, alt := range append(append([]*jsonschema.Schema(nil), s.OneOf...), s.AnyOf...) {
		out = append(out, fmt.Sprint(alt.Const))
	}
	return out
}
