package gen

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// applyField emits, for field i, the code of _mcpgenApply that reads its
// answer from content, converts and checks it, and stages it in v<i>/set<i>.
// buf is the backing array of a multi select (nil for other kinds).
func applyField(g *jen.Group, s *annotate.Struct, fd *annotate.Field, i int, buf *multiBuf) {
	v, set := stageVar(i), setVar(i)
	g.Var().Id(v).Add(stageType(fd))
	g.Var().Id(set).Bool()
	ask := missingCond(fd)
	if fd.AskAlways {
		ask = jen.True()
	}
	g.Commentf("%s (JSON %q)", fd.GoName, fd.JSONName)
	var absent []jen.Code
	if fd.Required {
		absent = append(absent, addErrP(fd, "required", "is required"))
	} else if fd.Default != nil {
		absent = append(absent, jen.List(jen.Id(v), jen.Id(set)).Op("=").List(defaultValue(fd), jen.True()))
	}
	present := convertAnswer(s, fd, v, set, buf)
	// A key that is present is an answer, even null: null is not a value of
	// any property type of the form grammar (MCP 2026-07-28,
	// client/elicitation), so it is a type error, as the validator says.
	cond := jen.List(jen.Id("raw"), jen.Id("ok")).Op(":=").Id("content").Index(jen.Lit(fd.JSONName)).Op(";").Id("ok")
	inner := jen.If(cond).Block(present...)
	if len(absent) > 0 {
		inner = inner.Else().Block(absent...)
	}
	if fd.AskAlways {
		g.Block(inner)
		return
	}
	g.If(ask).Block(inner)
}

func typeErr(fd *annotate.Field, want string) *jen.Statement {
	msg := "must be " + want + ", got "
	args := []jen.Code{jen.Op("&").Id("ve"), jen.Lit(fd.JSONName), jen.Lit("type"), jen.Lit(msg).Op("+").Qual(implPkg, "TypeName").Call(jen.Id("raw"))}
	text := fmt.Sprintf("impl.AddFieldError(&ve, %q, \"type\", %q+impl.TypeName(raw))", fd.JSONName, msg)
	return jen.Qual(implPkg, "AddFieldError").Call(wrapLast(errIndent, text, args)...)
}

