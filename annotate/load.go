package annotate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Config says what to load.
type Config struct {
	Dir       string   // working directory for the go command ("" = current)
	Patterns  []string // package patterns (default ".")
	Types     []string // struct type names to generate for; empty: every struct with an elicit tag or a //mcpgen:tool or //mcpgen:question directive
	BuildTags []string // build tags (-tags)
	// LegacyEnumNames makes every struct's titled single selects use the
	// deprecated enum + enumNames form (mcpgen -legacy-enum-names), as the
	// //mcpgen:enumnames directive does for one struct.
	LegacyEnumNames bool
}

// Load loads the packages and returns the model of every annotated struct,
// and every diagnostic found (all of them, sorted by position). When any
// diagnostic is returned, the model must not be used for generation.
func Load(cfg Config) ([]*Package, []Diagnostic) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	own := &ownFiles{files: map[string]*ownFile{}}
	pkgs, err := packages.Load(packagesConfig(cfg, own), patterns...)
	if err != nil {
		return nil, []Diagnostic{{Message: "loading packages: " + err.Error()}}
	}
	var diags []Diagnostic
	var out []*Package
	wanted := map[string]bool{}
	for _, t := range cfg.Types {
		wanted[t] = true
	}
	found := map[string]bool{}
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 && len(p.Errors) > 0 {
			for _, e := range p.Errors {
				diags = append(diags, packageErrorDiag(e))
			}
			continue
		}
		if p.Types == nil || p.TypesInfo == nil {
			continue
		}
		a := &analyzer{fset: p.Fset, types: p.Types, files: p.Syntax, info: p.TypesInfo}
		model := a.run(wanted, found)
		diags = append(diags, a.diags...)
		names := a.generatedNames()
		model.Stale = own.judge(p, names)
		model.Stale = append(model.Stale, emptiedStubs(p)...)
		renames, explained := a.orphanHandlers(model)
		diags = append(diags, renames...)
		for _, d := range untoleratedErrors(p, names) {
			if !explained[d.Pos.Filename] {
				diags = append(diags, d)
			}
		}
		diags = append(diags, model.tagConflicts(cfg.BuildTags)...)
		if cfg.LegacyEnumNames {
			for _, s := range model.Structs {
				s.LegacyEnumNames = true
			}
		}
		model.load = &loaded{pkg: p, own: own, cfg: cfg, later: names.without(model.Structs)}
		if len(model.Structs) > 0 || len(model.Stale) > 0 {
			out = append(out, model)
		}
	}
	for _, t := range cfg.Types {
		if !found[t] {
			diags = append(diags, Diagnostic{Message: fmt.Sprintf("-type %s: no type %s in %s; name a struct type declared there", t, t, strings.Join(patterns, " "))})
		}
	}
	sortDiags(diags)
	return out, dedupDiags(diags)
}

// Check checks one type-checked package, however it was loaded: go/packages
// (as [Load] does) and go/analysis (as the mcpgen-vet analyzer does) both
// provide the file set, the package, its parsed files (with comments) and
// its type information (Defs at least). typeNames, like -type, restricts the
// check to those struct types and reports each that is not a struct; empty,
// it checks every struct with an elicit tag or a //mcpgen:tool or
// //mcpgen:question directive. It returns the model of the
// annotated structs and every diagnostic, sorted by position; the model must
// not be used for generation when there is any diagnostic. A name in
// typeNames that the package does not declare is not reported here (a
// command may load several packages and the type may be in another); it is
// simply absent from the model.
func Check(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info, typeNames []string) (*Package, []Diagnostic) {
	wanted, found := map[string]bool{}, map[string]bool{}
	for _, t := range typeNames {
		wanted[t] = true
	}
	a := &analyzer{fset: fset, types: pkg, files: files, info: info}
	model := a.run(wanted, found)
	sortDiags(a.diags)
	// A struct embedded in another argument struct is walked for each: its
	// fields' diagnostics come once per walk.
	return model, dedupDiags(a.diags)
}

// PackagesConfig returns the golang.org/x/tools/go/packages configuration
// Load uses for cfg (mode, directory, build tags, and a parser that reads
// mcpgen's own output as empty), so that a benchmark can time the same
// packages.Load alone: the floor of a generation.
func PackagesConfig(cfg Config) *packages.Config {
	return packagesConfig(cfg, &ownFiles{files: map[string]*ownFile{}})
}

