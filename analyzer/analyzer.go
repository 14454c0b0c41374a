// Package analyzer exposes mcpgen's checks of `elicit` tags and argument
// structs as a go/analysis [Analyzer], so that `go vet -vettool` and editors
// (gopls) report them without running generation. It reuses package
// annotate's checking code ([annotate.Check]); the rules live there only.
// Each diagnostic carries what annotate's does: the end of the offending
// text, the other site of a collision (Related), and a suggested fix for
// each mechanical fix its message spells, which gopls offers and
// `mcpgen-vet -fix` applies.
//
// Besides every struct with an elicit tag or a //mcpgen:tool or
// //mcpgen:question directive, it checks the -type names of each
// `//go:generate mcpgen -type T1,T2` directive in the package (its program
// mcpgen, run as `go run …/cmd/mcpgen` or `go tool mcpgen` too): a name
// that is not declared, or not a struct type, is reported at the directive.
// And it renders each struct's generated file with mcpgen's driver
// (gen/driver, which the mcpgen command runs too; this package sits
// above it, and nothing below imports this package) and reports, at the
// struct, a t_elicit.go on disk that differs: the struct changed without
// go generate, or, when the file's content no longer has the sum mcpgen
// recorded in it, the file was edited by hand (said as such); and, at the
// package's first tool, its mcpgen_tools.go (a tool added or renamed
// without go generate). In a package main it warns about a tool that no
// registration reaches (no file calls Flows nor its New<T>Flow), which
// builds and is never served.
//
// With no problem in the package, it also runs mcpgen's build-time client
// check (annotate/clientcheck): warnings in the category "clients" about
// each form feature a chosen client renders badly. By default only for the
// structs whose //mcpgen:clients directive (or their file's) names clients:
// go vet, like any vet tool, fails on any diagnostic, and a warning must
// not fail a vet step that passed before. The -clients flag (widely, all,
// ids; none turns directives off too) chooses the clients of the others,
// as mcpgen's -clients flag does.
package analyzer

import (
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/annotate/clientcheck"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/driver"
	"github.com/mcpgen/mcpgen/internal/header"
)

// Analyzer reports every diagnostic mcpgen would report for a package's
// annotated structs, at the same positions and with the same messages.
var Analyzer = &analysis.Analyzer{
	Name: "mcpgen",
	Doc: `check mcpgen elicit tags and argument structs

Reports what mcpgen would refuse to generate from: unknown or misspelled elicit
tag options, struct tag keys that misspell elicit (elict:"…"), bad values, bounds that contradict each other, defaults outside
the rules, Go types a form cannot hold, secret-looking fields, JSON name clashes,
generated names that collide, a handler without the <Field>Choices method of a
choices field (with a fix that adds a stub), -type names in //go:generate mcpgen directives
that are not structs, and generated files that are stale.`,
	URL:   "https://github.com/mcpgen/mcpgen#diagnostics",
	Run:   run,
	Flags: flags(),
}

// clientsFlag is the -clients flag: the clients the client check judges
// each form without a //mcpgen:clients directive for, as mcpgen's -clients
// flag takes them; "" (the default): none, only the directives' clients.
var clientsFlag = ""

// degradesFlag is the -degrades flag: the client check's level
// (clientcheck.Degrades when set, else clientcheck.Breaks).
var degradesFlag bool

// clientList is the value of the -clients flag, checked when it is set.
type clientList struct{ s *string }

func (c clientList) String() string {
	if c.s == nil {
		return ""
	}
	return *c.s
}

func (c clientList) Set(v string) error {
	if _, err := annotate.ParseClientList(v); err != nil && v != "" {
		return err
	}
	*c.s = v
	return nil
}

func flags() flag.FlagSet {
	var fs flag.FlagSet
	fs.BoolVar(&degradesFlag, "degrades", false, "the client check also warns about what a client degrades, not only what it breaks")
	fs.Var(clientList{&clientsFlag}, "clients", "the clients whose rendering of each form to warn about: widely, all, none, or client ids (id1,id2); default: only those of //mcpgen:clients directives, which override it, except none")
	return fs
}

