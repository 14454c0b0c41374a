// Package driver is mcpgen's pipeline, shared by the mcpgen command and the
// mcpgen-vet analyzer: load (package annotate) → model → render (package
// gen) → type-check with the rendered files → what to write and remove, or,
// for -check, what would change. Policy lives here; the command parses
// flags and prints, and annotate and gen know nothing of each other's
// callers.
package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/annotate/clientcheck"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/memo"
)

// Options says what one run does.
type Options struct {
	Dir       string   // working directory for the go command ("" = current)
	Patterns  []string // package patterns (default ".")
	Types     []string // struct type names (-type); empty: every annotated struct
	BuildTags []string // build tags (-tags)
	// Check renders every package, even one whose files are current, so
	// that [Result.Changes] compares every file (mcpgen -check); it never
	// consults the memo.
	Check bool
	// Args is the command line, flags and patterns, as the memo keys a run
	// by it (package memo); nil keys nothing and always loads.
	Args []string
	// Clients are the clients the build-time client check judges each
	// form for (annotate/clientcheck), unless a //mcpgen:clients directive
	// says otherwise; nil, or Off, turns the check off, directives and all.
	// A -check run (Check) judges nothing: it is about files.
	Clients *annotate.ClientList
	// ClientLevel is what the client check warns about: what a client
	// breaks (clientcheck.Breaks, the zero value), or also what it degrades.
	ClientLevel clientcheck.Level
}

// ErrNothingToGenerate is returned when the packages hold no struct to
// generate for and no stale file to remove.
var ErrNothingToGenerate = errors.New("no struct with an elicit tag or a //mcpgen:tool directive found; tag a field (elicit:\"required\"), add //mcpgen:tool to the struct's doc comment, or name the type with -type")

// Result is what a run found and decided.
type Result struct {
	// Diagnostics are every problem found, sorted by position: the model's
	// (annotate), syntax and go command errors, and the type errors of the
	// packages checked with their new files. With any, nothing is written.
	Diagnostics []annotate.Diagnostic
	// Packages are the models loaded.
	Packages []*annotate.Package
	// Files are the files of every rendered package: generated files,
	// handler files (written once) and stale files to remove.
	Files []gen.File
	// Rendered lists the import paths of the packages rendered; the others
	// were current (their files are what this mcpgen renders for their
	// model) and were only type-checked.
	Rendered []string
	// Warnings are the build-time client check's (annotate/clientcheck)
	// and annotate's (a tool no registration reaches, Package.Warnings),
	// sorted by position: they never stop a run. The check runs only on a
	// run without Diagnostics from loading.
	Warnings []annotate.Diagnostic
	// Memoized: the memo found the run's inputs those of an earlier run
	// that found every file current, so nothing was loaded (package memo).
	Memoized bool
}

// Run loads the packages, builds their model, renders each package that is
// not current (every package with Options.Check) and type-checks each with
// its new files (a current one with the files on disk). It returns
// ErrNothingToGenerate, or an error when rendering fails; problems in the
// user's packages are Result.Diagnostics.
func Run(opts Options) (*Result, error) {
	// A rerun whose inputs are those of a run that found every file
	// current has nothing to do; -check always looks.
	var inputs *memo.Memo
	if !opts.Check && opts.Args != nil {
		inputs = memo.New(memo.Config{Dir: opts.Dir, Args: opts.Args, Patterns: opts.Patterns, BuildTags: opts.BuildTags})
		if inputs.Current() {
			return &Result{Memoized: true}, nil
		}
	}
	pkgs, diags := annotate.Load(annotate.Config{Dir: opts.Dir, Patterns: opts.Patterns, Types: opts.Types, BuildTags: opts.BuildTags})
	res := &Result{Packages: pkgs, Diagnostics: diags}
	if len(diags) > 0 {
		return res, nil
	}
	generating := false
	for _, p := range pkgs {
		// A package whose last annotated struct is gone has only stale
		// files to remove: that is work too.
		generating = generating || len(p.Structs) > 0 || len(p.Stale) > 0
	}
	if !generating {
		return res, ErrNothingToGenerate
	}
	if !opts.Check {
		for _, p := range pkgs {
			// A tool that no registration reaches (annotate's warnings).
			res.Warnings = append(res.Warnings, p.Warnings()...)
			if opts.Clients != nil && !opts.Clients.Off {
				res.Warnings = append(res.Warnings, clientcheck.Check(p, opts.Clients.Clients, opts.ClientLevel)...)
			}
		}
		annotate.SortDiagnostics(res.Warnings)
	}
	for _, p := range pkgs {
		var files []gen.File
		if opts.Check || !current(p) {
			var err error
			if files, err = Render(p); err != nil {
				return nil, err
			}
			res.Rendered = append(res.Rendered, p.Path)
		}
		overlay, err := overlay(p, files)
		if err != nil {
			return nil, err
		}
		// The package with its new files must compile before any is written.
		diags := annotate.TypeCheck(p, overlay)
		if len(diags) == 0 {
			diags = p.Unresolved()
		} else {
			// Calls into the output of a struct -type left out fail while
			// that struct has problems of its own: those are the cause.
			diags = append(diags, p.UnrequestedDiagnostics()...)
		}
		res.Diagnostics = append(res.Diagnostics, diags...)
		res.Files = append(res.Files, files...)
	}
	if len(res.Rendered) == 0 && len(res.Diagnostics) == 0 && len(res.Warnings) == 0 {
		// Every package was current: nothing to write. (A run with
		// warnings is not recorded, so that every run prints them.)
		inputs.Record()
	}
	return res, nil
}

