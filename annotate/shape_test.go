package annotate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// shapeConfigs are the loads of the packages whose structs' digests
// TestShapeAgreesWithReflect holds to reflect's: every golden case, every
// example and the runtime's fixture (and edgePackage, which has a field of
// every kind of type).
// The golden cases are loaded one by one, each with the -type names of its
// types file, as the golden tests load them.
func shapeConfigs(t *testing.T, root string) []Config {
	out := []Config{{Dir: root, Patterns: []string{"./examples/...", "./runtime/internal/fixture"}}}
	cases, err := filepath.Glob(filepath.Join(root, "golden", "testdata", "*", "args.go"))
	if err != nil || len(cases) < 10 {
		t.Fatalf("golden cases: %v %v", cases, err)
	}
	for _, c := range cases {
		cfg := Config{Dir: filepath.Dir(c)}
		if b, err := os.ReadFile(filepath.Join(cfg.Dir, "types")); err == nil {
			cfg.Types = strings.Fields(string(b))
		}
		out = append(out, cfg)
	}
	return out
}

const edgePackage = "./internal/shape/testdata/edge"

// TestShapeAgreesWithReflect: the digest annotate computes from go/types
// for each struct (Struct.Shape, which generated code carries) is the one
// the runtime computes with reflect when the flow is built
// (internal/shape.Of): otherwise a server whose generated code is current
// would refuse to start. The reflect side runs in each package itself,
// through go test with an overlay that adds a test printing the digests and
// leaves the package's own tests out; the edge package's structs, which
// annotate would refuse as forms, are held through structShape directly.
func TestShapeAgreesWithReflect(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// What go/types says: the model's Shape, and structShape for the edge
	// package.
	want := map[string][]string{}  // "dir T" → digest
	names := map[string][]string{} // dir → struct names
	pkgName := map[string]string{} // dir → package name
	pkgPath := map[string]string{} // dir → import path
	var pkgs []*Package
	for _, cfg := range shapeConfigs(t, root) {
		ps, diags := Load(cfg)
		for _, d := range diags {
			t.Fatalf("loading %s: %s", cfg.Dir, d)
		}
		pkgs = append(pkgs, ps...)
	}
	for _, p := range pkgs {
		for _, s := range p.Structs {
			dir := filepath.Dir(s.File)
			if s.Shape == nil {
				t.Errorf("%s.%s: no digest", p.Path, s.Name)
				continue
			}
			want[dir+" "+s.Name] = s.Shape
			names[dir] = append(names[dir], s.Name)
			pkgName[dir], pkgPath[dir] = p.Name, p.Path
		}
	}
	edge, err := packages.Load(&packages.Config{Dir: root, Mode: packages.NeedName | packages.NeedFiles | packages.NeedTypes}, edgePackage)
	if err != nil || len(edge) != 1 || len(edge[0].Errors) > 0 {
		t.Fatalf("loading %s: %v %v", edgePackage, err, edge)
	}
	edgeDir := filepath.Dir(edge[0].GoFiles[0])
	pkgName[edgeDir], pkgPath[edgeDir] = edge[0].Name, edge[0].PkgPath
	scope := edge[0].Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
			continue
		}
		sh := structShape(tn)
		if sh == nil {
			t.Errorf("edge.%s: no digest", name)
			continue
		}
		want[edgeDir+" "+name] = sh
		names[edgeDir] = append(names[edgeDir], name)
	}
	if len(names) < 20 {
		t.Fatalf("only %d packages with structs: %v", len(names), names)
	}

	// What reflect says: in a test the go command adds to the first package
	// main among them, which imports every other package it may; a
	// package main cannot be imported, so the others' files are overlaid
	// with copies that name their package shapeprobe (the digest spells a
	// type of the struct's own package ".Name" whatever the package is
	// called). A package internal to another tree prints its digests in a
	// test of its own. Two test binaries are linked, not one a package.
	// Under go test a package main's types carry its import path, not
	// "main" as in a built program: that case is held where the examples
	// run as programs (impl.NewFlow checks the digest when each starts).
	var dirs []string
	for dir := range names {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	host := ""
	for _, dir := range dirs {
		if pkgName[dir] == "main" {
			host = dir
			break
		}
	}
	if host == "" {
		t.Fatalf("no package main among %v", dirs)
	}
	tmp := t.TempDir()
	overlay := map[string]string{}
	dumps := map[string]*shapeDump{host: {pkg: "main"}} // dir → the test printing its digests
	run := []string{host}
	for i, dir := range dirs {
		switch {
		case dir == host:
			dumps[host].add("", "", dir, names[dir])
		case importable(pkgPath[host], pkgPath[dir]):
			if pkgName[dir] == "main" {
				renamePackage(t, dir, tmp, overlay)
			}
			dumps[host].add(fmt.Sprintf("p%d", i), pkgPath[dir], dir, names[dir])
		default:
			dumps[dir] = &shapeDump{pkg: pkgName[dir]}
			dumps[dir].add("", "", dir, names[dir])
			run = append(run, dir)
		}
	}
	for dir, d := range dumps {
		file := filepath.Join(tmp, filepath.Base(dir)+fmt.Sprint(len(overlay))+"_test.go")
		if err := os.WriteFile(file, []byte(d.source()), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(dir, "zz_mcpgen_shape_dump_test.go")] = file
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range tests {
			overlay[f] = "" // the package's own tests are not needed
		}
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	// The go command's test cache may answer: the output depends only on
	// what is compiled (the overlay's content included), which keys it.
	cmd := exec.Command("go", append([]string{"test", "-vet=off", "-ldflags=-s -w", "-overlay", ovFile, "-run", "^TestMcpgenShapeDump$", "-v"}, run...)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	got := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "SHAPE ")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(rest, ' ')
		var entries []string
		if err := json.Unmarshal([]byte(rest[i+1:]), &entries); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		got[rest[:i]] = entries
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: reflect's digest not printed", k)
		case !slices.Equal(g, w):
			t.Errorf("%s: go/types and reflect disagree:\ngo/types %v\nreflect  %v", k, w, g)
		}
	}
	t.Logf("%d structs of %d packages agree", len(want), len(dirs))
}

