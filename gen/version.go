package gen

import (
	"regexp"
	"runtime/debug"
	"strings"
)

const modulePath = "github.com/mcpgen/mcpgen"

// pseudoVersion matches a Go pseudo-version (v0.0.0-20260728093000-abcdef123456),
// which names a commit rather than a release.
var pseudoVersion = regexp.MustCompile(`-(\d+\.)?\d{14}-[0-9a-f]{12}(\+.*)?$`)

// Version is the version of mcpgen named in generated headers: the module
// version of github.com/mcpgen/mcpgen in the running binary's build
// information (the main module, or a dependency when run with go tool or
// go run from another module), or "(devel)" when it is not a release: built
// from a checkout, replaced by a directory (or required as the placeholder
// v0.0.0 that such a replacement goes with), or a pseudo-version or +dirty
// build (which change with every commit, while committed generated files
// must stay byte-identical).
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	v := ""
	if bi.Main.Path == modulePath {
		v = bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			v = d.Version
			if d.Replace != nil {
				v = d.Replace.Version // "" when replaced by a directory
			}
		}
	}
	if v == "" || v == "(devel)" || v == "v0.0.0" || pseudoVersion.MatchString(v) || strings.Contains(v, "+") {
		return "(devel)"
	}
	return v
}
