package annotate

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// loaded is what [Load] loaded for one package.
type loaded struct {
	pkg *packages.Package
	own *ownFiles
	cfg Config
}

// TypeCheck type-checks pkg, as [Load] loaded it, with mcpgen's new output
// in place of its old: files maps each file path to its new content, or to
// nil for a file that is to be removed; mcpgen's output on disk that files
// does not name is read from disk (with no files at all: the package as it
// is, for a package whose output is current). The package's other files are
// the syntax Load already parsed. Imports are served from the packages Load
// loaded; the ones only the new files import (on a first generation) are
// loaded with one more packages.Load, of their export data only.
//
// It returns every type error: one in mcpgen's output says that the
// generated code does not compile; one in the user's files is the user's,
// reported as the compiler would. No message is read to tell them apart:
// with mcpgen's output in place, no error is mcpgen's to tolerate. A
// package not loaded by Load is not checked.
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
	generated := map[string]bool{}
	for _, name := range current {
		if f, err := parser.ParseFile(p.Fset, name, nil, parser.SkipObjectResolution); err == nil {
			syntax = append(syntax, f)
			generated[name] = true
		}
	}
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
			pos := te.Fset.Position(te.Pos)
			if strings.HasPrefix(te.Msg, "\t") && len(diags) > 0 {
				// A continuation of the previous error ("other declaration of x").
				d := &diags[len(diags)-1]
				if generated[pos.Filename] && !generated[d.Pos.Filename] {
					// The user's declaration against one of mcpgen's.
					d.Message = "does not compile with the generated code: " + d.Message
				}
				d.Message += " (" + strings.TrimSpace(te.Msg) + " at " + strings.TrimSuffix(Diagnostic{Pos: pos}.Format(filepath.Dir(d.Pos.Filename)), ": ") + ")"
				return
			}
			msg := te.Msg
			if generated[pos.Filename] {
				msg = "generated code does not compile: " + msg
			}
			diags = append(diags, Diagnostic{Pos: pos, Message: msg})
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