// shapeDump is the source of a test that prints reflect's digest of
// structs: SHAPE, "dir Name", the digest as a JSON array, one line each.
type shapeDump struct {
	pkg           string
	imports, body strings.Builder
}

// add prints the digests of names, declared in the package at path in dir:
// through the import qual, or, when qual is "", in the test's own package.
func (d *shapeDump) add(qual, path, dir string, names []string) {
	if qual != "" {
		fmt.Fprintf(&d.imports, "\t%s %q\n", qual, path)
		qual += "."
	}
	for _, n := range names {
		fmt.Fprintf(&d.body, "\tif b, err := json.Marshal(shape.Entries(shape.Of(reflect.TypeFor[%s%s]()))); err == nil {\n\t\tfmt.Printf(\"SHAPE %%s %%s\\n\", %q, b)\n\t}\n", qual, n, dir+" "+n)
	}
}

func (d *shapeDump) source() string {
	return "package " + d.pkg + "\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"reflect\"\n\t\"testing\"\n\n\t\"github.com/mcpgen/mcpgen/internal/shape\"\n" +
		d.imports.String() + ")\n\nfunc TestMcpgenShapeDump(t *testing.T) {\n" + d.body.String() + "}\n"
}

// importable reports whether the package at import path from may import
// the one at to, by the go command's rule for internal directories (go
// help internal): to's path up to its last "internal" element must
// prefix from's.
func importable(from, to string) bool {
	i := strings.LastIndex("/"+to+"/", "/internal/")
	if i < 0 {
		return true
	}
	parent := to[:max(i-1, 0)]
	return parent == "" || from == parent || strings.HasPrefix(from, parent+"/")
}

// renamePackage overlays each Go file of the package main in dir (its
// tests left out) with a copy in tmp whose package clause names
// shapeprobe, so that another package can import it.
func renamePackage(t *testing.T, dir, tmp string, overlay map[string]string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			overlay[f] = "" // of package main: the go command reads its clause
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, src, parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		at := int(file.Name.Pos()) - 1 // a lone file's base is 1
		copied := string(src[:at]) + "shapeprobe" + string(src[at+len(file.Name.Name):])
		dst := filepath.Join(tmp, fmt.Sprintf("renamed%d.go", len(overlay)))
		if err := os.WriteFile(dst, []byte(copied), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[f] = dst
	}
}
