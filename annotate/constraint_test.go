package annotate

import (
	"go/parser"
	"go/token"
	"testing"
)

// TestBuildConstraint: the //go:build line as go/build/constraint prints it,
// legacy // +build lines joined into that form (ignored beside a //go:build
// line), and nothing from the package's doc comment or below the clause.
func TestBuildConstraint(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"package m\n", ""},
		{"//go:build pro\n\npackage m\n", "pro"},
		{"// Copyright.\n\n//go:build  pro&&!lite\n\n// Package m.\npackage m\n", "pro && !lite"},
		{"// +build pro\n// +build linux darwin\n\npackage m\n", "pro && (linux || darwin)"},
		{"//go:build pro\n// +build lite\n\npackage m\n", "pro"},
		{"//go:build pro\npackage m\n", ""}, // the doc comment: go/build ignores it
		{"package m\n\n//go:build pro\n", ""},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "a.go", c.src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if got := buildConstraint(f); got != c.want {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}
