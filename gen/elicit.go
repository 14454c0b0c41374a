package gen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// implPkg is the package of what only generated code calls.
const implPkg = "github.com/mcpgen/mcpgen/runtime/impl"

// ImplVersion is the version of runtime/impl that generated files are written
// for: every _elicit.go compiles only against an impl whose MinVersion <=
// ImplVersion <= MaxVersion (impl.EnforceVersion). A test holds it equal to
// impl.MaxVersion, so the two are bumped together.
const ImplVersion = 9

// elicitFile builds <t>_elicit.go: the version guard, then the methods
// every elicitable struct has (MissingFields, RequestedSchema, ApplyContent,
// ApplyPartial, Validate and their checks), then what a question or a tool
// adds (a question's message and URL registration; a tool's argument
// decoding, handler interface and flow constructor).
func elicitFile(pkg *annotate.Package, s *annotate.Struct, aliases map[string]string) *jen.File {
	f := newFile(pkg, aliases)
	headerComments(f, s, true)
	versionGuard(f)
	missingFieldsDecl(f, s)
	if len(s.Fields) > 0 {
		propertiesVar(f, s) // the property schemas, written once
	}
	requestedSchemaDecl(f, s)
	applyDecls(f, s)
	validateDecl(f, s)
	for _, fd := range s.Fields {
		if fd.Check != "" {
			checkFuncDecl(f, s, fd)
		}
		if fd.CheckStored != "" {
			storedCheckDecl(f, s, fd)
		}
	}
	if s.Question {
		questionDecls(f, s)
		return f // a question has no handler interface and no flow
	}
	if s.Decodes {
		decodeArgumentsDecl(f, s)
	}
	handlerDecls(f, s)
	return f
}

// versionGuard writes the version guard: the advice sits right above the
// lines that fail, so the compiler's error position lands next to it.
func versionGuard(f *jen.File) {
	f.Commentf("This file was generated for runtime/impl version %d. If a line below does not compile, the mcpgen", ImplVersion)
	f.Comment("that wrote this file does not match the mcpgen runtime in go.mod: rerun `go generate` with the")
	f.Comment("mcpgen of go.mod (`go tool mcpgen`).")
	f.Const().Id("_").Op("=").Qual(implPkg, "EnforceVersion").Call(jen.Qual(implPkg, "MaxVersion").Op("-").Lit(ImplVersion))
	f.Const().Id("_").Op("=").Qual(implPkg, "EnforceVersion").Call(jen.Lit(ImplVersion).Op("-").Qual(implPkg, "MinVersion"))
}

// missingFieldsDecl declares MissingFields: the JSON names of the fields
// that hold no answer, in field order.
func missingFieldsDecl(f *jen.File, s *annotate.Struct) {
	recv := func() *jen.Statement { return jen.Id("t").Op("*").Id(s.Name) }
	doc(f, "MissingFields returns the JSON names of the elicitable fields of %s that hold no answer, in field order. "+
		"A field holds no answer when it is a nil pointer, an empty string or slice, a zero time.Time, or a zero number or false bool.", s.Name)
	f.Func().Params(recv()).Id(annotate.MethodMissingFields).Params().Index().String().BlockFunc(func(g *jen.Group) {
		g.Var().Id("missing").Index().String()
		for _, fd := range s.Fields {
			g.If(missingCond(fd)).Block(jen.Id("missing").Op("=").Append(jen.Id("missing"), jen.Lit(fd.JSONName)))
		}
		g.Return(jen.Id("missing"))
	})
}

// requestedSchemaDecl declares RequestedSchema over the property schemas
// (propertiesVar).
func requestedSchemaDecl(f *jen.File, s *annotate.Struct) {
	recv := func() *jen.Statement { return jen.Id("t").Op("*").Id(s.Name) }
	doc(f, "RequestedSchema returns the flat requestedSchema (MCP 2026-07-28, client/elicitation) for the named "+
		"fields of %s, or for every missing field when none are named. Properties follow field "+
		"order; unknown names are ignored. Its JSON encoding is byte-stable. The property schemas are "+
		"shared by every call: change a copy.", s.Name)
	f.Func().Params(recv()).Id(annotate.MethodRequestedSchema).Params(jen.Id("fields").Op("...").String()).Op("*").Qual(schemaPkg, "Schema").BlockFunc(func(g *jen.Group) {
		if len(s.Fields) == 0 {
			g.Return(jen.Qual(implPkg, "NewObjectSchema").Call()) // no property, whatever the names
			return
		}
		g.If(jen.Len(jen.Id("fields")).Op("==").Lit(0)).Block(jen.Id("fields").Op("=").Id("t").Dot(annotate.MethodMissingFields).Call())
		g.Return(jen.Qual(implPkg, "RequestedSchema").Call(jen.Id(s.Names.Properties), jen.Id("fields")))
	})
}

