// Command mcpgen generates MCP elicitation code for Go structs whose fields
// carry `elicit:"…"` tags: schema validation, the flat requestedSchema of the
// missing fields, and the accept/decline/cancel switch with a handler
// skeleton, all backed by github.com/mcpgen/mcpgen/runtime.
//
// Usage:
//
//	mcpgen [-type T1,T2] [-tags list] [-v] [-check] [-legacy-enum-names] [packages]
//	mcpgen keygen
//	mcpgen -version
//
// With no packages, mcpgen works on the package in the current directory, so
// a bare
//
//	//go:generate go tool mcpgen -type BookFlightArgs
//
// works. Without -type it generates for every struct with an elicit tag or a
// //mcpgen:tool or //mcpgen:question directive. For
// a module with several annotated packages, one directive at its root,
//
//	//go:generate go tool mcpgen ./...
//
// loads them all once in one process; each struct is still rendered as its
// package's own directive, if it has one, would render it.
// -legacy-enum-names writes titled single selects as the deprecated
// enum + enumNames (MCP 2025-06-18) instead of oneOf const/title, for every
// struct (the //mcpgen:enumnames directive does it for one).
// For each struct T it writes t_elicit.go (regenerated when its input
// changed; a package whose files carry the digest of this run's input and
// of their own content is not rendered at all) and
// t_handler.go (written once; yours to edit; not written at all when the
// package already declares T's handler type, e.g. in a file you renamed).
// A t_elicit.go whose type no longer exists (renamed or deleted) is removed
// (under go generate, emptied and removed by the next run). The package is
// type-checked with the new files before any is written.
//
// mcpgen prints nothing on success; -v lists the files written or removed
// (-q is accepted and does nothing). -check writes nothing and lists each
// generated file that is stale, missing or orphaned.
//
// Exit status: 0 on success, 1 when there are diagnostics (printed as
// file:line:col: message, all of them; no file is written) or, with -check,
// files to regenerate; 2 on usage errors.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/keygen"
	"github.com/mcpgen/mcpgen/internal/memo"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(fs *flag.FlagSet, w io.Writer) func() {
	return func() {
		fmt.Fprintf(w, "usage: mcpgen [-type T1,T2] [-tags list] [-v] [-check] [-legacy-enum-names] [packages]\n       mcpgen keygen\n       mcpgen -version\n\nFlags:\n")
		fs.PrintDefaults()
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "keygen" {
		if len(args) > 1 {
			fmt.Fprintln(stderr, "mcpgen: keygen takes no arguments")
			return 2
		}
		fmt.Fprintln(stdout, keygen.New())
		return 0
	}
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = usage(fs, stderr)
	typeNames := fs.String("type", "", "comma-separated struct type names; default: every struct with an elicit tag or a //mcpgen:tool or //mcpgen:question directive")
	tags := fs.String("tags", "", "comma-separated build tags to apply when loading")
	version := fs.Bool("version", false, "print the version and exit")
	verbose := fs.Bool("v", false, "list the files written or removed")
	fs.Bool("q", false, "no effect (mcpgen is silent unless -v); accepted for compatibility")
	check := fs.Bool("check", false, "write nothing; exit 1 listing each generated file that is stale, missing or to be removed")
	legacyEnums := fs.Bool("legacy-enum-names", false, "write titled single selects as the deprecated enum + enumNames (MCP 2025-06-18) instead of oneOf const+title")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, "mcpgen", buildVersion())
		return 0
	}
	cfg := annotate.Config{Patterns: fs.Args(), Types: splitList(*typeNames), BuildTags: splitList(*tags), LegacyEnumNames: *legacyEnums}
	for _, t := range cfg.Types {
		if !token.IsIdentifier(t) {
			fmt.Fprintf(stderr, "mcpgen: -type %q is not a Go identifier\n", t)
			return 2
		}
	}
	// A rerun whose inputs are those of a run that found every file
	// current has nothing to do (see package memo); -check always looks.
	var inputs *memo.Memo
	if !*check {
		inputs = memo.New(memo.Config{Args: args, Patterns: cfg.Patterns, BuildTags: cfg.BuildTags})
		if inputs.Current() {
			memoized++
			return 0
		}
	}
	wd, _ := os.Getwd()
	pkgs, diags := annotate.Load(cfg)
	if len(diags) > 0 {
		return report(stderr, wd, diags)
	}
	generating := false
	for _, p := range pkgs {
		generating = generating || len(p.Structs) > 0
	}
	if !generating {
		fmt.Fprintln(stderr, "mcpgen: no struct with an elicit tag or a //mcpgen:tool directive found; tag a field (elicit:\"required\"), add //mcpgen:tool to the struct's doc comment, or name the type with -type")
		return 1
	}
	command := annotate.CommandLine(relArgs(wd, args))
	var files []gen.File
	for _, p := range pkgs {
		// Render each struct as its own //go:generate line would, whichever
		// line runs mcpgen: then one directive for a whole tree (./...) and
		// the packages' own directives write the same bytes, and -check
		// agrees with both.
		p.UseDirectives()
		for _, s := range p.Structs {
			if s.Command == "" {
				s.Command = command
			}
		}
		if !*check && gen.Current(p) {
			// Nothing to write: every file carries the digest of this
			// run's input and of its own content.
			continue
		}
		rendered++
		fs, err := gen.Generate(p)
		if err != nil {
			fmt.Fprintln(stderr, "mcpgen:", err)
			return 1
		}
		// The package with its new files must compile before any is written.
		if diags := annotate.TypeCheck(p, typeCheckFiles(fs)); len(diags) > 0 {
			return report(stderr, wd, diags)
		}
		files = append(files, fs...)
	}
	if *check {
		return checkFiles(stderr, wd, files)
	}
	if len(files) == 0 {
		inputs.Record() // every package was current: nothing to write
		return 0
	}
	res, err := gen.Write(underGoGenerate(files))
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return 1
	}
	if *verbose {
		for _, f := range res.Written {
			fmt.Fprintln(stderr, "mcpgen: wrote", rel(wd, f))
		}
		gone := map[string][]string{}
		for _, p := range pkgs {
			for _, st := range p.Stale {
				gone[st.Path] = st.Types
			}
		}
		for _, f := range res.Removed {
			fmt.Fprintf(stderr, "mcpgen: removed stale %s (%s)\n", rel(wd, f), goneTypes(gone[f]))
		}
		for _, f := range res.Emptied {
			if len(gone[f]) == 0 {
				continue
			}
			fmt.Fprintf(stderr, "mcpgen: emptied stale %s (%s); the next run removes it\n", rel(wd, f), goneTypes(gone[f]))
		}
	}
	return 0
}

