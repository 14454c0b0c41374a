package annotate

import (
	"bufio"
	"encoding/json"
	"fmt"
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
		}
	}
	edge, err := packages.Load(&packages.Config{Dir: root, Mode: packages.NeedName | packages.NeedFiles | packages.NeedTypes}, edgePackage)
	if err != nil || len(edge) != 1 || len(edge[0].Errors) > 0 {
		t.Fatalf("loading %s: %v %v", edgePackage, err, edge)
	}
	edgeDir := filepath.Dir(edge[0].GoFiles[0])
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

	// What reflect says, in each package.
	overlay := map[string]string{}
	tmp := t.TempDir()
	var dirs []string
	for dir, list := range names {
		dirs = append(dirs, dir)
		var b strings.Builder
		b.WriteString("package " + packageName(t, dir) + "\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"reflect\"\n\t\"testing\"\n\n\t\"github.com/mcpgen/mcpgen/internal/shape\"\n)\n\n")
		b.WriteString("func TestMcpgenShapeDump(t *testing.T) {\n")
		for _, n := range list {
			fmt.Fprintf(&b, "\tif b, err := json.Marshal(shape.Entries(shape.Of(reflect.TypeFor[%s]()))); err == nil {\n\t\tfmt.Printf(\"SHAPE %%s %%s\\n\", %q, b)\n\t}\n", n, dir+" "+n)
		}
		b.WriteString("}\n")
		file := filepath.Join(tmp, fmt.Sprintf("dump%d_test.go", len(dirs)))
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(dir, "zz_mcpgen_shape_dump_test.go")] = file
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range tests {
			overlay[f] = "" // the package's own tests are not needed
		}
	}
	sort.Strings(dirs)
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	// The go command's test cache may answer: the output depends only on
	// what is compiled (the overlay's content included), which keys it.
	// No vet, no symbols: 20-odd test binaries are linked when it misses.
	cmd := exec.Command("go", append([]string{"test", "-vet=off", "-ldflags=-s -w", "-overlay", ovFile, "-run", "^TestMcpgenShapeDump$", "-v"}, dirs...)...)
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

func packageName(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "package "); ok {
				return strings.TrimSpace(name)
			}
		}
	}
	t.Fatalf("%s: no package clause", dir)
	return ""
}
