package gen

import (
	"math"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/annotate"
)

// TestGenerateRefusesNonFiniteNumbers: a model whose float bound or default
// does not fit the Go type (it would render as float32(1e+39) or +Inf) is an
// error, never generated code.
func TestGenerateRefusesNonFiniteNumbers(t *testing.T) {
	big32, inf, nan := 1e39, math.Inf(1), math.NaN()
	for _, c := range []struct {
		basic string
		field annotate.Field
	}{
		{"float32", annotate.Field{Maximum: &big32, MaximumLit: "1e39"}},
		{"float32", annotate.Field{Default: &annotate.Default{Float: -big32}}},
		{"float64", annotate.Field{Minimum: &inf, MinimumLit: "+Inf"}},
		{"float64", annotate.Field{Default: &annotate.Default{Float: nan}}},
	} {
		fd := c.field
		fd.GoName, fd.JSONName, fd.Path, fd.Kind, fd.Basic = "Z", "z", []string{"Z"}, annotate.Number, c.basic
		fd.Type = annotate.TypeRef{Name: c.basic}
		pkg := &annotate.Package{Name: "p", Path: "p", Dir: t.TempDir(), Structs: []*annotate.Struct{{
			Name: "Args", File: "args.go", Tool: "t", Key: "t", Fields: []*annotate.Field{&fd},
		}}}
		_, err := Generate(pkg)
		if err == nil || !strings.Contains(err.Error(), "does not fit in "+c.basic) {
			t.Errorf("%s %+v: Generate error %v, want one saying it does not fit", c.basic, fd, err)
		}
	}
}
