package gen

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/annotate"
)

// RequestedSchema returns the requestedSchema (MCP 2026-07-28,
// client/elicitation) of s with every elicitable field, in field order: what
// the generated RequestedSchema method returns when every field is missing
// (the schema the generated code states is written from the same values,
// by [PropertySchema]). A field with run-time choices (Field.Choices) has no
// options here: the runtime writes them in for each call.
func RequestedSchema(s *annotate.Struct) *jsonschema.Schema {
	out := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	for _, fd := range s.Fields {
		out.Properties.Set(fd.JSONName, PropertySchema(fd, true, s.LegacyEnumNames))
		if fd.Required {
			out.Required = append(out.Required, fd.JSONName)
		}
	}
	return out
}

// PropertySchema returns the schema of fd's property in the requestedSchema
// (MCP 2026-07-28, client/elicitation), the one value both the generated
// RequestedSchema and the tool's input schema are written from.
// withDefault is false for the input schema; legacy writes a titled single
// select as enum + enumNames (//mcpgen:enumnames).
func PropertySchema(fd *annotate.Field, withDefault, legacy bool) *jsonschema.Schema {
	p := &jsonschema.Schema{
		Type:        fd.SchemaType,
		Title:       fd.Title,
		Description: fd.Description,
		Format:      fd.Format,
		MinLength:   fd.MinLength,
		MaxLength:   fd.MaxLength,
		MinItems:    fd.MinItems,
		MaxItems:    fd.MaxItems,
	}
	if fd.Minimum != nil {
		p.Minimum = json.Number(fd.MinimumLit)
	}
	if fd.Maximum != nil {
		p.Maximum = json.Number(fd.MaximumLit)
	}
	if fd.Choices && fd.Kind == annotate.MultiSelect {
		// The runtime writes the options known at run time into items.
		p.Items = &jsonschema.Schema{Type: "string"}
	}
	if len(fd.Enum) > 0 {
		switch {
		case fd.Kind == annotate.MultiSelect && fd.Titled:
			p.Items = &jsonschema.Schema{AnyOf: constSchemas(fd)}
		case fd.Kind == annotate.MultiSelect:
			p.Items = &jsonschema.Schema{Type: "string", Enum: enumValues(fd)}
		case fd.Titled && legacy:
			p.Enum = enumValues(fd)
			var names []string
			for _, e := range fd.Enum {
				names = append(names, e.Title)
			}
			p.Extras = map[string]any{"enumNames": names}
		case fd.Titled:
			p.OneOf = constSchemas(fd)
		default:
			p.Enum = enumValues(fd)
		}
	}
	if withDefault && fd.Default != nil {
		p.Default = defaultValueJSON(fd)
	}
	return p
}

func enumValues(fd *annotate.Field) []any {
	var out []any
	for _, e := range fd.Enum {
		out = append(out, e.Value)
	}
	return out
}

func constSchemas(fd *annotate.Field) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, e := range fd.Enum {
		out = append(out, &jsonschema.Schema{Const: e.Value, Title: e.Title})
	}
	return out
}

// defaultValueJSON is the default as the JSON value the schema carries: a
// string, a json.Number (exact), a bool or a []string.
func defaultValueJSON(fd *annotate.Field) any {
	d := fd.Default
	switch fd.Kind {
	case annotate.String, annotate.DateTime:
		return d.String
	case annotate.Integer, annotate.Number:
		return json.Number(numberText(fd))
	case annotate.Boolean:
		return d.Bool
	case annotate.MultiSelect:
		return slices.Clone(d.Strings)
	}
	return nil
}

func numberText(fd *annotate.Field) string {
	d := fd.Default
	if fd.Kind == annotate.Integer {
		if fd.Unsigned {
			return strconv.FormatUint(d.Uint, 10)
		}
		return strconv.FormatInt(d.Int, 10)
	}
	b, _ := json.Marshal(d.Float)
	return string(b)
}

