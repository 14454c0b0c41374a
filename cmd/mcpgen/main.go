// Command mcpgen generates MCP elicitation code for Go structs whose fields
// carry `elicit:"…"` tags: schema validation, the flat requestedSchema of the
// missing fields, and the accept/decline/cancel switch with a handler
// skeleton, all backed by github.com/mcpgen/mcpgen/runtime.
//
// Usage:
//
//	mcpgen [-type T1,T2] [-tags list] [-clients list] [-v] [-check] [packages]
//	mcpgen keygen
//	mcpgen init [-pkg dir] [-o file] [-tags list] [-v]
//	mcpgen preview [-o dir | -serve addr] [-clients widely|all|id,id] [-tags list] [packages]
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
// loads them all once in one process. A generated file's bytes depend only
// on its struct and mcpgen's version, so every directive that reaches a
// struct writes the same file.
// For each struct T it writes t_elicit.go (regenerated when its input
// changed; a package whose files hold what this build of mcpgen renders
// for their model is not rendered at all) and
// t_handler.go (written once; yours to edit; not written at all when the
// package already declares T's handler type, e.g. in a file you renamed).
// A t_elicit.go whose type no longer exists (renamed or deleted) is removed
// (under go generate, one that go generate has yet to read is emptied to a
// stub whose own //go:generate line removes it). The package is
// type-checked with the new files before any is written.
//
// mcpgen prints nothing on success; -v lists the files written or removed
// (-q is accepted and does nothing). -check writes nothing, lists each
// generated file that is stale, missing or orphaned on stderr, and prints
// the unified diff of what go generate would change on stdout (with nothing
// to generate and nothing stale, -check has nothing to say and exits 0).
//
// mcpgen init writes, once, a main.go that serves the tools of the package
// main in -pkg (default: the current directory) over Streamable HTTP
// (-http ADDR, default 127.0.0.1:8080) or stdio (-stdio): keys and Redis
// from MCPGEN_STATE_KEYS and MCPGEN_REDIS_URL with the multi-instance
// warning, slog, development bearer tokens (runtime/devauth, loopback
// only), graceful shutdown on SIGINT and SIGTERM. It never overwrites a file.
//
// The build-time client check warns, as file:line:col: warning: …, about
// each feature of a form that a client renders badly (package clients has
// the table): -clients widely (the default), all, none, or client ids;
// //mcpgen:clients LIST or //mcpgen:clients off in a struct's or a file's
// doc comment overrides it there. It warns about what a client breaks (its
// user cannot answer as intended); -v adds what a client degrades and each
// warning's source. Warnings never change the exit status nor stop the
// files being written; -check, which is about files, judges no client.
//
// The terminal MCP client that answers forms is a command of its own,
// github.com/mcpgen/mcpgen/mcpgen-call, so that a module running the
// generator as a tool gains none of its terminal UI; mcpgen call says so
// and exits 2.
//
// mcpgen preview writes one self-contained HTML page (index.html in -o DIR,
// default mcpgen-preview; or serves it on a loopback -serve ADDR) showing
// each form of the packages as each client of the client table renders it
// (package clients), beside the specification's rendering.
//
// Exit status: 0 on success, 1 when there are diagnostics (printed as
// file:line:col: message, all of them; no file is written) or, with -check,
// files to regenerate; 2 on usage errors.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/mod/modfile"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/annotate/clientcheck"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/driver"
	"github.com/mcpgen/mcpgen/gen/preview"
	"github.com/mcpgen/mcpgen/gen/scaffold"
	"github.com/mcpgen/mcpgen/internal/keygen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(fs *flag.FlagSet, w io.Writer) func() {
	return func() {
		fmt.Fprintf(w, "usage: mcpgen [-type T1,T2] [-tags list] [-clients list] [-v] [-check] [packages]\n       mcpgen keygen\n"+
			"       mcpgen init [-pkg dir] [-o file] [-tags list] [-v]\n"+
			"       mcpgen preview [-o dir | -serve addr] [-clients widely|all|id,id] [packages] (mcpgen preview -h)\n"+
			"       mcpgen -version\n\nFlags:\n")
		fs.PrintDefaults()
	}
}

