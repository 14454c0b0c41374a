package annotate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/header"
)

// Config says what to load.
type Config struct {
	Dir       string   // working directory for the go command ("" = current)
	Patterns  []string // package patterns (default ".")
	Types     []string // struct type names to generate for; empty: every struct with an elicit tag or a //mcpgen:tool or //mcpgen:question directive
	BuildTags []string // build tags (-tags)
}

// Load loads the packages and returns the model of every annotated struct,
// and every diagnostic found (all of them, sorted by position). When any
// diagnostic is returned, the model must not be used for generation.
//
// mcpgen's own output is read as empty (it may be stale, or not compile),
// so the package's type errors here may come from code that calls what
// mcpgen generates: Load reports none of them (syntax and go command errors
// it does report). [TypeCheck] then checks the package with the files built
// from the model in place of mcpgen's own, and every error that remains is
// the user's: no error message is ever read.
func Load(cfg Config) ([]*Package, []Diagnostic) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	own := &ownFiles{files: map[string]*ownFile{}}
	pcfg := packagesConfig(cfg, own)
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, []Diagnostic{{Message: "loading packages: " + err.Error()}}
	}
	if len(pkgs) == 0 {
		return nil, []Diagnostic{noPackages(pcfg, patterns)}
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
		model.unresolved = a.unresolved
		model.Stale = own.judge(p)
		model.Stale = append(model.Stale, own.staleToolsFile(p, model)...)
		model.Stale = append(model.Stale, emptiedStubs(p)...)
		renames, _ := a.orphanHandlers(model)
		diags = append(diags, renames...)
		diags = append(diags, loadErrors(p)...)
		if len(wanted) > 0 {
			model.unrequested, model.unrequestedDiags = unrequested(p, wanted)
		}
		model.load = &loaded{pkg: p, own: own, cfg: cfg}
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
	model.unresolved = a.unresolved
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
	recvs map[string]bool // receiver type names
	types map[string]bool // type names the file declares itself
}

// ownFiles records the declarations of mcpgen's own output as the loader
// parses it (go/packages calls ParseFile concurrently).
type ownFiles struct {
	mu    sync.Mutex
	files map[string]*ownFile // by file name as given to ParseFile
}

