package gen

import (
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
)

// importNames are the names generated files import mcpgen's and
// jsonschema's packages as.
var importNames = map[string]string{runtimePkg: "runtime", schemaPkg: "jsonschema", implPkg: "impl"}

// newFile starts a generated file of pkg, which imports each path of
// aliases under the name it maps to.
func newFile(pkg *annotate.Package, aliases map[string]string) *jen.File {
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	for p, name := range importNames {
		f.ImportName(p, name)
	}
	for p, alias := range aliases {
		f.ImportAlias(p, alias)
	}
	return f
}

// renderFor renders the file build makes for pkg. When the file imports a
// package under a name the package declares itself (Package.TakenNames: a
// var json, time or context of the user's), the import would clash with
// that declaration: the file is built again with each such import aliased,
// to its name followed by the first number that makes it free (json1; the
// paths in sorted order, so the output is the same on every run).
func renderFor(pkg *annotate.Package, build func(aliases map[string]string) *jen.File) ([]byte, error) {
	var aliases map[string]string
	for round := 0; ; round++ {
		src, err := render(build(aliases))
		if err != nil || len(pkg.TakenNames) == 0 {
			return src, err
		}
		if round > len(aliases) {
			return nil, fmt.Errorf("no import names free of the package's own names, aliases %v", aliases)
		}
		file, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		used := map[string]bool{}
		clashes := map[string]string{} // path → its name, taken
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := importNames[p]
			switch {
			case imp.Name != nil:
				name = imp.Name.Name
			case name == "":
				name = path.Base(p) // the standard library's, imported by their package names
			}
			used[name] = true
			if _, taken := slices.BinarySearch(pkg.TakenNames, name); taken {
				clashes[p] = name
			}
		}
		if len(clashes) == 0 {
			return src, nil
		}
		if aliases == nil {
			aliases = map[string]string{}
		}
		for _, p := range slices.Sorted(maps.Keys(clashes)) {
			name := clashes[p]
			for i := 1; ; i++ {
				alias := name + strconv.Itoa(i)
				if _, taken := slices.BinarySearch(pkg.TakenNames, alias); !taken && !used[alias] {
					aliases[p], used[alias] = alias, true
					break
				}
			}
		}
	}
}