// The terminal MCP client, a command of its own (mcpgen-call): the
// generator does not link it (deps_test.go).
const (
	callPackage = "github.com/mcpgen/mcpgen/mcpgen-call"
	callCommand = "go tool mcpgen-call"
)

// removedFlags are flags earlier versions took, each with what to do instead.
var removedFlags = map[string]string{
	"legacy-enum-names": "-legacy-enum-names was removed (a file's bytes must not depend on which directive wrote it); add //mcpgen:enumnames to the doc comment of each struct that needs enum + enumNames",
}

// misspeltCommand says what is wrong when arg, mcpgen's first argument in
// the directory wd, is a URL or a misspelt subcommand rather than a package
// ("" otherwise): the package loader would report "package int is not in
// std" or a malformed import path.
func misspeltCommand(wd, arg string) string {
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		return fmt.Sprintf("%s is a URL: to call its tools, run %s %s", arg, callCommand, arg)
	}
	if strings.ContainsAny(arg, "./\\-") {
		return ""
	}
	switch arg {
	case "all", "std", "cmd", "tool", "work": // the go command's package patterns
		return ""
	}
	if fi, err := os.Stat(filepath.Join(wd, arg)); err == nil && fi.IsDir() {
		return "" // a package directory of that name
	}
	if mod := modulePath(wd); mod == arg || strings.HasPrefix(mod, arg+"/") {
		return "" // the main module's path (go mod init calc), or its first element
	}
	if cmd := annotate.Nearest(arg, []string{"init", "keygen", "preview"}); cmd != "" {
		return fmt.Sprintf("unknown command %q: did you mean mcpgen %s? (a package in a directory of that name is ./%s; see mcpgen -h)", arg, cmd, arg)
	}
	return ""
}