// parse parses a file, reading mcpgen's own earlier output as an empty file
// of the same package, and recording the types that output has methods on
// (to tell a stale file, see judge).
func (o *ownFiles) parse(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	if header.IsGenerated(src) {
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

// ownDecls lists the receivers of a generated file's methods and the types
// it declares (of a file set of its own: the positions are not needed). A
// file that no longer parses yields what was parsed.
func ownDecls(src []byte) *ownFile {
	of := &ownFile{recvs: map[string]bool{}, types: map[string]bool{}}
	f, _ := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if f == nil {
		return of
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				if r := recvTypeName(d.Recv.List[0].Type); r != "" {
					of.recvs[r] = true
				}
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok {
					of.types[ts.Name.Name] = true
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

// judge returns the generated files of package p whose methods are all on
// types the package no longer declares: they are stale, to be removed.
// Handler files are the user's and never stale. A type the file declares
// itself is not in p (the file was read as empty) and never makes it stale.
// Nor is a file named as a struct's generated file (ElicitFileName) of
// any struct type p declares: that struct's run writes it (after a rename
// by letter case only, BArgs to Bargs, the path is the same). A
// generated t_elicit.go named for no struct type of p is stale whatever
// its receivers (a rename that edited it too).
func (o *ownFiles) judge(p *packages.Package) []StaleFile {
	outputs := structOutputs(p.Types)
	var stale []StaleFile
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, name := range p.GoFiles {
		of := o.files[name]
		if of == nil || strings.HasSuffix(name, "_handler.go") || outputs[filepath.Base(name)] {
			continue
		}
		var gone []string
		for r := range of.recvs {
			if p.Types.Scope().Lookup(r) == nil && !of.types[r] {
				gone = append(gone, r)
			}
		}
		sort.Strings(gone)
		switch {
		case len(of.recvs) > 0 && len(gone) == len(of.recvs):
			stale = append(stale, StaleFile{Path: name, Types: gone})
		case strings.HasSuffix(name, "_elicit.go"):
			stale = append(stale, StaleFile{Path: name, Unnamed: true})
		}
	}
	sort.Slice(stale, func(i, j int) bool { return stale[i].Path < stale[j].Path })
	return stale
}

// structOutputs returns the generated file name of every struct type
// declared at the package level of pkg, annotated or not (-type may name
// any struct).
func structOutputs(pkg *types.Package) map[string]bool {
	out := map[string]bool{}
	for _, n := range pkg.Scope().Names() {
		if tn, ok := pkg.Scope().Lookup(n).(*types.TypeName); ok && !tn.IsAlias() {
			if _, ok := tn.Type().Underlying().(*types.Struct); ok {
				out[ElicitFileName(n)] = true
			}
		}
	}
	return out
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

// noPackages says why patterns matched no package at all. The go command
// reports some failures of the whole module only on its standard error,
// exiting 0 with nothing listed (go list -e in a module whose go.mod lacks
// requirements its files import: "updates to go.mod needed"), which
// go/packages turns into an empty result; so go list runs again to quote
// it.
func noPackages(pcfg *packages.Config, patterns []string) Diagnostic {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, pcfg.BuildFlags...)
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Dir = pcfg.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // its error, if any, is on stderr too
	msg := fmt.Sprintf("loading packages: %s matched no package", strings.Join(patterns, " "))
	if why := strings.TrimSpace(stderr.String()); why != "" {
		msg += "; the go command says: " + why
	}
	return Diagnostic{Message: msg}
}

// loadErrors returns the errors of the first load that are not type errors:
// syntax errors (like the compiler, only the first of each file: the rest
// usually follow from it) and the go command's. Type errors are left to
// [TypeCheck], which checks the package with mcpgen's output in place.
func loadErrors(p *packages.Package) []Diagnostic {
	var out []Diagnostic
	parseErrs := map[string]bool{} // files whose first syntax error is reported
	for _, e := range p.Errors {
		switch e.Kind {
		case packages.TypeError:
			continue
		case packages.ParseError:
			d := packageErrorDiag(e)
			if parseErrs[d.Pos.Filename] {
				continue
			}
			parseErrs[d.Pos.Filename] = true
		case packages.ListError:
			if strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n") {
				// The go command compiled the package for export data and
				// failed: type errors, which TypeCheck judges.
				continue
			}
		}
		out = append(out, packageErrorDiag(e))
	}
	return out
}

// unrequested returns the model of the package's annotated structs that
// -type (wanted) leaves out, or nil when there are none or any has a
// diagnostic (returned then, sorted): the package is type-checked with
// their output too (built in memory, not written), so that code calling
// what another directive of the package generates compiles before that
// directive has run.
func unrequested(p *packages.Package, wanted map[string]bool) (*Package, []Diagnostic) {
	b := &analyzer{fset: p.Fset, types: p.Types, files: p.Syntax, info: p.TypesInfo}
	all := b.run(nil, map[string]bool{})
	if len(b.diags) > 0 {
		sortDiags(b.diags)
		return nil, dedupDiags(b.diags)
	}
	if len(b.unresolved) > 0 {
		return nil, nil
	}
	var structs []*Struct
	for _, s := range all.Structs {
		if !wanted[s.Name] {
			structs = append(structs, s)
		}
	}
	if len(structs) == 0 {
		return nil, nil
	}
	all.Structs = structs
	all.Tools = nil // the package's tools file is the requested structs' run's
	return all, nil
}

// emptiedStubs returns the stale files an earlier run emptied (see
// [header.StaleStubNote]): the build ignores them, so removing them never disturbs
// a running go generate.
func emptiedStubs(p *packages.Package) []StaleFile {
	var out []StaleFile
	for _, name := range p.IgnoredFiles {
		b, err := os.ReadFile(name)
		if err == nil && header.IsStaleStub(b) {
			out = append(out, StaleFile{Path: name})
		}
	}
	return out
}
