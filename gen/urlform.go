package gen

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// dateTimeExample is the placeholder of a date-time input: browsers have no
// input for an RFC 3339 date-time with its offset, so the user types one.
const dateTimeExample = "2026-07-28T09:30:00Z"

// urlQuestionInit writes the init function of a URL-mode question
// (annotate.Struct.URLMode): it registers the type with the page's form,
// written here from the elicit tags (urlForm), so that runtime.Ask asks it
// through the server's page (package runtime/page) rather than in a form.
func urlQuestionInit(f *jen.File, s *annotate.Struct) {
	doc(f, "init registers %s as a URL-mode question (MCP 2026-07-28, client/elicitation, \"URL Mode "+
		"Elicitation Requests\"): runtime.Ask asks it on the server's own page (package runtime/page), "+
		"which shows these fields, so that what the user enters there never passes through the client.", s.Name)
	f.Func().Id("init").Params().Block(
		jen.Qual(implPkg, "RegisterURLQuestion").Call(
			jen.Parens(jen.Op("*").Id(s.Name)).Parens(jen.Nil()),
			jen.Line().Add(htmlLit(2, urlForm(s))),
		),
	)
}

// htmlLit is the string literal of the concatenated parts of each group
// (each field's elements), laid out one line or more per group, the first
// line indent tabs deep and gofmt indenting the others one tab deeper,
// each within maxColumns; a part too long for a line is split between its
// words, or anywhere between runes when it has none.
func htmlLit(indent int, groups [][]string) *jen.Statement {
	room := maxColumns - 4*(indent+1) - len(` +`)
	var lines []string
	for _, parts := range groups {
		cur := ""
		for _, p := range parts {
			if quotedLen(cur+p) <= room {
				cur += p
				continue
			}
			if cur != "" {
				lines = append(lines, cur)
			}
			cur = p
			for quotedLen(cur) > room {
				head := splitAt(cur, room)
				lines = append(lines, cur[:head])
				cur = cur[head:]
			}
		}
		if cur != "" {
			lines = append(lines, cur)
		}
	}
	if len(lines) == 0 {
		return jen.Lit("")
	}
	lit := jen.Lit(lines[0])
	for _, l := range lines[1:] {
		lit = lit.Op("+").Line().Lit(l)
	}
	return lit
}

// quotedLen is the width of s as a Go string literal.
func quotedLen(s string) int { return len(strconv.Quote(s)) }

// splitAt returns the length of the longest head of s, up to a space, whose
// literal fits room columns, or of the longest such head of whole runes
// when no space gives one (at least one rune, so that splitting ends).
func splitAt(s string, room int) int {
	best, fallback := 0, 0
	for i := range s {
		if i == 0 {
			continue
		}
		if quotedLen(s[:i]) > room {
			break
		}
		fallback = i
		if s[i] == ' ' {
			best = i
		}
	}
	if best == 0 {
		best = fallback
	}
	if best == 0 {
		_, best = utf8.DecodeRuneInString(s)
	}
	return best
}

// urlForm returns the HTML of a URL-mode question's fields, in field order,
// as the page (package runtime/page) puts it inside its <form>, which adds
// the CSRF token and the submit button and converts the post back into the
// question's content by the types of its RequestedSchema: a checkbox sends
// "true", a multi select every option checked under the field's name, a
// number its text. Each field is a <div class="field"> (a multi select a
// <fieldset class="field">) with its label (the field's title), its
// description, and its input, whose name is the field's JSON name and
// whose attributes carry the field's rules for the browser to check first
// (the page checks them again with ApplyContent): required, minlength and
// maxlength, min and max, the input type of the format. A secret
// (annotate.Field.Secret) is a password input, never prefilled; every other
// field shows its default. Every text written is HTML-escaped. The result
// is a list of parts, one per element, for each field, for htmlLit to lay
// out.
func urlForm(s *annotate.Struct) [][]string {
	out := make([][]string, 0, len(s.Fields))
	for _, fd := range s.Fields {
		out = append(out, fieldHTML(fd))
	}
	return out
}

