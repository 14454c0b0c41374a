package annotate

import (
	"go/ast"
	"go/build/constraint"
	"path/filepath"
	"strings"
)

// buildConstraint returns the build constraint of f, named filename, as the expression of a
// //go:build line, or "" when f has none. Like go/build, it reads the
// comments above the package clause that are not its doc comment (a
// constraint must be followed by a blank line), takes the //go:build line
// when there is one, and otherwise the // +build lines, all of which must
// hold.
func buildConstraint(f *ast.File, filename string) string {
	if f == nil {
		return ""
	}
	x := commentConstraint(f)
	if byName := fileNameConstraint(filename); byName != nil {
		if x == nil {
			x = byName
		} else {
			x = &constraint.AndExpr{X: x, Y: byName}
		}
	}
	if x == nil {
		return ""
	}
	return x.String()
}

// commentConstraint is the constraint f's comments state, or nil.
func commentConstraint(f *ast.File) constraint.Expr {
	var goBuild, plusBuild constraint.Expr
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		if cg == f.Doc {
			continue
		}
		for _, c := range cg.List {
			switch {
			case constraint.IsGoBuild(c.Text):
				if x, err := constraint.Parse(c.Text); err == nil && goBuild == nil {
					goBuild = x
				}
			case constraint.IsPlusBuild(c.Text):
				if x, err := constraint.Parse(c.Text); err == nil {
					if plusBuild == nil {
						plusBuild = x
					} else {
						plusBuild = &constraint.AndExpr{X: plusBuild, Y: x}
					}
				}
			}
		}
	}
	if goBuild != nil {
		return goBuild
	}
	return plusBuild
}

// fileNameConstraint is the constraint a Go file's name implies (go/build,
// "Build Constraints": a name ending, before .go and an optional _test, in
// _GOOS, _GOARCH or _GOOS_GOARCH; what comes before the first _ does not
// count), or nil. A //go:build line of those terms holds exactly where the
// name does: the go command also takes linux for android, darwin for ios and
// solaris for illumos in both.
func fileNameConstraint(filename string) constraint.Expr {
	name, _, _ := strings.Cut(filepath.Base(filename), ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return nil
	}
	parts := strings.Split(name[i:], "_")
	if n := len(parts); n > 0 && parts[n-1] == "test" {
		parts = parts[:n-1]
	}
	n := len(parts)
	switch {
	case n >= 2 && knownOS[parts[n-2]] && knownArch[parts[n-1]]:
		return &constraint.AndExpr{X: &constraint.TagExpr{Tag: parts[n-2]}, Y: &constraint.TagExpr{Tag: parts[n-1]}}
	case n >= 1 && (knownOS[parts[n-1]] || knownArch[parts[n-1]]):
		return &constraint.TagExpr{Tag: parts[n-1]}
	}
	return nil
}

// knownOS and knownArch are the GOOS and GOARCH values a file name may end
// in (go/build's lists, internal/syslist, as of Go 1.26).
var (
	knownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
		"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true, "openbsd": true, "plan9": true,
		"solaris": true, "wasip1": true, "windows": true, "zos": true}
	knownArch = map[string]bool{"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true,
		"arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true, "mips64le": true, "mips64p32": true,
		"mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true, "riscv": true, "riscv64": true, "s390": true,
		"s390x": true, "sparc": true, "sparc64": true, "wasm": true}
)
