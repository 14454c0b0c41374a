// Command mcpgen generates MCP elicitation code for Go structs whose fields
// carry `elicit:"…"` tags: schema validation, the flat requestedSchema of the
// missing fields, and the accept/decline/cancel switch with a handler
// skeleton, all backed by github.com/mcpgen/mcpgen/runtime.
//
// Usage:
//
//	mcpgen [-type T1,T2] [-tags list] [-legacy-enum-names] [packages]
//	mcpgen keygen
//	mcpgen -version
//
// With no packages, mcpgen works on the package in the current directory, so
// a bare
//
//	//go:generate go tool mcpgen -type BookFlightArgs
//
// works. Without -type it generates for every struct with an elicit tag.
// -legacy-enum-names writes titled single selects as the deprecated
// enum + enumNames (MCP 2025-06-18) instead of oneOf const/title, for every
// struct (the //mcpgen:enumnames directive does it for one).
// For each struct T it writes t_elicit.go (regenerated every run) and
// t_handler.go (written once; yours to edit; not written at all when the
// package already declares T's handler type, e.g. in a file you renamed).
// A t_elicit.go whose type no longer exists (renamed or deleted) is removed.
//
// Exit status: 0 on success, 1 when there are diagnostics (printed as
// file:line:col: message, all of them; no file is written), 2 on usage errors.
package main

import (
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
	mcpruntime "github.com/mcpgen/mcpgen/runtime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(fs *flag.FlagSet, w io.Writer) func() {
	return func() {
		fmt.Fprintf(w, "usage: mcpgen [-type T1,T2] [-tags list] [-q] [-legacy-enum-names] [packages]\n       mcpgen keygen\n       mcpgen -version\n\nFlags:\n")
		fs.PrintDefaults()
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "keygen" {
		if len(args) > 1 {
			fmt.Fprintln(stderr, "mcpgen: keygen takes no arguments")
			return 2
		}
		fmt.Fprintln(stdout, mcpruntime.GenerateKey())
		return 0
	}
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = usage(fs, stderr)
	typeNames := fs.String("type", "", "comma-separated struct type names; default: every struct with an elicit tag")
	tags := fs.String("tags", "", "comma-separated build tags to apply when loading")
	version := fs.Bool("version", false, "print the version and exit")
	quiet := fs.Bool("q", false, "do not list the files written")
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
	wd, _ := os.Getwd()
	pkgs, diags := annotate.Load(cfg)
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(stderr, d.Format(wd))
		}
		return 1
	}
	generating := false
	for _, p := range pkgs {
		generating = generating || len(p.Structs) > 0
	}
	if !generating {
		fmt.Fprintln(stderr, "mcpgen: no struct with an elicit tag found; tag a field (elicit:\"required\") or name the type with -type")
		return 1
	}
	var files []gen.File
	for _, p := range pkgs {
		fs, err := gen.Generate(p)
		if err != nil {
			fmt.Fprintln(stderr, "mcpgen:", err)
			return 1
		}
		files = append(files, fs...)
	}
	res, err := gen.Write(files)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return 1
	}
	if !*quiet {
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
	}
	return 0
}

// goneTypes is "type A no longer exists" or "types A, B no longer exist".
func goneTypes(names []string) string {
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
