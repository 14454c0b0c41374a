package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The package's tools file: one per package with tools, generated whenever
// mcpgen runs for any struct of the package (a -type directive or ./...),
// always with the same bytes, since it is built from every tool of the
// package, not only the structs a run was asked for.
const (
	// ToolsFileName is the tools file's name, in the package's directory.
	ToolsFileName = "mcpgen_tools.go"
	// ToolsHandlersType is the struct type of the tools file that holds one
	// handler per tool.
	ToolsHandlersType = "Handlers"
	// ToolsFlowsFunc is the function of the tools file that returns every
	// tool's flow: Flows(h Handlers) []*runtime.Flow.
	ToolsFlowsFunc = "Flows"
)

// ToolEntry is one tool of the package's tools file ([ToolsFileName]): a
// field of Handlers and a flow of Flows. Package.Tools lists them in order of
// tool name.
type ToolEntry struct {
	Struct      string // the tool's arguments struct: the name of its Handlers field
	Tool        string // the tool's name
	Interface   string // the handler interface: the Handlers field's type
	FlowFunc    string // the flow constructor Flows calls
	HandlerType string // the type of the handler skeleton mcpgen writes once (Names.HandlerType)
	// Default: Flows puts the zero value of HandlerType in a nil field,
	// since the package declares it as a struct type with an Accept method,
	// or this run writes the handler file that declares it. False when the
	// package has no such type (a handler file of the struct without it): a
	// nil field then makes Flows panic.
	Default bool
	// DefaultPointer: the default handler is &HandlerType{}, since a
	// method of the type has a pointer receiver.
	DefaultPointer bool
}

// toolsNamed returns the struct names the package's tools file is made of
// when the package names its structs with -type: those of its
// //go:generate mcpgen directives, or, when it has none, those of this
// run's -type (wanted). Empty: the package's tools are its annotated
// structs. So every directive of a package, each naming some of its
// structs, writes one tools file with all of them, and a struct the
// directives leave out (one embedded in others, whose own flow no run
// generates) is not in it.
func (a *analyzer) toolsNamed(wanted map[string]bool) map[string]bool {
	named := map[string]bool{}
	for _, t := range GenerateTypes(a.files) {
		named[t.Name] = true
	}
	if len(named) == 0 {
		for t := range wanted {
			named[t] = true
		}
	}
	return named
}

// listTool adds to model.Tools the tool the type declared by ts (in gd, of
// file f) declares, if it is one of the package's tools (see toolsNamed and
// Package.Tools) and no earlier struct declared a tool of its name
// (listed).
func (a *analyzer) listTool(model *Package, f *ast.File, gd *ast.GenDecl, ts *ast.TypeSpec, annotated bool, named, listed map[string]bool) {
	if _, isStruct := ts.Type.(*ast.StructType); !isStruct || ts.TypeParams != nil {
		return
	}
	if len(named) > 0 && !named[ts.Name.Name] || len(named) == 0 && !annotated {
		return
	}
	tool, ok := toolNameOf(structDoc(gd, ts), ts.Name.Name)
	if !ok || listed[tool] {
		return
	}
	listed[tool] = true
	if e, ok := a.toolEntry(f, ts, tool); ok {
		model.Tools = append(model.Tools, e)
	}
}

// toolEntry returns the entry of the tools file for the tool named tool,
// whose arguments are the struct declared by ts in file f, and false for a
// struct whose file has a build constraint (its flow constructor exists
// only in the builds that constraint allows; the tools file, which has
// none, would not compile in the others): such a tool is registered with
// its New<T>Flow.
func (a *analyzer) toolEntry(f *ast.File, ts *ast.TypeSpec, tool string) (ToolEntry, bool) {
	file := a.fset.PositionFor(ts.Name.Pos(), false).Filename
	if buildConstraint(f, file) != "" {
		return ToolEntry{}, false
	}
	name := ts.Name.Name
	handler := HandlerTypeName(name)
	e := ToolEntry{Struct: name, Tool: tool, Interface: interfaceName(name), FlowFunc: flowFuncName(name), HandlerType: handler}
	obj := a.types.Scope().Lookup(handler)
	if obj == nil || !a.inUserFile(obj.Pos()) {
		// No such type yet: this run writes the handler file that declares
		// it, unless that file is there without it.
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), HandlerFileName(name))); err != nil {
			e.Default = true
		}
		return e, true
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return e, true
	}
	if _, isStruct := tn.Type().Underlying().(*types.Struct); !isStruct {
		return e, true
	}
	// &T{} when any method has a pointer receiver: its method set has
	// every method, T's lacks those.
	ptr := types.NewMethodSet(types.NewPointer(tn.Type()))
	if ptr.Lookup(a.types, MethodAccept) != nil {
		e.Default, e.DefaultPointer = true, types.NewMethodSet(tn.Type()).Len() < ptr.Len()
	}
	return e, true
}