func run(pass *analysis.Pass) (any, error) {
	model, diags := annotate.Check(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo, nil)
	for _, d := range diags {
		pass.Report(toDiagnostic(pass, d))
	}
	if len(diags) == 0 {
		reportStale(pass, model)
		for _, d := range model.Warnings() {
			pass.Report(toDiagnostic(pass, d)) // a tool no registration reaches
		}
		chosen, err := annotate.ParseClientList(clientsFlag)
		if clientsFlag == "" || err == nil && !chosen.Off {
			level := clientcheck.Breaks
			if degradesFlag {
				level = clientcheck.Degrades
			}
			for _, d := range clientcheck.Check(model, chosen.Clients, level) {
				pass.Report(toDiagnostic(pass, d))
			}
		}
	}
	for _, t := range annotate.GenerateTypes(pass.Files) {
		obj := pass.Pkg.Scope().Lookup(t.Name)
		tn, ok := obj.(*types.TypeName)
		report := func(format string, args ...any) {
			pass.Report(analysis.Diagnostic{Pos: t.Pos, End: t.Pos + token.Pos(len(t.Name)), Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case obj == nil:
			report("-type %s: no type %s in package %s; name a struct type declared in this package", t.Name, t.Name, pass.Pkg.Name())
		case !ok:
			report("-type %s: %s is a %s, not a type; name a struct type", t.Name, t.Name, annotate.ObjectKind(obj))
		default:
			if _, isStruct := tn.Type().Underlying().(*types.Struct); !isStruct {
				report("-type %s: %s is not a struct type (its type is %s); mcpgen generates for structs only", t.Name, t.Name, tn.Type().Underlying())
			}
		}
	}
	return nil, nil
}

// reportStale renders each struct's generated file (gen.Generate)
// and reports, at the struct, a generated file on disk that differs from it
// below the header, which names the mcpgen version (that of this tool may
// differ from the one go generate runs; mcpgen -check compares it too). A
// file not generated yet is not reported; a file edited by hand
// (driver.Change.HandEdited) is reported as an edit, not as a changed
// struct.
func reportStale(pass *analysis.Pass, model *annotate.Package) {
	files, err := gen.Generate(model)
	if err != nil {
		return
	}
	byPath := map[string]*annotate.Struct{}
	for _, s := range model.Structs {
		byPath[filepath.Join(filepath.Dir(s.File), s.Names.ElicitFile)] = s
	}
	// The package's tools file is reported at its first tool this pass
	// models.
	tools := filepath.Join(model.Dir, annotate.ToolsFileName)
	var first *annotate.Struct
	for _, s := range model.Structs {
		if !s.Question && (first == nil || s.Pos.Filename < first.Pos.Filename ||
			s.Pos.Filename == first.Pos.Filename && s.Pos.Offset < first.Pos.Offset) {
			first = s
		}
	}
	for _, c := range driver.Changes(files) {
		if c.Kind != driver.Stale || c.BodyOnly() || !header.IsGenerated(c.Old) {
			continue
		}
		s := byPath[c.Path]
		if s == nil && c.Path == tools {
			s = first
		}
		if s == nil {
			continue
		}
		switch {
		case c.HandEdited():
			pass.Reportf(toPos(pass, s.Pos), "%s was edited by hand since mcpgen wrote it; go generate overwrites the edit: make the change in the elicit tags, directives or handler files it is generated from, then run go generate", filepath.Base(c.Path))
		case c.Path == tools:
			pass.Reportf(toPos(pass, s.Pos), "%s is stale: the package's tools changed since it was generated; run go generate", annotate.ToolsFileName)
		default:
			pass.Reportf(toPos(pass, s.Pos), "%s is stale: %s changed since it was generated; run go generate", filepath.Base(c.Path), s.Name)
		}
	}
}

// toDiagnostic turns a diagnostic of annotate into the pass's, with its
// end, related sites, suggested fixes (`mcpgen-vet -fix` applies them),
// category and URL; a warning's message starts "warning: ".
func toDiagnostic(pass *analysis.Pass, d annotate.Diagnostic) analysis.Diagnostic {
	msg := d.Message
	if d.Warning() {
		msg = "warning: " + msg // as mcpgen prints it: go vet shows no category
	}
	out := analysis.Diagnostic{Pos: toPos(pass, d.Pos), End: toPos(pass, d.End), Message: msg, Category: d.Category, URL: d.URL}
	for _, r := range d.Related {
		if pos := toPos(pass, r.Pos); pos.IsValid() {
			out.Related = append(out.Related, analysis.RelatedInformation{Pos: pos, End: toPos(pass, r.End), Message: r.Message})
		}
	}
fixes:
	for _, f := range d.SuggestedFixes {
		fix := analysis.SuggestedFix{Message: f.Message}
		for _, e := range f.Edits {
			pos, end := toPos(pass, e.Pos), toPos(pass, e.End)
			if !pos.IsValid() || !end.IsValid() {
				continue fixes // an edit must be exact, or there is no fix
			}
			fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: pos, End: end, NewText: []byte(e.NewText)})
		}
		out.SuggestedFixes = append(out.SuggestedFixes, fix)
	}
	return out
}

// toPos turns a position reported by annotate back into a token.Pos of the
// pass's file set (annotate's positions carry exact byte offsets).
func toPos(pass *analysis.Pass, p token.Position) token.Pos {
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf != nil && tf.Name() == p.Filename && p.Offset >= 0 && p.Offset <= tf.Size() {
			return tf.Pos(p.Offset)
		}
	}
	return token.NoPos
}
