package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// specLead is the most columns a key of the impl.FlowSpec literal takes,
// aligned by gofmt: "CheckInputSchema: ".
const specLead = len("CheckInputSchema: ")

// flowFunc writes New<T>Flow for tool s, whose handler interface is h: one
// impl.NewFlow(impl.FlowSpec[T]{…}) call, so that generated code reaches the
// runtime's flow only through runtime/impl, under its version guard. The
// spec names the generated file and carries the struct's digest
// (annotate.Struct.Shape), which impl.NewFlow holds to the struct at start.
func flowFunc(f *jen.File, s *annotate.Struct, h string) {
	var askAlways, dateFields []jen.Code
	var jsonNames []string
	for _, fd := range s.Fields {
		jsonNames = append(jsonNames, fd.JSONName)
		if fd.AskAlways {
			askAlways = append(askAlways, jen.Lit(fd.JSONName))
		}
		if fd.Kind == annotate.DateTime && fd.Format == "date" {
			dateFields = append(dateFields, jen.Lit(fd.JSONName))
		}
	}
	t := func() *jen.Statement { return jen.Op("*").Id(s.Name) }
	d := fields{}
	d["Name"] = jen.Lit(s.Tool)
	if s.ToolDescription != "" {
		d["Description"] = text(2, specLead, s.ToolDescription)
	}
	if s.Message != "" {
		d["Message"] = text(2, specLead, s.Message)
	}
	d["Key"] = jen.Lit(s.Key)
	d["Fields"] = stringList(2, specLead, jsonNames)
	if len(askAlways) > 0 {
		d["AskAlways"] = jen.Index().String().Values(askAlways...)
	}
	if len(dateFields) > 0 {
		d["DateFields"] = jen.Index().String().Values(dateFields...)
	}
	if s.Unsealed {
		d["AcceptUnsealed"] = jen.True()
	}
	if s.MaxRounds > 0 {
		d["MaxRounds"] = jen.Lit(s.MaxRounds)
	}
	var choices []jen.Code
	for _, fd := range s.Fields {
		if fd.Choices {
			choices = append(choices, jen.Lit(fd.JSONName).Op(":").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Add(t())).Params(jen.Index().Qual(runtimePkg, "Choice"), jen.Error()).Block(
				jen.Return(jen.Id("h").Dot(fd.ChoicesMethod).Call(jen.Id("ctx"), jen.Id("args")))))
		}
	}
	if len(choices) > 0 {
		d["Choices"] = jen.Map(jen.String()).Func().Params(jen.Qual("context", "Context"), t()).Params(jen.Index().Qual(runtimePkg, "Choice"), jen.Error()).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, choices...)
	}
	if !s.AcceptOnly {
		d["Form"] = jen.Qual(implPkg, "FormOptions").Types(jen.Id(s.Name)).Call(jen.Id("h"))
		d["Unaskable"] = jen.Qual(implPkg, "Unaskable").Types(jen.Id(s.Name)).Call(jen.Id("h"))
	}
	if s.Decodes {
		d["Decode"] = jen.Parens(t()).Dot(s.Names.Decode)
		if s.Opaque {
			d["CheckInputSchema"] = jen.True()
		}
		if v := stringValues(s); v != nil {
			d["Value"] = v
		}
		if s.SchemaWritten {
			d["Schema"] = inputSchemaFunc(s)
		}
	}
	ret := jen.Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error())
	dispatch := func(action, declined string) *jen.Statement {
		text := fmt.Sprintf("Dispatch: func(ctx context.Context, args *%s, %s runtime.Action, %s []string) (*runtime.Result, error) {",
			s.Name, action, declined)
		return jen.Func().Add(params(2, text, jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Add(t()),
			jen.Id(action).Qual(runtimePkg, "Action"), jen.Id(declined).Index().String())).Add(ret)
	}
	if s.AcceptOnly {
		d["Dispatch"] = dispatch("_", "_").Block(
			jen.Comment("Nothing is asked before the branch, so the runtime dispatches Accept only: with no"),
			jen.Comment("Fields it refuses a requestState that names another branch."),
			jen.Return(jen.Id("h").Dot(annotate.MethodAccept).Call(jen.Id("ctx"), jen.Id("args"))),
		)
	} else {
		d["Dispatch"] = dispatch("action", "declined").Block(
			jen.Switch(jen.Id("action")).Block(
				jen.Case(jen.Qual(runtimePkg, "Accept")).Block(jen.Return(jen.Id("h").Dot(annotate.MethodAccept).Call(jen.Id("ctx"), jen.Id("args")))),
				jen.Case(jen.Qual(runtimePkg, "Decline")).Block(jen.Return(jen.Id("h").Dot(annotate.MethodDecline).Call(jen.Id("ctx"), jen.Id("args"), jen.Id("declined")))),
				jen.Default().Block(
					jen.Comment("runtime.Cancel: the runtime dispatches no other action"),
					jen.Return(jen.Id("h").Dot(annotate.MethodCancel).Call(jen.Id("ctx"), jen.Id("args"))),
				),
			),
		)
	}
	d["File"] = jen.Lit(s.Names.ElicitFile)
	if s.Shape != nil {
		d["Shape"] = stringList(2, specLead, s.Shape)
	}
	spec := jen.Qual(implPkg, "FlowSpec").Types(jen.Id(s.Name)).Add(literal(flowSpecType, d))
	f.Func().Id(s.Names.FlowFunc).Params(jen.Id("h").Id(h)).Op("*").Qual(runtimePkg, "Flow").Block(
		jen.Return(jen.Qual(implPkg, "NewFlow").Call(spec)),
	)
}
