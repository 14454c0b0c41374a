package annotate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerateTypes(t *testing.T) {
	src := "package p\n\n" +
		"//go:generate go tool mcpgen -type m,Args\n" +
		"//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -q -type=Other\n" +
		"//go:generate stringer -type Color\n" +
		"// go:generate mcpgen -type NotADirective\n" +
		"//go:generate stringer -type=Level -output=level_mcpgen_string.go\n" +
		"//go:generate go run golang.org/x/tools/cmd/stringer -type Mode -output mcpgen_mode.go\n" +
		"//go:generate mcpgen -type \"Quoted\"\n" +
		"//go:generate \"mcpgen\" \"-type=A\\x42\"\n" +
		"//go:generate go run -mod=mod -tags \"a b\" ./cmd/mcpgen@latest -type Run\n" +
		"//go:generate /usr/local/bin/mcpgen -type Path\n" +
		"//go:generate -command mc go tool mcpgen\n" +
		"//go:generate mc -type Alias\n" +
		"//go:generate echo mcpgen -type Echo\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	var got []string
	for _, tn := range GenerateTypes([]*ast.File{f}) {
		p := fset.Position(tn.Pos)
		got = append(got, tn.Name+"@"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column))
	}
	// Columns point at each name, not at an earlier occurrence of its
	// letters ("m" of "mcpgen").
	// Only directives whose program is mcpgen count, their words split as
	// go generate splits them: a double-quoted word is a Go string.
	assert.Equal(t, []string{"m@3:36", "Args@3:38", "Other@4:67",
		"Quoted@9:29", "AB@10:31", "Run@11:69", "Path@12:43", "Alias@14:24"}, got)
}
