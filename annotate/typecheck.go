package annotate

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"golang.org/x/tools/go/gcexportdata"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loaded is what [Load] loaded for one package.
type loaded struct {
	pkg *packages.Package
	own *ownFiles
	cfg Config
	// later: the names Load tolerated that this run does not generate.
	later generatedNames
}

// TypeCheck type-checks pkg, as [Load] loaded it, with mcpgen's new output
// in place of its old: files maps each file path to its new content, or to
// nil for a file that is to be removed. The package's other files are the
// syntax Load already parsed (mcpgen's earlier output, which Load read as
// empty, is left out). Imports are served from the packages Load loaded;
// the ones only the new files import (on a first generation) are loaded with
// one more packages.Load, of their export data only. It returns every type
// error, each saying that the generated code is what fails: no file should
// then be written. A package not loaded by Load is not checked.
func TypeCheck(pkg *Package, files map[string][]byte) []Diagnostic {
	if pkg.load == nil {
		return nil
	}
	p := pkg.load.pkg
	var syntax []*ast.File
	replaced := map[string]bool{}
	for path := range files {
		replaced[filepath.Clean(path)] = true
	}
	var current []string // mcpgen's output this run keeps: other structs' (-type)
	pkg.load.own.mu.Lock()
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		if replaced[filepath.Clean(name)] {
			continue
		}
		if pkg.load.own.files[name] != nil {
			current = append(current, name)
			continue
		}
		syntax = append(syntax, f)
	}
	pkg.load.own.mu.Unlock()
	for _, name := range current {
		if f, err := parser.ParseFile(p.Fset, name, nil, parser.SkipObjectResolution); err == nil {
			syntax = append(syntax, f)
		}
	}
	generated := map[string]bool{}
	var paths []string
	for path, src := range files {
		if src != nil {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	var diags []Diagnostic
	for _, path := range paths {
		f, err := parser.ParseFile(p.Fset, path, files[path], parser.SkipObjectResolution)
		if err != nil {
			diags = append(diags, Diagnostic{Message: fmt.Sprintf("generated code does not parse: %v", err)})
			continue
		}
		generated[path] = true
		syntax = append(syntax, f)
	}
	if len(diags) > 0 {
		return diags
	}

	imp, err := newImporter(pkg.load, syntax)
	if err != nil {
		return []Diagnostic{{Message: "generated code: loading its imports: " + err.Error()}}
	}
	conf := types.Config{
		Importer: imp,
		Sizes:    p.TypesSizes,
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				diags = append(diags, Diagnostic{Message: "generated code does not compile: " + err.Error()})
				return
			}
			if pkg.load.tolerated(te.Msg) {
				return
			}
			pos := te.Fset.Position(te.Pos)
			if strings.HasPrefix(te.Msg, "\t") && len(diags) > 0 {
				// A continuation of the previous error ("other declaration of x").
				d := &diags[len(diags)-1]
				d.Message += " (" + strings.TrimSpace(te.Msg) + " at " + strings.TrimSuffix(Diagnostic{Pos: pos}.Format(filepath.Dir(d.Pos.Filename)), ": ") + ")"
				return
			}
			what := "generated code does not compile: "
			if !generated[pos.Filename] {
				what = "does not compile with the generated code: "
			}
			diags = append(diags, Diagnostic{Pos: pos, Message: what + te.Msg})
		},
	}
	if conf.Sizes == nil {
		conf.Sizes = types.SizesFor("gc", build.Default.GOARCH)
	}
	conf.Check(p.PkgPath, p.Fset, syntax, nil)
	sortDiags(diags)
	return dedupDiags(diags)
}

// loadedImporter serves the packages the first load already has, and loads the
// missing ones once, from export data.
type loadedImporter map[string]*types.Package

func (m loadedImporter) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p := m[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("package %s not loaded", path)
}

// newImporter collects the complete packages of the first load's import
// graph (go/packages' Imports, and each types.Package's Imports), and loads
// those that the files import and the graph lacks.
func newImporter(l *loaded, files []*ast.File) (loadedImporter, error) {
	m := loadedImporter{}
	var partial []*types.Package // incomplete: seen only through others' export data
	var addTypes func(t *types.Package)
	addTypes = func(t *types.Package) {
		if t == nil || m[t.Path()] != nil {
			return
		}
		if !t.Complete() {
			partial = append(partial, t)
			return
		}
		m[t.Path()] = t
		for _, i := range t.Imports() {
			addTypes(i)
		}
	}
	seen := map[*packages.Package]bool{}
	var addPkg func(p *packages.Package)
	addPkg = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if p != l.pkg {
			addTypes(p.Types)
		}
		for _, i := range p.Imports {
			addPkg(i)
		}
	}
	addPkg(l.pkg)
	var missing []string
	for _, f := range files {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || path == "unsafe" || path == "C" || m[path] != nil {
				continue
			}
			m[path] = nil
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return m, nil
	}
	// One load of the missing packages' export data: the generated files'
	// imports the user's package does not have yet (a first generation),
	// read into the same map so that the packages they share with the first
	// load (context, time, …) are the same types.Package.
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedExportFile,
		Dir:        l.cfg.Dir,
		BuildFlags: packagesConfig(l.cfg, nil).BuildFlags,
	}
	pkgs, err := packages.Load(cfg, missing...)
	if err != nil {
		return nil, err
	}
	view := map[string]*types.Package{}
	for path, t := range m {
		if t != nil {
			view[path] = t
		}
	}
	for _, p := range partial {
		if view[p.Path()] == nil {
			view[p.Path()] = p
		}
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			return nil, fmt.Errorf("%s: %s", p.PkgPath, e.Msg)
		}
		if err := readExport(l.pkg.Fset, view, p); err != nil {
			return nil, err
		}
		m[p.PkgPath] = view[p.PkgPath]
	}
	return m, nil
}

// readExport reads p's export data into view (gcexportdata reuses the
// packages view has, and completes the incomplete ones).
func readExport(fset *token.FileSet, view map[string]*types.Package, p *packages.Package) error {
	f, err := os.Open(p.ExportFile)
	if err != nil {
		return fmt.Errorf("%s: export data: %w", p.PkgPath, err)
	}
	defer f.Close()
	// go list -export gives an archive, which go/packages reads the same way.
	//lint:ignore SA1019 the replacement, Read alone, does not read archives
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: export data: %w", p.PkgPath, err)
	}
	t, err := gcexportdata.Read(r, fset, view, p.PkgPath)
	if err != nil {
		return fmt.Errorf("%s: export data: %w", p.PkgPath, err)
	}
	view[p.PkgPath] = t
	return nil
}

// tolerated reports whether a type error is one Load tolerates and this run
// cannot resolve: user code calling what mcpgen generates for a struct this
// run does not generate for (-type names another), before its first run.
func (l *loaded) tolerated(msg string) bool { return l.later.explains(msg) }