// rendered counts the packages rendered (not skipped as current), and
// memoized the runs that the memo ended before loading, for tests.
var rendered, memoized int

// report prints diagnostics, relative to wd, and returns exit status 1.
func report(stderr io.Writer, wd string, diags []annotate.Diagnostic) int {
	for _, d := range diags {
		fmt.Fprintln(stderr, d.Format(wd))
	}
	return 1
}

// typeCheckFiles maps the files of one package to what annotate.TypeCheck
// takes: the new content of each file that will be written (a handler file
// only when it does not exist yet), nil for each file to be removed.
func typeCheckFiles(files []gen.File) map[string][]byte {
	out := map[string][]byte{}
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
	return out
}

// checkFiles compares files with what is on disk (mcpgen -check): each
// generated file that differs or is missing, each handler file that is
// missing, and each stale file still present is one line; exit status 1
// when there is any.
func checkFiles(stderr io.Writer, wd string, files []gen.File) int {
	code := 0
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		var what string
		switch {
		case f.Remove:
			if err == nil && annotate.IsGenerated(b) {
				what = "orphaned (its type no longer exists); run go generate to remove it"
			}
		case err != nil:
			what = "missing; run go generate"
		case !f.Once && !bytes.Equal(b, f.Content):
			what = "stale; run go generate"
		}
		if what != "" {
			fmt.Fprintf(stderr, "%s: %s\n", rel(wd, f.Path), what)
			code = 1
		}
	}
	return code
}

// underGoGenerate keeps `go generate` working when a run removes a stale
// file: go generate lists a package's files before it runs the first
// directive and then opens each in turn, so removing one it has not reached
// yet makes it fail ("open …: no such file or directory"). Under go
// generate ($GOFILE set), a stale file in the directory of $GOFILE that
// sorts after it (or any stale file elsewhere) is emptied to a stub that the
// build ignores instead; a later run removes it.
func underGoGenerate(files []gen.File) []gen.File {
	goFile := os.Getenv("GOFILE")
	if goFile == "" {
		return files
	}
	wd, _ := os.Getwd()
	for i, f := range files {
		if !f.Remove {
			continue
		}
		if b, err := os.ReadFile(f.Path); err == nil && bytes.Contains(b, []byte(annotate.StaleStubNote)) {
			continue // emptied by an earlier run: go generate does not list it
		}
		if filepath.Dir(f.Path) != wd || filepath.Base(f.Path) > goFile {
			files[i].Defer = true
		}
	}
	return files
}

// relArgs returns args with each absolute path made relative to wd, so that
// the command line in generated headers is the same on every machine.
func relArgs(wd string, args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if filepath.IsAbs(a) {
			if r, err := filepath.Rel(wd, a); err == nil {
				out[i] = filepath.ToSlash(r)
			}
		}
	}
	return out
}

// goneTypes is "type A no longer exists" or "types A, B no longer exist".
func goneTypes(names []string) string {
	if len(names) == 0 {
		return "emptied by an earlier run"
	}
	if len(names) == 1 {
		return "type " + names[0] + " no longer exists"
	}
	return "types " + strings.Join(names, ", ") + " no longer exist"
}

func rel(wd, path string) string {
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
