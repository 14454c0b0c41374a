package analyzer

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
		"// go:generate mcpgen -type NotADirective\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	var got []string
	for _, tn := range generateTypes([]*ast.File{f}) {
		p := fset.Position(tn.pos)
		got = append(got, tn.name+"@"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column))
	}
	// Columns point at each name, not at an earlier occurrence of its
	// letters ("m" of "mcpgen").
	assert.Equal(t, []string{"m@3:36", "Args@3:38", "Other@4:67"}, got)
}
