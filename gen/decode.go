package gen

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// member is one field a tool's arguments can fill, as _mcpgenDecode reads
// it: an elicitable field or a plain argument.
type member struct {
	json    string
	path    []string
	kind    annotate.Kind
	basic   string
	pointer bool
	date    bool // a time.Time with format "date": a full-date is read too
	opaque  bool // decoded with encoding/json (impl.DecodeJSON)
	nullOK  bool // not in the input schema: null decodes as encoding/json does
	arg     *annotate.Arg
	field   *annotate.Field // an elicitable field
}

// members lists the fields of s that arguments fill, in field order: the
// elicitable fields, then the plain arguments.
func members(s *annotate.Struct) []member {
	var out []member
	for _, fd := range s.Fields {
		out = append(out, member{json: fd.JSONName, path: fd.Path, kind: fd.Kind, basic: fd.Basic, pointer: fd.Pointer,
			date:   fd.Kind == annotate.DateTime && fd.Format == "date",
			opaque: fd.Slice || fd.DecodesItself, nullOK: fd.AskAlways, field: fd})
	}
	for _, g := range s.Args {
		out = append(out, member{json: g.JSONName, path: g.Path, kind: g.Kind, basic: g.Basic, pointer: g.Pointer,
			date:   g.Kind == annotate.DateTime && g.Format == "date",
			opaque: g.Opaque, nullOK: !g.InSchema || g.Opaque, arg: g})
	}
	return out
}

func memberAccess(m member) *jen.Statement { return pathAccess(m.path) }