// modulePath returns the module path in the go.mod of the directory dir
// or its nearest parent that has one, or "".
func modulePath(dir string) string {
	for {
		if b, rerr := os.ReadFile(filepath.Join(dir, "go.mod")); rerr == nil {
			return modfile.ModulePath(b)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

func run(args []string, stdout, stderr io.Writer) int {
	code, _ := execute("", args, stdout, stderr)
	return code
}

// execute runs mcpgen with args in the directory dir ("" = the current
// one; tests run in parallel, each in its own module, by it) and returns
// its exit status and, when the pipeline ran, its result (tests read
// whether the memo ended the run). The subcommands init and preview run in
// dir too.
func execute(dir string, args []string, stdout, stderr io.Writer) (int, *driver.Result) {
	wd := dir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	if code, done := subcommand(wd, args, stdout, stderr); done {
		return code, nil
	}
	opts, verbose, code := parseFlags(dir, args, stdout, stderr)
	if opts == nil {
		return code, nil
	}
	res, err := driver.Run(*opts)
	if errors.Is(err, driver.ErrNothingToGenerate) && opts.Check {
		return 0, res // nothing generated, nothing stale: nothing to regenerate
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return 1, res
	}
	if len(res.Diagnostics) > 0 {
		return report(stderr, wd, res.Diagnostics), res
	}
	warn(stderr, wd, res.Warnings, verbose)
	if opts.Check {
		return printChanges(stdout, stderr, wd, res), res
	}
	return write(stderr, wd, res, verbose), res
}

// subcommand runs mcpgen's subcommands (keygen, init, preview) and answers
// call and a misspelt subcommand; done is false for a generation's command
// line.
func subcommand(wd string, args []string, stdout, stderr io.Writer) (code int, done bool) {
	if len(args) > 0 && args[0] == "call" {
		fmt.Fprintf(stderr, "mcpgen: call is a command of its own: run %s (go get -tool %s)\n", callCommand, callPackage)
		return 2, true
	}
	if len(args) > 0 && args[0] == "keygen" {
		if len(args) > 1 {
			fmt.Fprintln(stderr, "mcpgen: keygen takes no arguments")
			return 2, true
		}
		fmt.Fprintln(stdout, keygen.New())
		return 0, true
	}
	if len(args) > 0 && args[0] == "init" {
		return initMain(wd, args[1:], stderr), true
	}
	if len(args) > 0 && args[0] == "preview" {
		return previewMain(wd, args[1:], stderr), true
	}
	if len(args) > 0 {
		if msg := misspeltCommand(wd, args[0]); msg != "" {
			fmt.Fprintln(stderr, "mcpgen:", msg)
			return 2, true
		}
	}
	return 0, false
}

// parseFlags reads a generation's command line into the driver's options
// and -v, or returns nil and the exit status after printing why (0 for -h
// and -version).
func parseFlags(dir string, args []string, stdout, stderr io.Writer) (opts *driver.Options, verbose bool, code int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if msg, ok := removedFlags[name]; ok {
			fmt.Fprintln(stderr, "mcpgen:", msg)
			return nil, false, 2
		}
		if (name == "type" || name == "tags" || name == "clients") && !hasValue {
			i++ // the flag's value
		}
	}
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = usage(fs, stderr)
	typeNames := fs.String("type", "", "comma-separated struct type names; default: every struct with an elicit tag or a //mcpgen:tool or //mcpgen:question directive")
	tags := fs.String("tags", "", "comma-separated build tags to apply when loading")
	version := fs.Bool("version", false, "print the version and exit")
	v := fs.Bool("v", false, "list the files written or removed; the client check also warns about what a client degrades, with each warning's source")
	fs.Bool("q", false, "no effect (mcpgen is silent unless -v); accepted for compatibility")
	clientsFlag := fs.String("clients", "widely", "the clients whose rendering of each form to warn about: widely (the widely used ones), all, none, or client ids (id1,id2); a //mcpgen:clients directive overrides it for its struct or file, except none, which turns the check off")
	check := fs.Bool("check", false, "write nothing; exit 1 listing each generated file that is stale, missing or to be removed, with the diff on stdout")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, false, 0
		}
		return nil, false, 2
	}
	if *version {
		// The version generated headers name.
		fmt.Fprintln(stdout, "mcpgen", gen.Version())
		return nil, false, 0
	}
	chosen, perr := annotate.ParseClientList(*clientsFlag)
	if perr != nil {
		fmt.Fprintf(stderr, "mcpgen: -clients: %v\n", perr)
		return nil, false, 2
	}
	opts = &driver.Options{Dir: dir, Patterns: fs.Args(), Types: splitList(*typeNames), BuildTags: splitList(*tags), Check: *check, Args: args, Clients: &chosen}
	if *v {
		opts.ClientLevel = clientcheck.Degrades
	}
	for _, t := range opts.Types {
		if !token.IsIdentifier(t) {
			fmt.Fprintf(stderr, "mcpgen: -type %q is not a Go identifier\n", t)
			return nil, false, 2
		}
	}
	return opts, *v, 0
}

// printChanges lists, for -check, each file that would change (stderr) with
// its diff (stdout), and returns 1 when there is one.
func printChanges(stdout, stderr io.Writer, wd string, res *driver.Result) int {
	code := 0
	for _, c := range res.Changes() {
		fmt.Fprintf(stderr, "%s: %s\n", rel(wd, c.Path), c.Reason())
		fmt.Fprint(stdout, c.Diff(wd))
		code = 1
	}
	return code
}

// write writes what the run generated and reports hand-edited files it
// overwrote and, with verbose, every file written, removed or emptied.
func write(stderr io.Writer, wd string, res *driver.Result, verbose bool) int {
	written, err := res.Write()
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return 1
	}
	for _, f := range written.HandEdited {
		fmt.Fprintln(stderr, "mcpgen:", driver.OverwroteEdit(rel(wd, f)))
	}
	if verbose {
		for _, f := range written.Written {
			fmt.Fprintln(stderr, "mcpgen: wrote", rel(wd, f))
		}
		why := res.StaleReasons()
		for _, f := range written.Removed {
			fmt.Fprintf(stderr, "mcpgen: removed stale %s (%s)\n", rel(wd, f), why[f])
		}
		for _, f := range written.Emptied {
			fmt.Fprintf(stderr, "mcpgen: emptied stale %s (%s); go generate removes it when it reaches it\n", rel(wd, f), why[f])
		}
	}
	return 0
}

// report prints diagnostics, relative to wd, and returns exit status 1.
func report(stderr io.Writer, wd string, diags []annotate.Diagnostic) int {
	for _, d := range diags {
		fmt.Fprintln(stderr, d.Format(wd))
	}
	return 1
}