func packagesConfig(cfg Config, own *ownFiles) *packages.Config {
	pcfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Dir:       cfg.Dir,
		ParseFile: own.parse,
	}
	if len(cfg.BuildTags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.BuildTags, ",")}
	}
	return pcfg
}

// ownFile is what one of mcpgen's own generated files declares.
type ownFile struct {
	top   []string            // package-level names other than methods
	recvs map[string][]string // receiver type name → its method names
}

// ownFiles records the declarations of mcpgen's own output as the loader
// parses it (go/packages calls ParseFile concurrently).
type ownFiles struct {
	mu    sync.Mutex
	files map[string]*ownFile // by file name as given to ParseFile
}

// parse parses a file, reading mcpgen's own earlier output as an empty file
// of the same package, and recording what that output declares.
func (o *ownFiles) parse(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	if IsGenerated(src) {
		f, err := parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
		if err == nil {
			decls := ownDecls(src)
			o.mu.Lock()
			o.files[filename] = decls
			o.mu.Unlock()
			return f, nil
		}
	}
	return parser.ParseFile(fset, filename, src, parser.ParseComments)
}

// ownDecls lists the declarations of a generated file (of a file set of its
// own: the positions are not needed). A file that no longer parses yields
// what was parsed.
func ownDecls(src []byte) *ownFile {
	of := &ownFile{recvs: map[string][]string{}}
	f, _ := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if f == nil {
		return of
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				of.top = append(of.top, d.Name.Name)
				continue
			}
			if r := recvTypeName(d.Recv.List[0].Type); r != "" {
				of.recvs[r] = append(of.recvs[r], d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					of.top = append(of.top, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						of.top = append(of.top, n.Name)
					}
				}
			}
		}
	}
	return of
}

// recvTypeName returns T of a receiver T, *T, T[P] or *T[P].
func recvTypeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvTypeName(t.X)
	case *ast.ParenExpr:
		return recvTypeName(t.X)
	case *ast.IndexExpr:
		return recvTypeName(t.X)
	case *ast.IndexListExpr:
		return recvTypeName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// judge sorts the generated files of package p: the declarations of a file
// whose methods are on types the package still declares (or that has no
// methods) are added to names, to be tolerated while the file is read as
// empty; a file whose methods are all on types the package no longer
// declares is stale and returned. Handler files are the user's and never stale.
func (o *ownFiles) judge(p *packages.Package, names generatedNames) []StaleFile {
	var stale []StaleFile
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, name := range p.GoFiles {
		of := o.files[name]
		if of == nil {
			continue
		}
		var gone []string
		for r := range of.recvs {
			if p.Types.Scope().Lookup(r) == nil {
				gone = append(gone, r)
			}
		}
		if len(of.recvs) > 0 && len(gone) == len(of.recvs) && !strings.HasSuffix(name, "_handler.go") {
			sort.Strings(gone)
			stale = append(stale, StaleFile{Path: name, Types: gone})
			continue
		}
		for _, n := range of.top {
			names.top[n] = true
		}
		for r, ms := range of.recvs {
			for _, m := range ms {
				names.method(r, m)
			}
		}
	}
	sort.Slice(stale, func(i, j int) bool { return stale[i].Path < stale[j].Path })
	return stale
}

var posPrefix = regexp.MustCompile(`^(.*?):(\d+):(\d+)$`)

func packageErrorDiag(e packages.Error) Diagnostic {
	d := Diagnostic{Message: e.Msg}
	if m := posPrefix.FindStringSubmatch(e.Pos); m != nil {
		var line, col int
		fmt.Sscan(m[2], &line)
		fmt.Sscan(m[3], &col)
		d.Pos = token.Position{Filename: m[1], Line: line, Column: col}
	} else if e.Pos != "" && e.Pos != "-" {
		d.Pos = token.Position{Filename: e.Pos}
	}
	return d
}

var (
	undefinedRE = regexp.MustCompile(`^undefined: (\w+)$`)
	notImplRE   = regexp.MustCompile(`\*?(\w+) does not implement \S+ \(missing method (\w+)\)$`)
	noMethodRE  = regexp.MustCompile(`\(type \*?(\w+) has no field or method (\w+)\)$`)
)