// applyDecls declares ApplyContent and ApplyPartial, both calls of the
// struct's apply method (applyBody).
func applyDecls(f *jen.File, s *annotate.Struct) {
	recv := func() *jen.Statement { return jen.Id("t").Op("*").Id(s.Name) }
	f.Commentf("ApplyContent validates a form's accepted content (MCP 2026-07-28, client/elicitation: ElicitResult.content)")
	f.Comment("for the fields MissingFields returns and the ask=always fields, and sets them. Wrong JSON types,")
	f.Comment("broken rules, values the Go type cannot hold and required fields still missing are returned")
	f.Comment("together as a *runtime.ValidationError, and then nothing is set. Keys of other fields are ignored.")
	f.Comment("An optional field left unanswered takes its default.")
	f.Func().Params(recv()).Id(annotate.MethodApplyContent).Params(jen.Id("content").Map(jen.String()).Any()).Error().Block(
		jen.Return(jen.Id("t").Dot(s.Names.Apply).Call(jen.Id("content"), jen.False())),
	)
	f.Comment("ApplyPartial is ApplyContent for partial results: it sets every field whose answer is valid,")
	f.Comment("leaves the others as they are, and returns a *runtime.ValidationError for those (or nil).")
	f.Func().Params(recv()).Id(annotate.MethodApplyPartial).Params(jen.Id("content").Map(jen.String()).Any()).Error().Block(
		jen.Return(jen.Id("t").Dot(s.Names.Apply).Call(jen.Id("content"), jen.True())),
	)
	f.Commentf("%s is ApplyContent (partial false) and ApplyPartial (partial true).", s.Names.Apply)
	f.Func().Params(recv()).Id(s.Names.Apply).Params(jen.Id("content").Map(jen.String()).Any(), jen.Id("partial").Bool()).Error().BlockFunc(func(g *jen.Group) { applyBody(g, s) })
}

// applyBody writes the apply method: each field's answer staged and judged
// (applyField), then, with no error or when partial, every staged value set.
func applyBody(g *jen.Group, s *annotate.Struct) {
	g.Var().Id("ve").Op("*").Qual(runtimePkg, "ValidationError")
	bufs := multiSelectBufs(s)
	// The pointer fields answered share one allocation (blk); their
	// staged values stay on the stack. When the multi selects have a
	// bounded number of items in all (maxItems), their backing arrays
	// live in blk too, so that a full answer allocates once.
	var blkFields []jen.Code
	for i, fd := range s.Fields {
		if fd.Pointer {
			blkFields = append(blkFields, jen.Id(stageVar(i)).Add(stageType(fd)))
		}
	}
	if len(blkFields) > 0 && bufs.bounded() {
		for k, b := range bufs.list {
			b.array = "arr" + strconv.Itoa(k)
			blkFields = append(blkFields, jen.Id(b.array).Index(jen.Lit(int(b.bound))).Add(typeCode(b.elem)))
		}
	}
	blkType := func() *jen.Statement { return jen.Struct(blkFields...) }
	merged := len(bufs.list) > 0 && bufs.list[0].array != ""
	if merged {
		g.Comment("block is the one allocation of an answer: the pointer fields' values and the multi selects' items.")
		g.Type().Id("block").Add(blkType())
		g.Var().Id("blk").Op("*").Id("block")
		blkType = func() *jen.Statement { return jen.Id("block") }
	}
	for _, b := range bufs.list {
		g.Var().Id(b.name).Index().Add(typeCode(b.elem)).Comment("the backing array of the multi selects of this element type")
		if b.array != "" {
			b.ensure = jen.If(jen.Id("blk").Op("==").Nil()).Block(jen.Id("blk").Op("=").New(blkType())).Line().
				If(jen.Id(b.name).Op("==").Nil()).Block(jen.Id(b.name).Op("=").Id("blk").Dot(b.array).Index(jen.Empty(), jen.Lit(0)))
		}
	}
	for i, fd := range s.Fields {
		applyField(g, s, fd, i, bufs.of[fd])
	}
	commitStaged(g, s, blkFields, blkType, merged)
}

