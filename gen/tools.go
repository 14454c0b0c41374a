package gen

import (
	"fmt"
	"path/filepath"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/internal/header"
	"github.com/mcpgen/mcpgen/internal/skeleton"
)

// toolsFile returns the package's tools file (annotate.ToolsFileName), and
// false for a package without tools (annotate.Package.Tools): Handlers,
// one field per tool named by its arguments struct, of its handler
// interface; and Flows, which returns every tool's flow in order of tool
// name, a nil field standing for the zero value of the tool's handler
// skeleton type (ToolEntry.Default, HandlerType), or, when the package has none, making
// Flows panic with the field and the tool named. The file depends on
// Package.Tools, name, path and taken names only, so
// that every run for any struct of the package writes the same bytes.
func toolsFile(pkg *annotate.Package) (File, bool, error) {
	if len(pkg.Tools) == 0 {
		return File{}, false, nil
	}
	src, err := renderFor(pkg, func(aliases map[string]string) *jen.File {
		f := newFile(pkg, aliases)
		f.HeaderComment(Header())
		toolsDecls(f, pkg.Name, pkg.Tools)
		return f
	})
	if err != nil {
		return File{}, false, fmt.Errorf("rendering %s: %w", annotate.ToolsFileName, err)
	}
	return File{Path: filepath.Join(pkg.Dir, annotate.ToolsFileName), Content: header.Seal(src)}, true, nil
}

// toolsDecls writes Handlers and Flows for tools of package pkg.
func toolsDecls(f *jen.File, pkg string, tools []annotate.ToolEntry) {
	const h, flows = annotate.ToolsHandlersType, annotate.ToolsFlowsFunc
	doc(f, "%s holds the handler of each tool of this package, one field per tool, named by its arguments struct. "+
		"%s(%s{}) serves every tool with its handler skeleton; set a field to serve its tool with another handler.", h, flows, h)
	f.Comment("")
	doc(f, "mcpgen writes this type and %s with every tool of the package: each struct with an elicit tag "+
		"or a tool directive, but for one whose file has a build constraint (register that one with its New<T>Flow). "+
		"A tool added to the package is served after the next go generate.", flows)
	var fields []jen.Code
	for i, t := range tools {
		if i > 0 {
			fields = append(fields, jen.Line())
		}
		nilIs := "Flows panics, since the package declares no " + t.HandlerType + " type"
		if t.Default {
			nilIs = defaultText(t)
		}
		for _, line := range skeleton.Fill(fmt.Sprintf("%s runs the %s tool (%s). Nil: %s.", t.Struct, t.Tool, t.FlowFunc, nilIs), docColumns-len("// ")-4) {
			fields = append(fields, jen.Comment(line))
		}
		fields = append(fields, jen.Id(t.Struct).Id(t.Interface))
	}
	f.Type().Id(h).Struct(fields...)
	f.Line()

	doc(f, "%s returns the flow of every tool of this package, in order of tool name, each run by its handler in h "+
		"(a nil field by the tool's handler skeleton, see %s), to register on a server in one call: "+
		"mcpsdk.AddTools(s, %s(%s{}), opts), or mcpgo.AddTools. For a server's own registration path, "+
		"mcpsdk.Tool and mcpgo.Tool turn each flow into a tool and its handler.", flows, h, flows, h)
	var body []jen.Code
	var list []jen.Code
	for _, t := range tools {
		field := jen.Id("h").Dot(t.Struct)
		if t.Default {
			def := jen.Id(t.HandlerType).Values()
			if t.DefaultPointer {
				def = jen.Op("&").Id(t.HandlerType).Values()
			}
			body = append(body, jen.If(jen.Id("h").Dot(t.Struct).Op("==").Nil()).Block(
				jen.Id("h").Dot(t.Struct).Op("=").Add(def)))
		} else {
			msg := fmt.Sprintf("%s.%s: %s.%s is nil: set it to the handler of the %s tool (the package declares no %s type to stand for it)",
				pkg, flows, h, t.Struct, t.Tool, t.HandlerType)
			body = append(body, jen.If(jen.Id("h").Dot(t.Struct).Op("==").Nil()).Block(
				jen.Panic(text(2, len("panic("), msg))))
		}
		list = append(list, jen.Id(t.FlowFunc).Call(field))
	}
	body = append(body, jen.Return(jen.Index().Op("*").Qual(runtimePkg, "Flow").Custom(
		jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, list...)))
	f.Func().Id(flows).Params(jen.Id("h").Id(h)).Index().Op("*").Qual(runtimePkg, "Flow").Block(body...)
}

// defaultText says what a nil Handlers field of tool t stands for.
func defaultText(t annotate.ToolEntry) string {
	if t.DefaultPointer {
		return "&" + t.HandlerType + "{}"
	}
	return t.HandlerType + "{}"
}

// staleWhat is what a stale file was generated for, as its emptied stub
// names it: the types gone, or the package's tools.
func staleWhat(st annotate.StaleFile) []string {
	if st.NoTools {
		return []string{"the package's tools, which are gone"}
	}
	return st.Types
}
