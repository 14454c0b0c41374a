// Package driver is mcpgen's pipeline, shared by the mcpgen command and the
// mcpgen-vet analyzer: load (package annotate) → model → render (package
// gen) → type-check with the rendered files → what to write and remove, or,
// for -check, what would change. Policy lives here; the command parses
// flags and prints, and annotate and gen know nothing of each other's
// callers.
//
// It is part of mcpgen's generator, exported for the mcpgen command and analyzer only: its API
// carries no compatibility promise.
package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

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
	// Check is mcpgen -check: [Result.Changes] is what the run is for, the
	// client check judges nothing, and the memo is never consulted.
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
	// Warnings are the build-time client check's (annotate/clientcheck)
	// and annotate's (a tool no registration reaches, Package.Warnings),
	// sorted by position: they never stop a run. The check runs only on a
	// run without Diagnostics from loading.
	Warnings []annotate.Diagnostic
	// Memoized: the memo found the run's inputs those of an earlier run
	// that found every file current, so nothing was loaded (package memo);
	// Warnings are that run's.
	Memoized bool
}

// Run loads the packages, builds their model, renders each package and
// type-checks each with its new files. It returns ErrNothingToGenerate, or
// an error when rendering fails; problems in the user's packages are
// Result.Diagnostics.
func Run(opts Options) (*Result, error) {
	// A rerun whose inputs are those of a run that found every file
	// current has nothing to do; -check always looks.
	var inputs *memo.Memo
	if !opts.Check && opts.Args != nil {
		inputs = memo.New(memo.Config{Dir: opts.Dir, Args: opts.Args, Patterns: opts.Patterns, BuildTags: opts.BuildTags})
		if note, ok := inputs.Recall(); ok {
			res := &Result{Memoized: true}
			if json.Unmarshal(note, &res.Warnings) == nil {
				return res, nil
			}
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
		files, err := gen.Generate(p)
		if err != nil {
			return nil, err
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
	if len(res.Diagnostics) == 0 && len(res.Changes()) == 0 && !res.removes() {
		// Every file was current: nothing to write. The warnings go with
		// the key, so that a memoised run prints them too. (A run with a
		// stale file, even a stub no Change counts, is not recorded, so
		// that a run outside go generate removes it.)
		if note, err := json.Marshal(res.Warnings); err == nil {
			inputs.Record(note)
		}
	}
	return res, nil
}

// removes reports whether the result removes a file.
func (r *Result) removes() bool {
	for _, f := range r.Files {
		if f.Remove {
			return true
		}
	}
	return false
}

// overlay is what annotate.TypeCheck takes for pkg with its new files: the
// new content of each file that will be written (a handler file only when
// it does not exist yet), nil for each file to be removed; and the output
// of the structs -type left out, so that the package's calls into it
// compile before its own directive has run. Nothing of the latter is
// written.
func overlay(pkg *annotate.Package, files []gen.File) (map[string][]byte, error) {
	out := map[string][]byte{}
	if other := pkg.Unrequested(); other != nil {
		more, err := gen.Generate(other)
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