// commitStaged writes the end of the apply method: the staged values set,
// the pointer fields' in one allocation (the block of applyBody).
func commitStaged(g *jen.Group, s *annotate.Struct, blkFields []jen.Code, blkType func() *jen.Statement, merged bool) {
	g.If(jen.Id("ve").Op("!=").Nil().Op("&&").Op("!").Id("partial")).Block(jen.Return(jen.Id("ve")))
	var anySet *jen.Statement
	var blkSets, lastSet []jen.Code
	for i, fd := range s.Fields {
		if !fd.Pointer {
			g.If(jen.Id(setVar(i))).Block(access(fd).Op("=").Id(stageVar(i)))
			continue
		}
		if anySet == nil {
			anySet = jen.Id(setVar(i))
		} else {
			anySet = anySet.Op("||").Id(setVar(i))
		}
		blkSets = append(blkSets, jen.If(jen.Id(setVar(i))).Block(
			jen.Id("blk").Dot(stageVar(i)).Op("=").Id(stageVar(i)),
			access(fd).Op("=").Op("&").Id("blk").Dot(stageVar(i)),
		))
		lastSet = []jen.Code{
			jen.Id("blk").Dot(stageVar(i)).Op("=").Id(stageVar(i)),
			access(fd).Op("=").Op("&").Id("blk").Dot(stageVar(i)),
		}
	}
	if len(blkSets) == 1 {
		// One pointer field: its own if is the one around the block.
		blkSets = lastSet
	}
	switch {
	case merged:
		g.If(anySet).Block(append([]jen.Code{jen.If(jen.Id("blk").Op("==").Nil()).Block(jen.Id("blk").Op("=").New(blkType()))}, blkSets...)...)
	case len(blkFields) > 0:
		g.If(anySet).Block(append([]jen.Code{jen.Id("blk").Op(":=").New(blkType())}, blkSets...)...)
	}
	g.Return(jen.Id("ve").Dot("Err").Call())
}

// validateDecl declares Validate: every rule of every elicitable field,
// and that required fields hold an answer.
func validateDecl(f *jen.File, s *annotate.Struct) {
	recv := func() *jen.Statement { return jen.Id("t").Op("*").Id(s.Name) }
	doc(f, "Validate checks every rule on every elicitable field of %s, and that required ones hold an answer. "+
		"It returns a *runtime.ValidationError naming each failing field by its JSON name, or nil; "+
		"it allocates nothing when the struct is valid.", s.Name)
	f.Func().Params(recv()).Id(annotate.MethodValidate).Params().Error().BlockFunc(func(g *jen.Group) {
		g.Var().Id("ve").Op("*").Qual(runtimePkg, "ValidationError")
		for _, fd := range s.Fields {
			var present []jen.Code
			if fd.Check != "" {
				if fd.CheckStored != "" {
					v := access(fd)
					if fd.Pointer {
						v = jen.Op("*").Add(v)
					}
					present = append(present, jen.Id(fd.CheckStored).Call(jen.Float32().Parens(v), jen.Op("&").Id("ve")))
				} else {
					present = append(present, jen.Id(fd.Check).Call(canonicalValue(fd), jen.Op("&").Id("ve")))
				}
			}
			if fd.Required {
				required := g.If(missingCond(fd)).Block(addErrP(fd, "required", "is required"))
				if len(present) > 0 {
					required.Else().Block(present...)
				}
			} else if len(present) > 0 {
				g.If(presentCond(fd)).Block(present...)
			}
		}
		g.Return(jen.Id("ve").Dot("Err").Call())
	})
}

