package annotate

import (
	"go/ast"
	"go/build/constraint"
)

// buildConstraint returns the build constraint of f as the expression of a
// //go:build line, or "" when f has none. Like go/build, it reads the
// comments above the package clause that are not its doc comment (a
// constraint must be followed by a blank line), takes the //go:build line
// when there is one, and otherwise the // +build lines, all of which must
// hold.
func buildConstraint(f *ast.File) string {
	if f == nil {
		return ""
	}
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
	switch {
	case goBuild != nil:
		return goBuild.String()
	case plusBuild != nil:
		return plusBuild.String()
	}
	return ""
}
