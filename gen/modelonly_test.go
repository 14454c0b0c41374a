package gen

import (
	"fmt"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"golang.org/x/tools/go/packages"
)

// headerAndDigest are the functions of package annotate that gen may call:
// none (the header is internal/header's, the skip-when-current records the
// driver's); the list stays so that an exception is a visible decision.
var headerAndDigest []string

// TestRendererReadsOnlyTheModel: the renderer (package gen's non-test files)
// reads the model and calls nothing of package annotate: every generated
// name and predicate is data on the model (annotate.Struct.Derive computes
// them once), so gen uses annotate's types, constants and fields only. The
// test type-checks gen and fails on every use of a function or method
// declared in annotate, outside the header and digest mechanism.
func TestRendererReadsOnlyTheModel(t *testing.T) {
	for _, use := range annotateFuncUses(t, nil) {
		t.Errorf("%s: the renderer calls annotate; read the model instead (a member that Struct.Derive sets)", use)
	}
}

// TestRendererCheckCatchesCalls: the check above sees a call of an annotate
// function and of a method of a model type, added to gen in an overlay.
func TestRendererCheckCatchesCalls(t *testing.T) {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	src := "package gen\n\nimport \"github.com/mcpgen/mcpgen/annotate\"\n\n" +
		"func bounce(s *annotate.Struct, k annotate.Kind) string {\n" +
		"\treturn annotate.HandlerTypeName(s.Name) + k.String() + string(annotate.Kind(0).String()[0])\n}\n"
	got := annotateFuncUses(t, map[string][]byte{filepath.Join(dir, "zz_bounce.go"): []byte(src)})
	want := []string{
		"zz_bounce.go:6: github.com/mcpgen/mcpgen/annotate.HandlerTypeName",
		"zz_bounce.go:6: (github.com/mcpgen/mcpgen/annotate.Kind).String",
		"zz_bounce.go:6: (github.com/mcpgen/mcpgen/annotate.Kind).String",
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("uses found:\n%q\nwant:\n%q", got, want)
	}
}

// annotateFuncUses type-checks package gen without its tests (with overlay)
// and returns each use of a function or method of package annotate outside
// headerAndDigest, as "file:line: name", sorted.
func annotateFuncUses(t *testing.T, overlay map[string][]byte) []string {
	t.Helper()
	const annotatePath = "github.com/mcpgen/mcpgen/annotate"
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) != 1 {
		t.Fatal("cannot load package gen")
	}
	p := pkgs[0]
	if len(p.TypesInfo.Uses) == 0 {
		t.Fatal("no uses recorded: the check would pass vacuously")
	}
	var out []string
	for id, obj := range p.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != annotatePath {
			continue
		}
		if fn.Signature().Recv() == nil && slices.Contains(headerAndDigest, fn.Name()) {
			continue
		}
		pos := p.Fset.Position(id.Pos())
		out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(pos.Filename), pos.Line, fn.FullName()))
	}
	sort.Strings(out)
	return out
}