// warn prints the client check's warnings, relative to wd (with verbose,
// each with its source on a second line); they change no exit status.
func warn(stderr io.Writer, wd string, warnings []annotate.Diagnostic, verbose bool) {
	clients := 0
	for _, d := range warnings {
		fmt.Fprintln(stderr, d.Format(wd))
		if verbose && d.URL != "" {
			fmt.Fprintf(stderr, "\tsource: %s\n", d.URL)
		}
		if d.Category == clientcheck.Category {
			clients++
		}
	}
	if clients > 0 {
		// Printed on every run (a memoised run prints those recorded):
		// say once how to choose what is judged.
		fmt.Fprintf(stderr, "mcpgen: %d client %s, printed on every run; -clients or //mcpgen:clients chooses the clients judged (-clients none: none)\n",
			clients, plural(clients, "warning", "warnings"))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func rel(wd, path string) string {
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// within is path, a flag's, as seen from the directory wd.
func within(wd, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(wd, path)
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

// initMain runs `mcpgen init` in the directory wd: the flags here, the
// work in gen/scaffold.
func initMain(wd string, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("pkg", ".", "the directory of the package main whose tools the server serves")
	out := fs.String("o", "", "the file to write, in that directory (default main.go)")
	tags := fs.String("tags", "", "comma-separated build tags to apply when loading")
	verbose := fs.Bool("v", false, "name the file written")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen init [-pkg dir] [-o file] [-tags list] [-v]\n\nWrites, once, a main.go serving the package's tools.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcpgen init: unexpected argument %q (name the package's directory with -pkg)\n", fs.Arg(0))
		return 2
	}
	path, diags, err := scaffold.Init(scaffold.Options{Dir: *dir, Out: *out, BuildTags: splitList(*tags), WorkDir: wd})
	if len(diags) > 0 {
		return report(stderr, wd, diags)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen init:", err)
		return 1
	}
	if *verbose {
		fmt.Fprintln(stderr, "mcpgen: wrote", rel(wd, path))
	}
	return 0
}

// previewMain runs `mcpgen preview` in the directory wd: the flags here,
// the work in gen/preview.
func previewMain(wd string, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen preview", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the directory to write index.html into (default mcpgen-preview)")
	serve := fs.String("serve", "", "serve the page on this loopback address (127.0.0.1:8090) instead of writing it; each reload loads the packages again")
	which := fs.String("clients", "widely", "the clients shown: widely (those the check cares about), all, or client IDs separated by commas")
	tags := fs.String("tags", "", "comma-separated build tags to apply when loading")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen preview [-o dir | -serve addr] [-clients widely|all|id,id] [-tags list] [packages]\n\n"+
			"Writes one HTML page showing each form of the packages as each client renders it.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *out != "" && *serve != "" {
		fmt.Fprintln(stderr, "mcpgen preview: -o and -serve exclude each other")
		return 2
	}
	cs, err := preview.SelectClients(*which)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen preview: -clients:", err)
		return 2
	}
	opts := preview.Options{Dir: wd, Patterns: fs.Args(), BuildTags: splitList(*tags), Clients: cs,
		Command: strings.Join(append([]string{"mcpgen", "preview"}, args...), " ")}
	if *serve != "" {
		if err := preview.Loopback(*serve); err != nil {
			fmt.Fprintln(stderr, "mcpgen preview:", err)
			return 2
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		err := preview.Serve(ctx, *serve, opts, func(addr string) {
			fmt.Fprintf(stderr, "mcpgen preview: serving http://%s/ (Ctrl-C stops)\n", addr)
		})
		if err != nil {
			fmt.Fprintln(stderr, "mcpgen preview:", err)
			return 1
		}
		return 0
	}
	html, diags, err := preview.Generate(opts)
	if len(diags) > 0 {
		return report(stderr, wd, diags)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen preview:", err)
		return 1
	}
	path, err := preview.WriteDir(within(wd, cmp.Or(*out, "mcpgen-preview")), html)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen preview:", err)
		return 1
	}
	fmt.Fprintln(stderr, "mcpgen preview: wrote", rel(wd, path))
	return 0
}