// questionDecls declares what a question (//mcpgen:question) adds: its
// message and, for a URL-mode question, its registration.
func questionDecls(f *jen.File, s *annotate.Struct) {
	if s.Message != "" {
		doc(f, "%s returns the message of the %s question (//mcpgen:message), which runtime.Ask "+
			"shows when the ask gives none.", annotate.MethodElicitMessage, s.Name)
		f.Func().Params(jen.Op("*").Id(s.Name)).Id(annotate.MethodElicitMessage).Params().String().Block(jen.Return(jen.Lit(s.Message)))
	}
	if s.URLMode {
		urlQuestionInit(f, s)
	}
}

// handlerDecls declares a tool's handler interface (its branches) and its
// flow constructor.
func handlerDecls(f *jen.File, s *annotate.Struct) {
	h := s.Names.Interface
	accept := jen.Id(annotate.MethodAccept).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(s.Name)).Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error())
	if s.AcceptOnly {
		// No elicitable field: no form before the branch, so nothing to
		// decline or cancel (MCP 2026-07-28, client/elicitation:
		// ElicitResult.action answers a form).
		doc(f, "%s runs the %s tool. %s has no elicitable field, so nothing is asked "+
			"before the branch and Accept is the only one: there is no form to decline or cancel. A "+
			"question Accept asks with runtime.Ask returns the user's action to Accept itself. mcpgen "+
			"writes an implementation once, in %s; a handler that no longer fits this "+
			"interface fails to compile.", h, s.Tool, s.Name, s.Names.HandlerFile)
		f.Type().Id(h).Interface(
			jen.Comment("Accept runs on every call, with the arguments as the model passed them."),
			accept,
		)
		acceptOnlyFlow(f, s, h)
		return
	}
	doc(f, "%s runs the branches of the %s tool after its elicitation (MCP 2026-07-28, "+
		"client/elicitation: ElicitResult.action). Exactly one method runs per call. mcpgen writes an "+
		"implementation once, in %s; a handler that no longer fits this interface fails to compile.", h, s.Tool, s.Names.HandlerFile)
	f.Comment("")
	doc(f, "A handler may also shape the form at run time (its message, typed echoes, defaults) with "+
		"FormOptions(ctx context.Context, args *%s) (*runtime.AskOptions, error), called on every "+
		"request of the call before anything is asked.", s.Name)
	f.Comment("")
	doc(f, "A handler may also answer a call whose form its client cannot be asked (it declared no form "+
		"elicitation) with Unaskable(ctx context.Context, args *%s, missing []string, why string) "+
		"(*runtime.Result, error); without it the call ends in runtime.DefaultUnaskable's tool error.", s.Name)
	f.Type().Id(h).Interface(
		jen.Comment("Accept runs when every required field holds a valid answer, from the arguments or the form."),
		accept,
		jen.Comment("Decline runs when the user declined the form; declined lists the JSON names of the fields"),
		jen.Comment("asked in that round. Nothing more is asked."),
		jen.Id(annotate.MethodDecline).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(s.Name), jen.Id("declined").Index().String()).Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error()),
		jen.Comment("Cancel runs when the user dismissed the form. Stop cleanly; nothing more is asked."),
		jen.Id(annotate.MethodCancel).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(s.Name)).Params(jen.Op("*").Qual(runtimePkg, "Result"), jen.Error()),
		jen.Do(func(st *jen.Statement) {
			for _, fd := range s.Fields {
				if !fd.Choices {
					continue
				}
				st.Line().Commentf("%s lists the options of %s (elicit:\"choices\") for this call: an argument or", fd.ChoicesMethod, fd.JSONName)
				st.Line().Comment("answer counts only if it is one of them. It runs on every request of the call.")
				st.Line().Id(fd.ChoicesMethod).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Op("*").Id(s.Name)).Params(jen.Index().Qual(runtimePkg, "Choice"), jen.Error())
			}
		}),
	)
	ctor := s.Names.FlowFunc
	doc(f, "%s returns the elicitation flow of the %s tool, whose arguments are %s, running h's "+
		"branches. Register it with an adapter (runtime/mcpsdk, runtime/mcpgo).", ctor, s.Tool, s.Name)
	flowFunc(f, s, h)
}