// Render renders pkg (gen.Generate) and records, for each struct and for
// the package's tools file, that this executable renders its model to these
// bytes: a later run finds a file that still holds them current without
// rendering.
func Render(pkg *annotate.Package) ([]gen.File, error) {
	files, err := gen.Generate(pkg)
	if err != nil {
		return nil, err
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[f.Path] = f.Content
	}
	for _, s := range pkg.Structs {
		if b, ok := byPath[elicitPath(s)]; ok {
			rendered(annotate.ModelDigest(pkg, s), b)
		}
	}
	if b, ok := byPath[toolsPath(pkg)]; ok {
		rendered(annotate.ToolsDigest(pkg), b)
	}
	return files, nil
}

// toolsPath is where pkg's tools file goes (annotate.ToolsFileName).
func toolsPath(pkg *annotate.Package) string {
	return filepath.Join(pkg.Dir, annotate.ToolsFileName)
}

// elicitPath is where s's generated file goes.
func elicitPath(s *annotate.Struct) string {
	return filepath.Join(filepath.Dir(s.File), s.Names.ElicitFile)
}

// current reports whether every file rendering pkg would write is on disk
// already, judged without rendering: each struct's generated file holds
// what this executable rendered for the struct's model before, the
// package's tools file holds what it rendered for the package's tools
// (annotate.ToolsDigest), the struct's handler file exists where one is written (never overwritten,
// so only its existence counts), and no stale file is to be removed. A
// file edited by hand, a changed model, or another build of mcpgen is not
// current.
func current(pkg *annotate.Package) bool {
	if len(pkg.Stale) > 0 {
		return false
	}
	if len(pkg.Tools) > 0 {
		// The package's tools file: a struct added in another file changes
		// it while every other struct's file stays current.
		b, err := os.ReadFile(toolsPath(pkg))
		if err != nil || !isRendered(annotate.ToolsDigest(pkg), b) {
			return false
		}
	}
	return structsCurrent(pkg)
}

func structsCurrent(pkg *annotate.Package) bool {
	for _, s := range pkg.Structs {
		b, err := os.ReadFile(elicitPath(s))
		if err != nil || !isRendered(annotate.ModelDigest(pkg, s), b) {
			return false
		}
		if s.HandlerDeclared || s.Question {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(s.File), s.Names.HandlerFile)); err != nil {
			return false
		}
	}
	return true
}

// overlay is what annotate.TypeCheck takes for pkg with its new files
// (none when it is current): the new content of each file that will be
// written (a handler file only when it does not exist yet), nil for each
// file to be removed; and the output of the structs -type left out, unless
// it is current on disk, so that the package's calls into it compile
// before its own directive has run. Nothing of the latter is written.
func overlay(pkg *annotate.Package, files []gen.File) (map[string][]byte, error) {
	out := map[string][]byte{}
	if other := pkg.Unrequested(); other != nil && !structsCurrent(other) {
		more, err := Render(other)
		if err != nil {
			return nil, fmt.Errorf("rendering the package's other structs: %w", err)
		}
		files = append(more, files...)
	}
	for _, f := range files {
		switch {
		case f.Remove:
			out[f.Path] = nil
		case f.Once:
			if _, err := os.Stat(f.Path); err != nil {
				out[f.Path] = f.Content
			}
		default:
			out[f.Path] = f.Content
		}
	}
	return out, nil
}