// decodeArgumentsDecl writes s.Names.Decode, the decoding of tool s's arguments.
func decodeArgumentsDecl(f *jen.File, s *annotate.Struct) {
	name := s.Name
	ms := members(s)
	f.Commentf("%s decodes a tools/call's arguments (MCP 2026-07-28, server/tools: a JSON object) into t,", s.Names.Decode)
	f.Comment("once and by exact JSON name: a key that is not a field's exact name fills nothing. It then checks")
	f.Comment("the rules the tool's input schema gives the plain arguments. Errors name every failing argument")
	f.Comment("in a *runtime.ValidationError; arguments that are not a JSON object are a plain error.")
	f.Func().Params(jen.Id("t").Op("*").Id(s.Name)).Id(s.Names.Decode).Params(jen.Id("raw").Index().Byte()).Error().BlockFunc(func(g *jen.Group) {
		g.Var().Id("ve").Op("*").Qual(runtimePkg, "ValidationError")
		var flags []jen.Code
		for i, m := range ms {
			if needGot(m) {
				flags = append(flags, jen.Id(gotVar(i)))
			}
			if needOK(m) {
				flags = append(flags, jen.Id(okVar(i)))
			}
		}
		if len(flags) > 0 {
			g.Var().List(flags...).Bool()
		}
		g.Id("a").Op(":=").Qual(implPkg, "ReadArguments").Call(jen.Id("raw"))
		if len(ms) == 0 {
			// No field: the members are read only to refuse arguments
			// that are not a JSON object.
			g.For(jen.Id("a").Dot("Next").Call()).Block(
				jen.Commentf("%s has no field: no member fills anything.", name))
		} else {
			g.For(jen.Id("a").Dot("Next").Call()).Block(
				jen.Id("v").Op(":=").Id("a").Dot("Value").Call(),
				jen.Switch(jen.String().Parens(jen.Id("a").Dot("Key").Call())).BlockFunc(func(sw *jen.Group) {
					for i, m := range ms {
						sw.Case(jen.Lit(m.json)).BlockFunc(func(c *jen.Group) { decodeMember(c, name, m, i) })
					}
				}),
			)
		}
		g.If(jen.Err().Op(":=").Id("a").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		for i, m := range ms {
			if needGot(m) || needOK(m) {
				argChecks(g, m, i)
			}
		}
		g.Return(jen.Id("ve").Dot("Err").Call())
	})
}

// needGot: m is a required plain argument (its presence is checked).
func needGot(m member) bool { return m.arg != nil && !m.opaque && m.arg.Required }

// needOK: m is a plain argument with rules on its value.
func needOK(m member) bool {
	return m.arg != nil && !m.opaque && m.arg.Rules && (m.kind == annotate.String || m.kind == annotate.Integer || m.kind == annotate.Number)
}

func gotVar(i int) string { return "got" + strconv.Itoa(i) }
func okVar(i int) string  { return "ok" + strconv.Itoa(i) }

// decodeMember writes the decoding of member m's value v.
func decodeMember(c *jen.Group, structName string, m member, i int) {
	key := jen.Lit(m.json)
	var call *jen.Statement
	if m.opaque || m.kind == annotate.MultiSelect {
		call = jen.Qual(implPkg, "DecodeJSON").Call(jen.Op("&").Id("ve"), key, jen.Id("v"), jen.Op("&").Add(memberAccess(m)), jen.Lit(m.nullOK))
	} else {
		target := jen.Op("&").Add(memberAccess(m))
		if m.pointer {
			target = jen.Qual(implPkg, "Ptr").Call(jen.Op("&").Add(memberAccess(m)))
		}
		switch m.kind {
		case annotate.String:
			call = jen.Qual(implPkg, "DecodeString").Call(jen.Op("&").Id("ve"), key, jen.Id("v"), target)
		case annotate.Integer:
			fn := "DecodeInt"
			if strings.HasPrefix(m.basic, "uint") {
				fn = "DecodeUint"
			}
			call = jen.Qual(implPkg, fn).Call(jen.Op("&").Id("ve"), key, jen.Id("v"), target)
		case annotate.Number:
			call = jen.Qual(implPkg, "DecodeFloat").Call(jen.Op("&").Id("ve"), key, jen.Id("v"), target)
		case annotate.Boolean:
			call = jen.Qual(implPkg, "DecodeBool").Call(jen.Op("&").Id("ve"), key, jen.Id("v"), target)
		case annotate.DateTime:
			call = jen.Qual(implPkg, "DecodeTime").Call(jen.Op("&").Id("ve"), key, jen.Id("v"), target, jen.Lit(m.date))
		}
	}
	if needOK(m) {
		call = jen.Id(okVar(i)).Op("=").Add(call)
	}
	if fd := m.field; fd != nil && !fd.AskAlways && !fd.Pointer && fd.Check != "" {
		// An elicitable field given as its zero value ("" or 0) holds no
		// answer, so Validate does not judge it; the input schema does.
		call = jen.If(call.Op("&&").Add(missingCond(fd))).Block(
			jen.Id(fd.Check).Call(canonicalValue(fd), jen.Op("&").Id("ve")))
	}
	if needGot(m) {
		c.Id(gotVar(i)).Op("=").True()
	}
	if m.nullOK && !m.opaque && m.kind != annotate.MultiSelect {
		var null jen.Code = jen.Comment("null leaves it as it is (encoding/json)")
		if m.pointer {
			null = memberAccess(m).Op("=").Nil()
		}
		c.If(jen.Qual(implPkg, "IsNull").Call(jen.Id("v"))).Block(null).Else().Block(call)
		return
	}
	c.Add(call)
}

// argChecks writes the checks of plain argument m (not Opaque) after the
// decoding: required, then the rules of a value that decoded.
func argChecks(g *jen.Group, m member, i int) {
	a := m.arg
	fail := func(keyword, msg string) *jen.Statement {
		return fieldError("&ve", m.json, keyword, msg)
	}
	if a.Required {
		g.If(jen.Op("!").Id(gotVar(i))).Block(fail("required", "is required"))
	}
	v := memberAccess(m)
	if m.pointer {
		v = jen.Op("*").Add(memberAccess(m))
	}
	var checks []jen.Code
	switch m.kind {
	case annotate.String:
		checks = stringRules(jen.String().Parens(v.Clone()), a.MinLength, a.MaxLength, a.Format, valueEnum(jen.String().Parens(v.Clone()), a.Enum),
			func(keyword, msg string) []jen.Code { return []jen.Code{fail(keyword, msg)} })
	case annotate.Integer, annotate.Number:
		for _, b := range []struct{ lit, op, keyword, msg string }{
			{a.Minimum, "<", "minimum", "must be at least "},
			{a.Maximum, ">", "maximum", "must be at most "},
			{a.ExclusiveMinimum, "<=", "exclusiveMinimum", "must be greater than "},
			{a.ExclusiveMaximum, ">=", "exclusiveMaximum", "must be less than "},
		} {
			if b.lit == "" {
				continue
			}
			checks = append(checks, jen.If(numberCompare(v.Clone(), m, b.lit, b.op)).Block(fail(b.keyword, b.msg+b.lit)))
		}
	}
	if len(checks) == 0 {
		return
	}
	cond := jen.Id(okVar(i))
	if m.pointer {
		cond = cond.Op("&&").Add(memberAccess(m)).Op("!=").Nil()
	}
	g.If(cond).Block(checks...)
}

// numberCompare writes the condition under which the decoded value v breaks
// bound lit (a JSON number) with op ("<" for minimum, ">" for maximum, "<="
// and ">=" for the exclusive ones), as JSON Schema compares the numbers'
// values. An integer field compares with the bound made an integer the
// same way (minimum 2.5 is 3, maximum 9.007199254740992e15 is
// 9007199254740992), in its own type when the type holds it on every
// platform (an int or uint as its 32-bit self, so the literal compiles
// everywhere), else as float64. A float field compares in its own type, so
// a float32 holding 0.1 meets maximum=0.1 (both round alike).
func numberCompare(v *jen.Statement, m member, lit, op string) *jen.Statement {
	x, _ := strconv.ParseFloat(lit, 64)
	if m.kind != annotate.Integer {
		if m.basic == "float32" && math.Abs(x) > math.MaxFloat32 {
			return jen.Float64().Parens(v).Op(op).Lit(x) // beyond what a float32 constant holds
		}
		return v.Op(op).Lit(x)
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return jen.Float64().Parens(v).Op(op).Lit(x)
	}
	n := new(big.Int).Quo(r.Num(), r.Denom()) // toward zero
	if !r.IsInt() {
		// The integers that break "v < r" are those below ceil(r), and so on.
		ceil := op == "<" || op == ">="
		if ceil == (r.Sign() > 0) {
			n.Add(n, big.NewInt(int64(r.Sign())))
		}
	}
	if portableConst(n, m.basic) {
		return v.Op(op).Id(n.String())
	}
	return jen.Float64().Parens(v).Op(op).Lit(x)
}

// portableConst reports whether n is a constant of predeclared integer type
// basic on every platform, int and uint as their 32-bit selves (the Go
// spec's sizes; strconv checks the range).
func portableConst(n *big.Int, basic string) bool {
	bits := 64
	switch basic {
	case "int8", "uint8", "byte":
		bits = 8
	case "int16", "uint16":
		bits = 16
	case "int32", "rune", "uint32", "int", "uint", "uintptr":
		bits = 32
	}
	var err error
	if strings.HasPrefix(basic, "uint") || basic == "byte" {
		_, err = strconv.ParseUint(n.String(), 10, bits)
	} else {
		_, err = strconv.ParseInt(n.String(), 10, bits)
	}
	return err == nil
}

// stringValues writes FlowSpec.Value for the string and multi-select
// elicitable fields of s (nil when it has none): each field's value as form
// content holds it, for the run-time choices and typed echoes of arguments
// given up front.
func stringValues(s *annotate.Struct) *jen.Statement {
	var cases []jen.Code
	for _, fd := range s.Fields {
		if !fd.Choices && fd.Kind != annotate.String && fd.Kind != annotate.MultiSelect {
			continue
		}
		v := access(fd)
		asString := func(x *jen.Statement) *jen.Statement {
			if fd.Type.Path == "" && fd.Type.Name == "string" {
				return x
			}
			return jen.String().Parens(x)
		}
		var body []jen.Code
		switch {
		case fd.Slice:
			body = []jen.Code{jen.Return(jen.Qual(implPkg, "Strings").Call(v))}
		case fd.Pointer:
			body = []jen.Code{
				jen.If(v.Clone().Op("==").Nil()).Block(jen.Return(jen.Nil())),
				jen.Return(asString(jen.Op("*").Add(v.Clone()))),
			}
		default:
			body = []jen.Code{jen.Return(asString(v))}
		}
		cases = append(cases, jen.Case(jen.Lit(fd.JSONName)).Block(body...))
	}
	if len(cases) == 0 {
		return nil
	}
	return jen.Func().Params(jen.Id("t").Op("*").Id(s.Name), jen.Id("name").String()).Any().Block(
		jen.Switch(jen.Id("name")).Block(cases...),
		jen.Return(jen.Nil()),
	)
}

// inputSchemaFunc writes FlowSpec.Schema for tool s: its input schema (MCP
// 2026-07-28, server/tools: inputSchema), as runtime.Flow.InputSchema would
// reflect it with invopop/jsonschema, from the model: properties in field
// order, an elicitable field's read from Names.Properties (without its
// default and never required: impl.SetInputProperty), no ask=always field,
// and the plain arguments' from their jsonschema tags.
func inputSchemaFunc(s *annotate.Struct) *jen.Statement {
	fields := map[string]int{} // the index of each elicitable field in Names.Properties
	for i, fd := range s.Fields {
		fields[fd.JSONName] = i
	}
	args := map[string]*annotate.Arg{}
	for _, g := range s.Args {
		args[g.JSONName] = g
	}
	var body []jen.Code
	body = append(body, jen.Id("s").Op(":=").Qual(implPkg, "NewObjectSchema").Call())
	var required []jen.Code
	for _, name := range s.Order {
		if i, ok := fields[name]; ok {
			if !s.Fields[i].AskAlways {
				body = append(body, jen.Qual(implPkg, "SetInputProperty").Call(jen.Id("s"), jen.Id(s.Names.Properties).Index(jen.Lit(i))).Comment(name))
			}
			continue
		}
		g := args[name]
		if g == nil || !g.InSchema {
			continue
		}
		if g.Required {
			required = append(required, jen.Lit(name))
		}
		body = append(body, jen.Id("s").Dot("Properties").Dot("Set").Call(jen.Lit(name), argSchema(g)))
	}
	if len(required) > 0 {
		body = append(body, jen.Id("s").Dot("Required").Op("=").Index().String().Values(required...))
	}
	body = append(body, jen.Return(jen.Id("s")))
	return jen.Func().Params().Op("*").Qual(schemaPkg, "Schema").Block(body...)
}

// argSchema is the property schema of plain argument g, as invopop/jsonschema
// reflects it from the Go type and the jsonschema tag.
func argSchema(g *annotate.Arg) *jen.Statement {
	d := fields{"Type": jen.Lit(g.SchemaType)}
	if g.Title != "" {
		d["Title"] = text(4, len("Description: "), g.Title)
	}
	if g.Description != "" {
		d["Description"] = text(4, len("Description: "), g.Description)
	}
	format := g.Format
	if g.Kind == annotate.DateTime && format == "" {
		format = "date-time"
	}
	if format != "" {
		d["Format"] = jen.Lit(format)
	}
	if g.MinLength != nil {
		d["MinLength"] = jen.Qual(implPkg, "Uint64").Call(jen.Lit(int(*g.MinLength)))
	}
	if g.MaxLength != nil {
		d["MaxLength"] = jen.Qual(implPkg, "Uint64").Call(jen.Lit(int(*g.MaxLength)))
	}
	for _, b := range []struct{ field, lit string }{
		{"Minimum", g.Minimum}, {"Maximum", g.Maximum}, {"ExclusiveMinimum", g.ExclusiveMinimum}, {"ExclusiveMaximum", g.ExclusiveMaximum},
	} {
		if b.lit != "" {
			d[b.field] = jen.Qual("encoding/json", "Number").Call(jen.Lit(b.lit))
		}
	}
	if len(g.Enum) > 0 {
		var items []jen.Code
		for _, e := range g.Enum {
			items = append(items, jen.Lit(e))
		}
		d["Enum"] = jen.Index().Any().Values(items...)
	}
	return jen.Op("&").Qual(schemaPkg, "Schema").Add(literal(schemaType, d))
}