// acceptOnlyFlow declares the flow constructor of a tool without an
// elicitable field (annotate.Struct.AcceptOnly): its dispatcher has Accept
// only, since the runtime never dispatches another branch for a flow whose
// Fields are empty (impl.Definition.Dispatch).
func acceptOnlyFlow(f *jen.File, s *annotate.Struct, h string) {
	ctor := s.Names.FlowFunc
	doc(f, "%s returns the flow of the %s tool, whose arguments are %s, running h's Accept. "+
		"Register it with an adapter (runtime/mcpsdk, runtime/mcpgo).", ctor, s.Tool, s.Name)
	flowFunc(f, s, h)
}

// multiBuf is the backing array that the multi selects of one element type
// share in _mcpgenApply (impl.AppendStrings).
type multiBuf struct {
	name string           // the local variable
	elem annotate.TypeRef // the element type
	keys []string         // the JSON names of the multi selects that share it
	// bound is the most items its multi selects hold in a valid answer
	// (the sum of their maxItems); 0 when one of them has no maxItems.
	bound uint64
	// array, when set, names the fixed array in blk that backs it, and
	// ensure is the statement that points the buffer at it.
	array  string
	ensure jen.Code
}

// maxBlockItems bounds the items of the arrays _mcpgenApply keeps in its one
// allocation: beyond it, a multi select's own allocation is cheaper than a
// larger block that most answers fill little of.
const maxBlockItems = 64

// bounded reports whether every multi select has a maxItems, in all at most
// maxBlockItems: their backing arrays can then live in _mcpgenApply's one
// allocation.
func (m multiBufs) bounded() bool {
	var total uint64
	for _, b := range m.list {
		if b.bound == 0 {
			return false
		}
		total += b.bound
	}
	return len(m.list) > 0 && total <= maxBlockItems
}

type multiBufs struct {
	list []*multiBuf
	of   map[*annotate.Field]*multiBuf
}

// multiSelectBufs groups the multi selects of s by element type.
func multiSelectBufs(s *annotate.Struct) multiBufs {
	bufs := multiBufs{of: map[*annotate.Field]*multiBuf{}}
	byType := map[annotate.TypeRef]*multiBuf{}
	for _, fd := range s.Fields {
		if fd.Kind != annotate.MultiSelect {
			continue
		}
		b := byType[fd.Type]
		if b == nil {
			b = &multiBuf{name: "strs" + strconv.Itoa(len(bufs.list)), elem: fd.Type}
			byType[fd.Type] = b
			bufs.list = append(bufs.list, b)
		}
		if b.keys == nil || b.bound > 0 {
			if fd.MaxItems != nil && *fd.MaxItems <= maxBlockItems {
				b.bound += *fd.MaxItems
			} else {
				b.bound = 0
			}
		}
		b.keys = append(b.keys, fd.JSONName)
		bufs.of[fd] = b
	}
	return bufs
}

func stageVar(i int) string { return "v" + strconv.Itoa(i) }
func setVar(i int) string   { return "set" + strconv.Itoa(i) }

// access is the selector t.A.B for the field.
func access(fd *annotate.Field) *jen.Statement { return pathAccess(fd.Path) }

// pathAccess is the selector t.A.B for a field's path from the struct.
func pathAccess(path []string) *jen.Statement {
	s := jen.Id("t")
	for _, p := range path {
		s = s.Dot(p)
	}
	return s
}

func missingCond(fd *annotate.Field) *jen.Statement {
	switch {
	case fd.Pointer:
		return access(fd).Op("==").Nil()
	case fd.Slice:
		return jen.Len(access(fd)).Op("==").Lit(0)
	case fd.Kind == annotate.DateTime:
		return access(fd).Dot("IsZero").Call()
	case fd.Kind == annotate.String:
		return access(fd).Op("==").Lit("")
	case fd.Kind == annotate.Boolean:
		return jen.Op("!").Add(access(fd))
	}
	return access(fd).Op("==").Lit(0)
}

