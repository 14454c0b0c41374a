package annotate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// TestEnumConstantsAcrossFilesInSourceOrder: the choices of a named string
// type whose constants sit in several files come in the order of the files'
// names, then of the source, on every load (ordered by token.Pos, they came
// in the order the loader parsed the files: concurrent, so the generated
// code changed between runs); and a field whose type is an alias of such a
// type is that select (an alias lost its choices: any string passed).
func TestEnumConstantsAcrossFilesInSourceOrder(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/order\n\ngo 1.26\n",
		"z.go":    "package order\n\ntype Color string\n\nconst Red Color = \"red\" // Red\n\nconst Green Color = \"green\" // Green\n",
		"a.go":    "package order\n\nconst Blue Color = \"blue\" // Blue\n",
		"args.go": "package order\n\n// Shade is another name of Color.\ntype Shade = Color\n\n//mcpgen:tool pick Pick colors.\ntype PickArgs struct {\n\tColor Color `json:\"color\" elicit:\"required\"`\n\tShade Shade `json:\"shade\" elicit:\"required\"`\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", racebuild.Flags("-mod=mod"))
	t.Setenv("GOWORK", "off")
	want := []string{"blue", "red", "green"} // a.go, then z.go in source order
	for range 8 {
		pkgs, diags := Load(Config{Dir: dir})
		if len(diags) > 0 {
			t.Fatalf("diagnostics: %q", diags)
		}
		if len(pkgs) != 1 || len(pkgs[0].Structs) != 1 {
			t.Fatalf("loaded %d packages; want one with PickArgs", len(pkgs))
		}
		for _, f := range pkgs[0].Structs[0].Fields {
			var got []string
			for _, e := range f.Enum {
				got = append(got, e.Value)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s's choices %q; want %q", f.GoName, got, want)
			}
		}
	}
}