// convertAnswer converts raw to the staged value, checking type, range and rules.
func convertAnswer(s *annotate.Struct, fd *annotate.Field, v, set string, buf *multiBuf) []jen.Code {
	stage := func(val jen.Code) jen.Code {
		return jen.List(jen.Id(v), jen.Id(set)).Op("=").List(val, jen.True())
	}
	// checked appends to chain: run the field's checks on val and stage
	// staged when they pass (or just stage it when the field has none).
	checked := func(chain *jen.Statement, val, staged jen.Code) *jen.Statement {
		if fd.Check == "" {
			return chain.Else().Block(stage(staged))
		}
		return chain.Else().If(jen.Id(fd.Check).Call(val, jen.Op("&").Id("ve"))).Block(stage(staged))
	}
	checkedStmt := func(val, staged jen.Code) jen.Code {
		if fd.Check == "" {
			return stage(staged)
		}
		return jen.If(jen.Id(fd.Check).Call(val, jen.Op("&").Id("ve"))).Block(stage(staged))
	}
	conv := func(x jen.Code) jen.Code {
		if fd.Type.Path == "" && (fd.Type.Name == "string" && fd.Kind == annotate.String || fd.Type.Name == "bool" ||
			fd.Type.Name == "float64" && fd.Kind == annotate.Number) {
			return x
		}
		return typeCode(fd.Type).Parens(x)
	}
	switch fd.Kind {
	case annotate.String:
		return []jen.Code{
			checked(jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Qual(implPkg, "AsString").Call(jen.Id("raw")), jen.Op("!").Id("ok")).Block(
				typeErr(fd, "a string"),
			), jen.Id("x"), conv(jen.Id("x"))),
		}
	case annotate.Boolean:
		return []jen.Code{
			jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Qual(implPkg, "AsBool").Call(jen.Id("raw")), jen.Op("!").Id("ok")).Block(
				typeErr(fd, "a boolean"),
			).Else().Block(stage(conv(jen.Id("x")))),
		}
	case annotate.DateTime:
		parse, want := "ParseDateTime", "a date-time string (RFC 3339, e.g. 2026-07-28T09:30:00Z)"
		if fd.Format == "date" {
			parse, want = "ParseDate", "a date string (YYYY-MM-DD)"
		}
		chain := jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Qual(implPkg, "AsString").Call(jen.Id("raw")), jen.Op("!").Id("ok")).Block(
			typeErr(fd, "a string"),
		).Else().If(jen.List(jen.Id("tm"), jen.Id("ok")).Op(":=").Qual(implPkg, parse).Call(jen.Id("x")), jen.Op("!").Id("ok")).Block(
			addErrP(fd, "format", "must be "+want),
		)
		if fd.Required && !fd.Pointer {
			// The zero time.Time is how the field says "no answer":
			// holding it would leave a required field missing.
			chain = chain.Else().If(jen.Id("tm").Dot("IsZero").Call()).Block(
				addErrP(fd, "range", "must be later than 0001-01-01T00:00:00Z, which reads as no answer"),
			)
		}
		return []jen.Code{chain.Else().Block(stage(jen.Id("tm")))}
	case annotate.Integer:
		// impl.AnswerInt and AnswerUint convert within the range of the
		// stage variable's type and report a wrong type or range.
		answer := "AnswerInt"
		if fd.Unsigned {
			answer = "AnswerUint"
		}
		call := jen.Qual(implPkg, answer).Call(jen.Op("&").Id("ve"), jen.Lit(fd.JSONName), jen.Id("raw"), jen.Lit(fd.Type.Name), jen.Op("&").Id(v))
		if fd.Check == "" {
			return []jen.Code{jen.Id(set).Op("=").Add(call)}
		}
		return []jen.Code{jen.If(call).Block(jen.Id(set).Op("=").Id(fd.Check).Call(canonicalOf(fd, jen.Id(v)), jen.Op("&").Id("ve")))}
	case annotate.Number:
		var ok jen.Code
		if fd.Basic == "float32" {
			// A float32 holds every float64 up to rounding, but not beyond
			// ±math.MaxFloat32 (it would become an infinity).
			ok = checked(jen.If(jen.Qual("math", "IsInf").Call(jen.Float64().Parens(jen.Float32().Parens(jen.Id("x"))), jen.Lit(0))).Block(
				addErrP(fd, "range", "does not fit in float32"),
			), jen.Id("x"), typeCode(fd.Type).Parens(jen.Id("x")))
		} else {
			ok = checkedStmt(jen.Id("x"), conv(jen.Id("x")))
		}
		return []jen.Code{
			jen.Switch(jen.List(jen.Id("x"), jen.Id("st")).Op(":=").Qual(implPkg, "AsFloat64").Call(jen.Id("raw")), jen.Id("st")).Block(
				jen.Case(jen.Qual(implPkg, "ConvWrongType")).Block(typeErr(fd, "a number")),
				jen.Case(jen.Qual(implPkg, "ConvOutOfRange")).Block(addErrP(fd, "range", "does not fit in float64")),
				jen.Default().Block(ok),
			),
		}
	case annotate.MultiSelect:
		args := []jen.Code{jen.Op("&").Id(buf.name), jen.Id("raw"), jen.Id("content")}
		// The later multi selects sharing the array, to size it once.
		later := buf.keys[slices.Index(buf.keys, fd.JSONName)+1:]
		for _, k := range later {
			args = append(args, jen.Lit(k))
		}
		appendStmt := checked(jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Qual(implPkg, "AppendStrings").Call(args...), jen.Op("!").Id("ok")).Block(
			typeErr(fd, "an array of strings"),
		), jen.Id("x"), jen.Id("x"))
		if buf.ensure != nil {
			return []jen.Code{buf.ensure, appendStmt}
		}
		return []jen.Code{appendStmt}
	}
	return nil
}

// defaultValue is the Go expression of the field's default, of the staged type.
func defaultValue(fd *annotate.Field) jen.Code {
	d := fd.Default
	switch fd.Kind {
	case annotate.String:
		return typeCode(fd.Type).Parens(jen.Lit(d.String))
	case annotate.DateTime:
		parse := "ParseDateTime"
		if fd.Format == "date" {
			parse = "ParseDate"
		}
		return jen.Qual(implPkg, "MustTime").Call(jen.Qual(implPkg, parse).Call(jen.Lit(d.String)))
	case annotate.Integer:
		if fd.Unsigned {
			return typeCode(fd.Type).Parens(jen.Lit(d.Uint))
		}
		// Written from the int64, not through a Go int: on a 32-bit mcpgen an
		// int(d.Int) would wrap a default beyond ±2^31 without a word. A
		// default that the field's int cannot hold on the target platform is
		// then a compile error there (constant overflows int), never a wrap.
		return typeCode(fd.Type).Parens(jen.Op(strconv.FormatInt(d.Int, 10)))
	case annotate.Number:
		return typeCode(fd.Type).Parens(jen.Lit(d.Float))
	case annotate.Boolean:
		return typeCode(fd.Type).Parens(jen.Lit(d.Bool))
	case annotate.MultiSelect:
		var items []jen.Code
		for _, it := range d.Strings {
			items = append(items, jen.Lit(it))
		}
		return stageType(fd).Values(items...)
	}
	return jen.Nil()
}