func presentCond(fd *annotate.Field) *jen.Statement {
	switch {
	case fd.Pointer:
		return access(fd).Op("!=").Nil()
	case fd.Slice:
		return jen.Len(access(fd)).Op(">").Lit(0)
	case fd.Kind == annotate.DateTime:
		return jen.Op("!").Add(access(fd)).Dot("IsZero").Call()
	case fd.Kind == annotate.String:
		return access(fd).Op("!=").Lit("")
	case fd.Kind == annotate.Boolean:
		return access(fd)
	}
	return access(fd).Op("!=").Lit(0)
}

func typeCode(t annotate.TypeRef) *jen.Statement {
	if t.Path == "" {
		return jen.Id(t.Name)
	}
	return jen.Qual(t.Path, t.Name)
}

// stageType is the Go type of the staging variable: the field's type without
// the pointer.
func stageType(fd *annotate.Field) *jen.Statement {
	if fd.Slice {
		return jen.Index().Add(typeCode(fd.Type))
	}
	return typeCode(fd.Type)
}

// canonicalValue converts the field's value (dereferenced) to the type its
// check function takes: string, int64, uint64, float64, or the slice itself.
func canonicalValue(fd *annotate.Field) *jen.Statement {
	v := access(fd)
	if fd.Pointer {
		v = jen.Op("*").Add(v)
	}
	return canonicalOf(fd, v)
}

func canonicalOf(fd *annotate.Field, v *jen.Statement) *jen.Statement {
	switch fd.Kind {
	case annotate.String:
		if fd.Type.Path == "" && fd.Type.Name == "string" {
			return v
		}
		return jen.String().Parens(v)
	case annotate.Integer:
		if fd.Unsigned {
			return jen.Uint64().Parens(v)
		}
		return jen.Int64().Parens(v)
	case annotate.Number:
		return jen.Float64().Parens(v)
	}
	return v
}

func checkParamType(fd *annotate.Field) *jen.Statement {
	switch fd.Kind {
	case annotate.String:
		return jen.String()
	case annotate.Integer:
		if fd.Unsigned {
			return jen.Uint64()
		}
		return jen.Int64()
	case annotate.Number:
		return jen.Float64()
	case annotate.MultiSelect:
		return stageType(fd)
	}
	return jen.Bool()
}

func addErr(fd *annotate.Field, keyword, msg string) *jen.Statement {
	return fieldError("ve", fd.JSONName, keyword, msg)
}

func addErrP(fd *annotate.Field, keyword, msg string) *jen.Statement {
	return fieldError("&ve", fd.JSONName, keyword, msg)
}

// errIndent is how deep generated code reports a field error, at most: in
// the nested ifs of _mcpgenApply.
const errIndent = 5

// fieldError is impl.AddFieldError(ve, "name", "keyword", "message"), ve
// "ve" (the **runtime.ValidationError of a check function) or "&ve", the message moved to a line of
// its own when the call would be too wide.
func fieldError(ve, name, keyword, msg string) *jen.Statement {
	target := jen.Id("ve")
	if ve == "&ve" {
		target = jen.Op("&").Id("ve")
	}
	args := []jen.Code{target, jen.Lit(name), jen.Lit(keyword), jen.Lit(msg)}
	text := fmt.Sprintf("impl.AddFieldError(%s, %q, %q, %q)", ve, name, keyword, msg)
	return jen.Qual(implPkg, "AddFieldError").Call(wrapLast(errIndent, text, args)...)
}

func enumList(fd *annotate.Field) string {
	var vals []string
	for _, e := range fd.Enum {
		vals = append(vals, e.Value)
	}
	return strings.Join(vals, ", ")
}

// checkLocals are the names checkFuncDecl declares in a check function: a
// user's constant or type of the same name cannot be named inside it.
var checkLocals = []string{"v", "ve", "ok", "item"}