// fieldHTML is one field's elements (see urlForm).
func fieldHTML(fd *annotate.Field) []string {
	name := fd.JSONName
	id := "f-" + name
	title := fd.Title
	if title == "" {
		title = name
	}
	var desc string
	if fd.Description != "" {
		desc = `<p class="desc" id="d-` + esc(name) + `">` + esc(fd.Description) + `</p>`
	}
	if fd.Kind == annotate.MultiSelect {
		out := []string{`<fieldset class="field">`, `<legend>` + esc(title) + `</legend>`}
		if desc != "" {
			out = append(out, desc)
		}
		for _, it := range fd.Enum {
			in := attrs("input", "type", "checkbox", "name", name, "value", it.Value)
			if fd.Default != nil && slices.Contains(fd.Default.Strings, it.Value) {
				in += " checked"
			}
			out = append(out, `<label class="option">`+in+"> "+esc(itemTitle(it))+`</label>`)
		}
		return append(out, "</fieldset>\n")
	}
	out := []string{`<div class="field">`, `<label for="` + esc(id) + `">` + esc(title) + `</label>`}
	if desc != "" {
		out = append(out, desc)
	}
	described := func(tag string) string {
		if desc != "" {
			tag += ` aria-describedby="d-` + esc(name) + `"`
		}
		return tag
	}
	required := func(tag string) string {
		if fd.Required {
			tag += " required"
		}
		return tag
	}
	switch {
	case fd.Kind == annotate.Boolean:
		in := described(attrs("input", "id", id, "name", name, "type", "checkbox", "value", "true"))
		if fd.Default != nil && fd.Default.Bool {
			in += " checked"
		}
		out = append(out, in+">")
	case len(fd.Enum) > 0:
		out = append(out, required(described(attrs("select", "id", id, "name", name)))+">")
		if !fd.Required || fd.Default == nil {
			out = append(out, `<option value=""></option>`)
		}
		for _, it := range fd.Enum {
			o := attrs("option", "value", it.Value)
			if fd.Default != nil && fd.Default.String == it.Value {
				o += " selected"
			}
			out = append(out, o+">"+esc(itemTitle(it))+"</option>")
		}
		out = append(out, "</select>")
	default:
		out = append(out, required(described(textInput(fd, id)))+">")
	}
	return append(out, "</div>\n")
}

// textInput is the opening of the <input> of a field typed in: a string, a
// date, an integer or a number, or a secret of one of these (without its
// closing '>').
func textInput(fd *annotate.Field, id string) string {
	kv := []string{"id", id, "name", fd.JSONName}
	number := fd.Kind == annotate.Integer || fd.Kind == annotate.Number
	switch {
	case fd.Secret:
		kv = append(kv, "type", "password", "autocomplete", "off")
		if fd.Kind == annotate.Integer {
			kv = append(kv, "inputmode", "numeric")
		}
	case fd.Kind == annotate.Integer:
		kv = append(kv, "type", "number", "step", "1")
	case fd.Kind == annotate.Number:
		kv = append(kv, "type", "number", "step", "any")
	case fd.Format == "email":
		kv = append(kv, "type", "email")
	case fd.Format == "uri":
		kv = append(kv, "type", "url")
	case fd.Format == "date":
		kv = append(kv, "type", "date")
	case fd.Format == "date-time" || fd.Kind == annotate.DateTime:
		kv = append(kv, "type", "text", "placeholder", dateTimeExample)
	default:
		kv = append(kv, "type", "text")
	}
	if number && !fd.Secret {
		if fd.Minimum != nil {
			kv = append(kv, "min", boundText(fd, *fd.Minimum, fd.MinimumLit))
		} else if fd.Unsigned {
			kv = append(kv, "min", "0")
		}
		if fd.Maximum != nil {
			kv = append(kv, "max", boundText(fd, *fd.Maximum, fd.MaximumLit))
		}
	}
	if fd.MinLength != nil {
		kv = append(kv, "minlength", strconv.FormatUint(*fd.MinLength, 10))
	}
	if fd.MaxLength != nil {
		kv = append(kv, "maxlength", strconv.FormatUint(*fd.MaxLength, 10))
	}
	if d := fd.Default; d != nil && !fd.Secret {
		switch fd.Kind {
		case annotate.Integer:
			v := strconv.FormatInt(d.Int, 10)
			if fd.Unsigned {
				v = strconv.FormatUint(d.Uint, 10)
			}
			kv = append(kv, "value", v)
		case annotate.Number:
			kv = append(kv, "value", strconv.FormatFloat(d.Float, 'g', -1, 64))
		default:
			kv = append(kv, "value", d.String)
		}
	}
	return attrs("input", kv...)
}

// boundText is a bound as an HTML valid floating-point number: an integer's
// as written when it is a plain decimal integer (exact beyond float64's
// precision), otherwise the shortest decimal of its value.
func boundText(fd *annotate.Field, x float64, lit string) string {
	if fd.Kind == annotate.Integer {
		if _, err := strconv.ParseInt(lit, 10, 64); err == nil && !strings.HasPrefix(lit, "+") {
			return lit
		}
		if _, err := strconv.ParseUint(lit, 10, 64); err == nil && !strings.HasPrefix(lit, "+") {
			return lit
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// attrs is the opening tag <tag k="v" …, its values escaped (the caller
// adds flags such as required and the closing '>').
func attrs(tag string, kv ...string) string {
	var b strings.Builder
	b.WriteString("<" + tag)
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString(" " + kv[i] + `="` + esc(kv[i+1]) + `"`)
	}
	return b.String()
}

// esc escapes text for HTML, in element content and quoted attribute values
// alike (html.EscapeString: <, >, &, ' and ").
func esc(s string) string { return html.EscapeString(s) }

// itemTitle is the text of a choice: its title, or its value when untitled.
func itemTitle(it annotate.EnumItem) string {
	if it.Title != "" {
		return it.Title
	}
	return it.Value
}