// untoleratedErrors returns the package's errors, except type errors that
// come from identifiers mcpgen generates (user code calling generated code
// before it is generated, or while mcpgen reads its own output as empty).
// Like the compiler, a package with syntax errors reports only those, one
// per file: its type errors are mostly their consequences.
func untoleratedErrors(p *packages.Package, gen generatedNames) []Diagnostic {
	var out []Diagnostic
	syntax := false
	for _, e := range p.Errors {
		syntax = syntax || e.Kind == packages.ParseError
	}
	parseErrs := map[string]bool{} // files whose first syntax error is reported
	for _, e := range p.Errors {
		if e.Kind == packages.ParseError {
			// Only the first syntax error of a file: the rest usually
			// follow from it.
			d := packageErrorDiag(e)
			if parseErrs[d.Pos.Filename] {
				continue
			}
			parseErrs[d.Pos.Filename] = true
		}
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n") {
			// The go command compiled the package for export data and
			// failed; the package is type-checked from source (skipping
			// mcpgen's own stale output), and those errors are judged below.
			continue
		}
		if e.Kind == packages.TypeError {
			if syntax {
				continue
			}
			if gen.explains(e.Msg) {
				continue
			}
		}
		out = append(out, packageErrorDiag(e))
	}
	return out
}

// generatedNames is what mcpgen's output declares in a package.
type generatedNames struct {
	top     map[string]bool            // package-level names
	methods map[string]map[string]bool // receiver type name → method names
}

// explains reports whether a type error comes from an identifier in g:
// undefined, a method missing from a struct, or a struct that does not yet
// implement an interface for want of a generated method (a question passed
// to runtime.Ask before its methods are generated).
func (g generatedNames) explains(msg string) bool {
	if m := undefinedRE.FindStringSubmatch(msg); m != nil && g.top[m[1]] {
		return true
	}
	if m := noMethodRE.FindStringSubmatch(msg); m != nil && g.methods[m[1]][m[2]] {
		return true
	}
	if m := notImplRE.FindStringSubmatch(msg); m != nil && g.methods[m[1]][m[2]] {
		return true
	}
	return false
}

func (g generatedNames) method(recv, name string) {
	if g.methods[recv] == nil {
		g.methods[recv] = map[string]bool{}
	}
	g.methods[recv][name] = true
}

// generatedNames lists what the generated files (and the handler file written
// once) declare for every struct mcpgen generates for in the package, whatever
// -type this run has: the other structs' output is read as empty too.
func (a *analyzer) generatedNames() generatedNames {
	g := generatedNames{top: map[string]bool{}, methods: map[string]map[string]bool{}}
	for _, name := range a.taggedNames {
		for _, n := range GeneratedIdents(name) {
			g.top[n] = true
		}
		for _, m := range append(GeneratedMethods(), MethodElicitMessage, MethodDecodeArguments) {
			g.method(name, m)
		}
	}
	return g
}

// emptiedStubs returns the stale files an earlier run emptied (see
// [StaleStubNote]): the build ignores them, so removing them never disturbs
// a running go generate.
func emptiedStubs(p *packages.Package) []StaleFile {
	var out []StaleFile
	for _, name := range p.IgnoredFiles {
		b, err := os.ReadFile(name)
		if err == nil && IsGenerated(b) && bytes.Contains(b, []byte("// "+StaleStubNote)) {
			out = append(out, StaleFile{Path: name})
		}
	}
	return out
}

// without returns the names of g that the structs' generated code does not
// declare.
func (g generatedNames) without(structs []*Struct) generatedNames {
	out := generatedNames{top: map[string]bool{}, methods: map[string]map[string]bool{}}
	for n := range g.top {
		out.top[n] = true
	}
	for r, ms := range g.methods {
		for m := range ms {
			out.method(r, m)
		}
	}
	for _, s := range structs {
		for _, id := range StructIdents(s) {
			if id.Kind == "method" {
				delete(out.methods[id.Recv], id.Name)
			} else {
				delete(out.top, id.Name)
			}
		}
	}
	return out
}
