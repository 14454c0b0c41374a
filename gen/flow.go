package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// flowFunc writes New<T>Flow for tool s, whose handler interface is h: one
// impl.NewFlow(impl.FlowSpec[T]{…}) call, so that generated code reaches the
// runtime's flow only through runtime/impl, under its version guard.
func flowFunc(f *jen.File, s *annotate.Struct, h string) {
	var askAlways, dateFields, fields []jen.Code
	for _, fd := range s.Fields {
		fields = append(fields, jen.Lit(fd.JSONName))
		if fd.AskAlways {
			askAlways = append(askAlways, jen.Lit(fd.JSONName))
		}
		if fd.Kind == annotate.DateTime && fd.Format == "date" {
			dateFields = append(dateFields, jen.Lit(fd.JSONName))
		}
	}
	t := func() *jen.Statement { return jen.Op("*").Id(s.Name) }
	spec := jen.Qual(implPkg, "FlowSpec").Types(jen.Id(s.Name)).Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Name")] = jen.Lit(s.Tool)
		if s.ToolDescription != "" {
			d[jen.Id("Description")] = jen.Lit(s.ToolDescription)
		}
		if s.Message != "" {
			d[jen.Id("Message")] = jen.Lit(s.Message)
		}
		d[jen.Id("Key")] = jen.Lit(s.Key)
		d[jen.Id("Fields")] = jen.Index().String().Values(fields...)
		if len(askAlways) > 0 {
			d[jen.Id("AskAlways")] = jen.Index().String().Values(askAlways...)
		}
		if len(dateFields) > 0 {
			d[jen.Id("DateFields")] = jen.Index().String().Values(dateFields...)
		}
		if s.Unsealed {
			d[jen.Id("AcceptUnsealed")] = jen.True()
		}
		if s.MaxRounds > 0 {
			d[jen.Id("MaxRounds")] = jen.Lit(s.MaxRounds)
		}
		choices := jen.Dict{}
		for _, fd := range s.Fields {
			if fd.Choices {
				choices[jen.Lit(fd.JSONName)] = jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Add(t())).Params(jen.Index().Qual(runtimePkg, "Choice"), jen.Error()).Block(
					jen.Return(jen.Id("h").Dot(fd.ChoicesMethod).Call(jen.Id("ctx"), jen.Id("args"))))
			}
		}
		if len(choices) > 0 {
			d[jen.Id("Choices")] = jen.Map(jen.String()).Func().Params(jen.Qual("context", "Context"), t()).Params(jen.Index().Qual(runtimePkg, "Choice"), jen.Error()).Values(choices)
		}
		if !s.AcceptOnly {
			d[jen.Id("Form")] = jen.Qual(implPkg, "FormOptions").Types(jen.Id(s.Name)).Call(jen.Id("h"))
		}
		if s.Decodes {
			d[jen.Id("Decode")] = jen.Parens(t()).Dot(s.Names.Decode)
			if s.Opaque {
				d[jen.Id("CheckInputSchema")] = jen.True()
			}
			if v := stringValues(s); v != nil {
				d[jen.Id("Value")] = v
			}
			if s.SchemaWritten {
				d[jen.Id("Schema")] = inputSchemaFunc(s)
			}
		}
		d[jen.Id("Dispatch")] = jen.Func().Params(
			jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Add(t()), jen.Id("action").Qual(runtimePkg, "Action"), jen.Id("declined").Index().String(),
		).Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error()).BlockFunc(func(g *jen.Group) {
			if s.AcceptOnly {
				g.Comment("Nothing is asked before the branch, so the runtime dispatches Accept only: with no")
				g.Comment("Fields it refuses a requestState that names another branch.")
				g.If(jen.Id("action").Op("!=").Qual(runtimePkg, "Accept")).Block(
					jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcpgen: "+s.Tool+" has no form to decline or cancel; unexpected action %q"), jen.Id("action"))),
				)
				g.Return(jen.Id("h").Dot(annotate.MethodAccept).Call(jen.Id("ctx"), jen.Id("args")))
				return
			}
			g.Switch(jen.Id("action")).Block(
				jen.Case(jen.Qual(runtimePkg, "Accept")).Block(jen.Return(jen.Id("h").Dot(annotate.MethodAccept).Call(jen.Id("ctx"), jen.Id("args")))),
				jen.Case(jen.Qual(runtimePkg, "Decline")).Block(jen.Return(jen.Id("h").Dot(annotate.MethodDecline).Call(jen.Id("ctx"), jen.Id("args"), jen.Id("declined")))),
				jen.Case(jen.Qual(runtimePkg, "Cancel")).Block(jen.Return(jen.Id("h").Dot(annotate.MethodCancel).Call(jen.Id("ctx"), jen.Id("args")))),
			)
			g.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcpgen: unknown action %q"), jen.Id("action")))
		})
	}))
	f.Func().Id(s.Names.FlowFunc).Params(jen.Id("h").Id(h)).Op("*").Qual(runtimePkg, "Flow").Block(
		jen.Return(jen.Qual(implPkg, "NewFlow").Call(spec)),
	)
}
