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
		if got := buildConstraint(f, "m.go"); got != c.want {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

// A file's name implies a constraint as go/build reads it, joined to the
// file's own.
func TestFileNameConstraint(t *testing.T) {
	for name, want := range map[string]string{
		"win_windows.go":     "windows",
		"x_linux_arm64.go":   "linux && arm64",
		"x_amd64.go":         "amd64",
		"x_windows_test.go":  "windows",
		"linux.go":           "", // before the first _: no constraint
		"x_linux_pro.go":     "",
		"/a/b_c/plain.go":    "",
		"args_js_wasm.go":    "js && wasm",
		"x_notanos_amd64.go": "amd64",
	} {
		f, err := parser.ParseFile(token.NewFileSet(), name, "package m\n", parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if got := buildConstraint(f, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	f, _ := parser.ParseFile(token.NewFileSet(), "x_linux.go", "//go:build pro\n\npackage m\n", parser.ParseComments)
	if got := buildConstraint(f, "x_linux.go"); got != "pro && linux" {
		t.Errorf("x_linux.go with //go:build pro: %q", got)
	}
}
