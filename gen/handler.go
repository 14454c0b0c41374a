package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/internal/skeleton"
)

// handlerFile builds <t>_handler.go: the user's file, written once, with
// skeletons of the three branches and their documented fallbacks (of Accept
// alone for a tool without an elicitable field).
func handlerFile(pkg *annotate.Package, s *annotate.Struct, aliases map[string]string) *jen.File {
	f := newFile(pkg, aliases)
	headerComments(f, s, false)
	typ := s.Names.HandlerType
	iface := s.Names.Interface
	args := func() *jen.Statement { return jen.Id("args").Op("*").Id(s.Name) }
	ctx := func() *jen.Statement { return jen.Id("ctx").Qual("context", "Context") }
	res := func() *jen.Statement { return jen.Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error()) }

	what := "the branches of the"
	if s.AcceptOnly {
		what = "the"
	}
	doc(f, "%s runs %s %s tool: register it with %s(%s{}).", typ, what, s.Tool, s.Names.FlowFunc, typ)
	f.Comment("")
	f.Comment("This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.")
	doc(f, "If %s changes, the assertion below stops compiling until the methods match.", iface)
	f.Type().Id(typ).Struct()
	f.Var().Id("_").Id(iface).Op("=").Id(typ).Values()

	if s.AcceptOnly {
		acceptOnlyHandler(f, s, typ)
		return f
	}

	f.Comment("Accept runs when every required field holds a valid answer. Do the tool's work here.")
	f.Comment("runtime.FlowID(ctx) identifies this call across its rounds: use it to make the work idempotent,")
	f.Comment("since a client may send the final retry twice.")
	f.Func().Params(jen.Id(typ)).Id(annotate.MethodAccept).Params(ctx(), args()).Add(res()).Block(
		jen.Comment("TODO: do the work. Until then, echo the arguments as JSON (pointer fields print as values)."),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("args")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(runtimePkg, "Textf").Call(jen.Lit(s.Tool+": done with %s"), jen.Id("b")), jen.Nil()),
	)

	f.Comment("Decline runs when the user declined the form: declined holds the JSON names of the fields asked.")
	f.Comment("Never ask again for them. Either fall back to defaults (fill the declined fields and return")
	f.Comment("h.Accept(ctx, args)), or return a clean partial result that says what was not done, as here.")
	sig := fmt.Sprintf("func (h %s) Decline(ctx context.Context, args *%s, declined []string) (*runtime.Result, error) {", typ, s.Name)
	msg := s.Tool + ": nothing done; the user declined to give %s"
	text := fmt.Sprintf("return runtime.Textf(%q, strings.Join(declined, \", \")), nil", msg)
	f.Func().Params(jen.Id("h").Id(typ)).Id(annotate.MethodDecline).Add(params(0, sig, ctx(), args(), jen.Id("declined").Index().String())).Add(res()).Block(
		jen.Return(jen.Qual(runtimePkg, "Textf").Call(wrapLast(1, text, []jen.Code{jen.Lit(msg),
			jen.Qual("strings", "Join").Call(jen.Id("declined"), jen.Lit(", "))})...), jen.Nil()),
	)

	f.Comment("Cancel runs when the user dismissed the form without choosing. Stop cleanly: no side effects,")
	f.Comment("no further questions.")
	f.Func().Params(jen.Id(typ)).Id(annotate.MethodCancel).Params(ctx(), args()).Add(res()).Block(
		jen.Return(jen.Qual(runtimePkg, "Text").Call(jen.Lit(s.Tool+": cancelled by the user; nothing done")), jen.Nil()),
	)

	f.Comment("Unaskable runs instead of the form when the client cannot be asked: it declared no form")
	f.Comment("elicitation, the server cannot send it a request, or it accepted the form twice with nothing")
	f.Comment("filled in (why says which). missing holds the JSON names of the fields the form would ask.")
	f.Comment("runtime.DefaultUnaskable is the runtime's answer: a tool error naming each field and which ones")
	f.Comment("the model can pass as arguments (or JSON-RPC -32021, per Options.MissingCapability). Point the")
	f.Comment("user elsewhere (a web page, another tool), or fill safe defaults and return h.Accept(ctx, args).")
	sig = fmt.Sprintf("func (h %s) Unaskable(ctx context.Context, args *%s, missing []string, why string) (*runtime.Result, error) {", typ, s.Name)
	f.Func().Params(jen.Id("h").Id(typ)).Id(annotate.MethodUnaskable).Add(params(0, sig, ctx(), args(), jen.Id("missing").Index().String(), jen.Id("why").String())).Add(res()).Block(
		jen.Return(jen.Qual(runtimePkg, "DefaultUnaskable").Call(jen.Id("ctx"))),
	)

	for _, fd := range s.Fields {
		if !fd.Choices {
			continue
		}
		m := fd.ChoicesMethod
		doc(f, "%s", skeleton.ChoicesDoc(m, fd.JSONName, "runtime"))
		f.Func().Params(jen.Id(typ)).Id(m).Params(ctx(), args()).Params(jen.Index().Qual(runtimePkg, "Choice"), jen.Error()).Block(
			jen.Comment("TODO: list the options."),
			jen.Return(jen.Index().Qual(runtimePkg, "Choice").Values(literal(choiceType, fields{"Value": jen.Lit("example"), "Title": jen.Lit("Example")})), jen.Nil()),
		)
	}
	return f
}

// acceptOnlyHandler declares the Accept skeleton of a tool without an
// elicitable field (annotate.Struct.AcceptOnly), its only branch, with how to
// ask a question in the middle of it and handle the user's action.
func acceptOnlyHandler(f *jen.File, s *annotate.Struct, typ string) {
	doc(f, "Accept runs on every call: %s has no elicitable field, so nothing is asked before it, and it is "+
		"the only branch. Do the tool's work here. runtime.FlowID(ctx) identifies a call that asked "+
		"a question across its rounds: use it to make the work idempotent.", s.Name)
	f.Comment("")
	f.Comment("To ask the user something once you have computed it (a price, a plan), declare a question")
	f.Comment("(a struct with a //mcpgen:question directive and elicit tags), run go generate, and ask it")
	f.Comment("here. Ask returns the user's action to this branch; the branch runs again from the top on the")
	f.Comment("retry, so keep the code before the last question free of side effects:")
	f.Comment("")
	f.Comment("\tvar q Confirm // a //mcpgen:question struct")
	f.Comment("\taction, err := runtime.Ask(ctx, \"confirm\", &q, nil)")
	f.Comment("\tif err != nil {")
	f.Comment("\t\treturn nil, err // runtime.ErrInputRequired until the user answers: return it unchanged")
	f.Comment("\t}")
	f.Comment("\tswitch action {")
	f.Comment("\tcase runtime.Decline:")
	f.Commentf("\t\treturn runtime.Text(%q), nil", s.Tool+": the user declined; nothing done")
	f.Comment("\tcase runtime.Cancel:")
	f.Commentf("\t\treturn runtime.Text(%q), nil", s.Tool+": cancelled by the user; nothing done")
	f.Comment("\t}")
	f.Comment("\t// runtime.Accept: q holds the answer. Do the work after the last question.")
	f.Func().Params(jen.Id(typ)).Id(annotate.MethodAccept).Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(s.Name),
	).Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error()).Block(
		jen.Comment("TODO: do the work. Until then, echo the arguments as JSON (pointer fields print as values)."),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("args")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(runtimePkg, "Textf").Call(jen.Lit(s.Tool+": done with %s"), jen.Id("b")), jen.Nil()),
	)
}