// checkFuncDecl declares the rule checks of one field, shared by Validate and
// ApplyContent. It reports into *ve and returns whether the value passed.
func checkFuncDecl(f *jen.File, s *annotate.Struct, fd *annotate.Field) {
	name := fd.Check
	doc(f, "%s checks the rules of %s (JSON %q).", name, strings.Join(fd.Path, "."), fd.JSONName)
	f.Func().Id(name).Params(jen.Id("v").Add(checkParamType(fd)), jen.Id("ve").Op("**").Qual(runtimePkg, "ValidationError")).Bool().BlockFunc(func(g *jen.Group) {
		g.Id("ok").Op(":=").True()
		fail := func(keyword, msg string) *jen.Statement {
			return jen.Block(addErr(fd, keyword, msg), jen.Id("ok").Op("=").False())
		}
		switch fd.Kind {
		case annotate.String:
			for _, c := range stringRules(jen.Id("v"), fd.MinLength, fd.MaxLength, fd.Format, fieldEnum(fd, jen.Id("v")), func(keyword, msg string) []jen.Code {
				return []jen.Code{addErr(fd, keyword, msg), jen.Id("ok").Op("=").False()}
			}) {
				g.Add(c)
			}
		case annotate.Integer, annotate.Number:
			if fd.LowerBound {
				g.If(jen.Id("v").Op("<").Add(boundLit(fd, *fd.Minimum, fd.MinimumLit))).Add(fail("minimum", "must be at least "+fd.MinimumLit))
			}
			if fd.UpperBound {
				g.If(jen.Id("v").Op(">").Add(boundLit(fd, *fd.Maximum, fd.MaximumLit))).Add(fail("maximum", "must be at most "+fd.MaximumLit))
			}
		case annotate.MultiSelect:
			if fd.MinItems != nil && *fd.MinItems > 0 {
				g.If(jen.Len(jen.Id("v")).Op("<").Lit(int(*fd.MinItems))).Add(fail("minItems", "must have at least "+count(*fd.MinItems, "item")))
			}
			if fd.MaxItems != nil {
				g.If(jen.Len(jen.Id("v")).Op(">").Lit(int(*fd.MaxItems))).Add(fail("maxItems", "must have at most "+count(*fd.MaxItems, "item")))
			}
			if len(fd.Enum) == 0 {
				break // options known at run time (choices): the runtime checks them
			}
			enum := fieldEnum(fd, jen.Id("item"))
			g.For(jen.List(jen.Id("_"), jen.Id("item")).Op(":=").Range().Id("v")).Block(
				jen.Switch(enum.subject).Block(
					jen.Case(enum.cases...),
					jen.Default().Block(addErr(fd, "enum", "items must be among: "+enumList(fd)), jen.Return(jen.False())),
				),
			)
		}
		g.Return(jen.Id("ok"))
	})
}

// enumRule is an enum check (JSON Schema 2020-12 Validation §6.1.2): the
// value switched on, the cases that pass it, and the choices as an error
// message lists them. An empty enumRule checks nothing.
type enumRule struct {
	subject *jen.Statement
	cases   []jen.Code
	list    string
}

// fieldEnum is the enum check of field fd on v, a string (or, for a multi
// select, an item of the field's element type). When the choices are the
// typed constants of the field's type (annotate.EnumItem.Const), the cases
// name them, with v converted to that type: the check follows a constant's
// changed value, and a renamed or removed constant fails to compile.
// Otherwise the cases are the values, and so too when a constant or the
// type is named like a local of the check function (checkLocals), which
// would hide it.
func fieldEnum(fd *annotate.Field, v *jen.Statement) enumRule {
	if len(fd.Enum) == 0 {
		return enumRule{}
	}
	r := enumRule{subject: v, list: enumList(fd)}
	shadowed := slices.Contains(checkLocals, fd.Type.Name)
	for _, e := range fd.Enum {
		if e.Const.Name == "" || shadowed || slices.Contains(checkLocals, e.Const.Name) {
			if fd.Slice && !(fd.Type.Path == "" && fd.Type.Name == "string") {
				r.subject = jen.String().Parens(v)
			}
			r.cases = enumLits(fd)
			return r
		}
		r.cases = append(r.cases, jen.Qual(e.Const.Path, e.Const.Name))
	}
	if !fd.Slice {
		r.subject = typeCode(fd.Type).Parens(v) // v is the check's string
	}
	return r
}

// valueEnum is the enum check of a plain argument's string v against values.
func valueEnum(v *jen.Statement, values []string) enumRule {
	if len(values) == 0 {
		return enumRule{}
	}
	r := enumRule{subject: v, list: strings.Join(values, ", ")}
	for _, e := range values {
		r.cases = append(r.cases, jen.Lit(e))
	}
	return r
}