// propertiesVar declares Names.Properties, the []impl.Property of s's
// elicitable fields in field order: each property schema ([PropertySchema],
// with its default) written once, which the generated RequestedSchema and the
// tool's input schema read (impl.RequestedSchema, impl.SetInputProperty).
func propertiesVar(f *jen.File, s *annotate.Struct) {
	doc(f, "%s are the properties of the requestedSchema (MCP 2026-07-28, client/elicitation) of the "+
		"elicitable fields of %s, in field order, with their defaults: RequestedSchema and the tool's "+
		"input schema read them. Nothing changes them.", s.Names.Properties, s.Name)
	// One element a field, its name and required on the line that opens its
	// schema: {Name: "date", Required: true, Schema: &jsonschema.Schema{ / Type: … (indent 2).
	var items []jen.Code
	for _, fd := range s.Fields {
		d := []jen.Code{jen.Id("Name").Op(":").Lit(fd.JSONName)}
		if fd.Required {
			d = append(d, jen.Id("Required").Op(":").True())
		}
		d = append(d, jen.Id("Schema").Op(":").Op("&").Qual(schemaPkg, "Schema").Add(schemaBody(PropertySchema(fd, true, s.LegacyEnumNames), 2)))
		items = append(items, jen.Values(d...))
	}
	f.Var().Id(s.Names.Properties).Op("=").Index().Qual(implPkg, "Property").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// schemaBody is the body of a jsonschema.Schema composite literal holding
// the keywords of p that PropertySchema sets. A property's own title and
// description, whose keys are indented by indent tabs, are wrapped to fit
// the line; a nested schema's (indent 0) are not.
func schemaBody(p *jsonschema.Schema, indent int) *jen.Statement {
	d := fields{}
	if p.Type != "" {
		d["Type"] = jen.Lit(p.Type)
	}
	str := func(s string) jen.Code {
		if indent > 0 {
			return text(indent, len("Description: "), s)
		}
		return jen.Lit(s)
	}
	if p.Title != "" {
		d["Title"] = str(p.Title)
	}
	if p.Description != "" {
		d["Description"] = str(p.Description)
	}
	if p.Format != "" {
		d["Format"] = jen.Lit(p.Format)
	}
	for name, n := range map[string]*uint64{"MinLength": p.MinLength, "MaxLength": p.MaxLength, "MinItems": p.MinItems, "MaxItems": p.MaxItems} {
		if n != nil {
			d[name] = jen.Qual(implPkg, "Uint64").Call(jen.Lit(int(*n)))
		}
	}
	if p.Minimum != "" {
		d["Minimum"] = jen.Qual("encoding/json", "Number").Call(jen.Lit(string(p.Minimum)))
	}
	if p.Maximum != "" {
		d["Maximum"] = jen.Qual("encoding/json", "Number").Call(jen.Lit(string(p.Maximum)))
	}
	if p.Items != nil {
		d["Items"] = jen.Op("&").Qual(schemaPkg, "Schema").Add(schemaBody(p.Items, 0))
	}
	if p.Const != nil {
		d["Const"] = jen.Lit(p.Const)
	}
	if len(p.Enum) > 0 {
		var items []jen.Code
		for _, v := range p.Enum {
			items = append(items, jen.Lit(v))
		}
		d["Enum"] = jen.Index().Any().Values(items...)
	}
	if names, ok := p.Extras["enumNames"].([]string); ok {
		var items []jen.Code
		for _, n := range names {
			items = append(items, jen.Lit(n))
		}
		d["Extras"] = jen.Map(jen.String()).Any().Values(jen.Lit("enumNames").Op(":").Index().String().Values(items...))
	}
	if len(p.Extras) > 1 || (len(p.Extras) == 1 && d["Extras"] == nil) {
		panic(fmt.Sprintf("gen: a property schema with extras %v", p.Extras))
	}
	for name, alts := range map[string][]*jsonschema.Schema{"OneOf": p.OneOf, "AnyOf": p.AnyOf} {
		if len(alts) > 0 {
			var items []jen.Code
			for _, a := range alts {
				items = append(items, schemaBody(a, 0))
			}
			d[name] = jen.Index().Op("*").Qual(schemaPkg, "Schema").Values(items...)
		}
	}
	if p.Default != nil {
		d["Default"] = defaultCode(p.Default)
	}
	return literal(schemaType, d)
}

// defaultCode is a default of [defaultValueJSON] as a Go expression.
func defaultCode(v any) jen.Code {
	switch v := v.(type) {
	case json.Number:
		return jen.Qual("encoding/json", "Number").Call(jen.Lit(string(v)))
	case []string:
		var items []jen.Code
		for _, s := range v {
			items = append(items, jen.Lit(s))
		}
		return jen.Index().String().Values(items...)
	}
	return jen.Lit(v)
}