// sortTools puts the package's tools in order of tool name: the order of
// Handlers' fields and of Flows' result.
func sortTools(tools []ToolEntry) {
	sort.Slice(tools, func(i, j int) bool { return tools[i].Tool < tools[j].Tool })
}

// collideTools reports a declaration of Handlers or Flows in the package's
// own files when the package has tools: the tools file declares both.
func (a *analyzer) collideTools(model *Package) {
	if len(model.Tools) == 0 {
		return
	}
	for _, name := range []string{ToolsHandlersType, ToolsFlowsFunc} {
		obj := a.types.Scope().Lookup(name)
		if obj == nil || !a.inUserFile(obj.Pos()) {
			continue
		}
		what := "type Handlers (one handler per tool of the package)"
		if name == ToolsFlowsFunc {
			what = "function Flows (every tool's flow)"
		}
		a.nameErrorf(obj, "%s %s collides with the generated %s in %s, which mcpgen writes for the package's tools; rename yours",
			ObjectKind(obj), name, what, ToolsFileName)
	}
}

// UnregisteredCategory is the category of the warning about a tool that no
// registration reaches (go/analysis Diagnostic.Category).
const UnregisteredCategory = "unregistered"

// unregistered warns, in a package main, about each tool of model whose
// flow no file of the package's own (neither mcpgen's output nor a test)
// reaches: none names its New<T>Flow, nor Flows when the tool is one of
// Flows'. Such a tool builds and is never served.
func (a *analyzer) unregistered(model *Package) {
	if a.types.Name() != "main" {
		return
	}
	used := map[string]bool{}
	for _, f := range a.files {
		name := a.fset.PositionFor(f.Package, false).Filename
		if isOwnOutput(f) || strings.HasSuffix(name, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(x.X, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						used[id.Name] = true
					}
					return true
				})
				return false // x.Sel names a member, not the package's Flows
			case *ast.Ident:
				used[x.Name] = true
			}
			return true
		})
	}
	inFlows := map[string]bool{}
	for _, e := range model.Tools {
		inFlows[e.Struct] = true
	}
	for _, s := range model.Structs {
		if s.Question || used[s.Names.FlowFunc] || inFlows[s.Name] && used[ToolsFlowsFunc] {
			continue
		}
		how := fmt.Sprintf("mcpgen init writes a main.go that registers them all; or register the package's tools with mcpsdk.AddTools(s, %s(%s{}), opts) (or mcpgo.AddTools), or this one with mcpsdk.AddTool(s, %s(%s{}), opts)",
			ToolsFlowsFunc, ToolsHandlersType, s.Names.FlowFunc, s.Names.HandlerType)
		if !inFlows[s.Name] {
			how = fmt.Sprintf("register it with mcpsdk.AddTool(s, %s(%s{}), opts) (or mcpgo.AddTool); %s leaves it out, "+
				"since its file has a build constraint or the package's //go:generate directives do not name it with -type",
				s.Names.FlowFunc, s.Names.HandlerType, ToolsFlowsFunc)
		}
		model.warnings = append(model.warnings, Diagnostic{Pos: s.Pos, End: toolsEnd(s.Pos, s.Name), Category: UnregisteredCategory,
			Message: fmt.Sprintf("tool %s is never registered: no file of package main calls %s or %s, so the server never lists it; %s",
				s.Tool, ToolsFlowsFunc, s.Names.FlowFunc, how)})
	}
}

// Warnings returns the warnings found while the package was modelled, by
// position: a tool that no registration reaches ([UnregisteredCategory]).
// They never stop generation.
func (p *Package) Warnings() []Diagnostic { return p.warnings }

// staleToolsFile returns the package's tools file, when mcpgen generated it
// and the package has no tool any more: it calls what no longer exists.
func (o *ownFiles) staleToolsFile(p *packages.Package, model *Package) []StaleFile {
	if len(model.Tools) > 0 {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, name := range p.GoFiles {
		if filepath.Base(name) == ToolsFileName && o.files[name] != nil {
			return []StaleFile{{Path: name, NoTools: true}}
		}
	}
	return nil
}

// toolsEnd is the position just past a name starting at pos.
func toolsEnd(pos token.Position, name string) token.Position {
	pos.Offset += len(name)
	pos.Column += len(name)
	return pos
}