func enumLits(fd *annotate.Field) []jen.Code {
	var out []jen.Code
	for _, e := range fd.Enum {
		out = append(out, jen.Lit(e.Value))
	}
	return out
}

// boundLit is a bound as a literal of the check's parameter type: for
// integers parsed exactly from the bound as written (annotate keeps integer
// bounds in plain digits), for numbers the float64.
func boundLit(fd *annotate.Field, x float64, lit string) jen.Code {
	if fd.Kind == annotate.Integer {
		if fd.Unsigned {
			u, _ := strconv.ParseUint(lit, 10, 64)
			return jen.Lit(u)
		}
		i, _ := strconv.ParseInt(lit, 10, 64)
		return jen.Lit(i)
	}
	return jen.Lit(x)
}

func formatFunc(format string) string {
	switch format {
	case "email":
		return "IsEmail"
	case "uri":
		return "IsURI"
	case "date":
		return "IsDate"
	}
	return "IsDateTime"
}

func formatMsg(format string) string {
	switch format {
	case "email":
		return "must be an email address"
	case "uri":
		return "must be an absolute URI (RFC 3986), e.g. https://example.com/"
	case "date":
		return "must be a date as YYYY-MM-DD (RFC 3339 full-date)"
	}
	return "must be a date-time as RFC 3339, e.g. 2026-07-28T09:30:00Z"
}

func storedCheckDecl(f *jen.File, s *annotate.Struct, fd *annotate.Field) {
	name := fd.CheckStored
	doc(f, "%s checks the bounds of %s (JSON %q) on the stored float32, against the bounds rounded to float32.", name, strings.Join(fd.Path, "."), fd.JSONName)
	f.Func().Id(name).Params(jen.Id("v").Float32(), jen.Id("ve").Op("**").Qual(runtimePkg, "ValidationError")).Bool().BlockFunc(func(g *jen.Group) {
		g.Id("ok").Op(":=").True()
		fail := func(keyword, msg string) *jen.Statement {
			return jen.Block(addErr(fd, keyword, msg), jen.Id("ok").Op("=").False())
		}
		if fd.LowerBound {
			g.If(jen.Id("v").Op("<").Lit(float32(*fd.Minimum))).Add(fail("minimum", "must be at least "+fd.MinimumLit))
		}
		if fd.UpperBound {
			g.If(jen.Id("v").Op(">").Lit(float32(*fd.Maximum))).Add(fail("maximum", "must be at most "+fd.MaximumLit))
		}
		g.Return(jen.Id("ok"))
	})
}

// count writes n and noun, plural unless n is 1: "1 character", "2 items".
func count[N ~int | ~int64 | ~uint64](n N, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// stringRules writes the checks of a string value v against the rules a
// field's tag gives it (JSON Schema 2020-12 Validation §6.3 for the lengths,
// §7.3 for the format, §6.1.2 for enum), shared by elicitable fields and
// plain arguments; fail writes what a broken rule does. Lengths count code
// points, but the byte length settles them without counting in the common
// case (impl.MoreRunesThan).
func stringRules(v *jen.Statement, minLength, maxLength *uint64, format string, enum enumRule, fail func(keyword, msg string) []jen.Code) []jen.Code {
	var out []jen.Code
	if minLength != nil && *minLength > 0 {
		out = append(out, jen.If(jen.Qual(implPkg, "FewerRunesThan").Call(v.Clone(), jen.Lit(int(*minLength)))).Block(fail("minLength", "must be at least "+count(*minLength, "character"))...))
	}
	if maxLength != nil {
		out = append(out, jen.If(jen.Qual(implPkg, "MoreRunesThan").Call(v.Clone(), jen.Lit(int(*maxLength)))).Block(fail("maxLength", "must be at most "+count(*maxLength, "character"))...))
	}
	if format != "" {
		out = append(out, jen.If(jen.Op("!").Qual(implPkg, formatFunc(format)).Call(v.Clone())).Block(fail("format", formatMsg(format))...))
	}
	if len(enum.cases) > 0 {
		out = append(out, jen.Switch(enum.subject).Block(
			jen.Case(enum.cases...),
			jen.Default().Block(fail("enum", "must be one of: "+enum.list)...),
		))
	}
	return out
}
