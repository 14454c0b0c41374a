// Package scaffold writes the files a user starts from and then owns:
// `mcpgen init`'s main.go, a whole server for the package's tools.
package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/mcpgen/mcpgen/annotate"
)

// Options say where `mcpgen init` reads and writes.
type Options struct {
	// Dir is the directory of the package whose tools the main serves
	// ("": the current directory).
	Dir string
	// Out is the file to write ("": main.go in Dir). It must be in Dir:
	// the main calls the package's unexported handler types.
	Out string
	// BuildTags are the build tags to load the package with (-tags).
	BuildTags []string
}

// ErrExists is wrapped by the error [Init] returns when the file to write
// already exists: a scaffold is written once and never overwritten (as the
// handler skeleton is).
var ErrExists = errors.New("exists")

// Init writes a main.go that serves every tool of the package in
// opts.Dir (its //mcpgen:tool structs and those with elicit tags; questions
// are asked by branches, not registered) and returns the path written. The
// package must be package main without a func main of its own. A problem of
// the package's tags comes back as diagnostics (nothing is written), as
// `mcpgen` itself would print them; any other problem as an error naming
// the file or package at fault.
func Init(opts Options) (string, []annotate.Diagnostic, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	if fi, err := os.Stat(absDir); err != nil || !fi.IsDir() {
		return "", nil, fmt.Errorf("-pkg %s: no such directory (name the directory of your package main)", dir)
	}
	out := opts.Out
	if out == "" {
		out = filepath.Join(absDir, "main.go")
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return "", nil, err
	}
	if _, err := os.Lstat(out); err == nil {
		return "", nil, fmt.Errorf("%s: %w; mcpgen init never overwrites a file: remove it or name another with -o", out, ErrExists)
	}
	pkgs, diags := annotate.Load(annotate.Config{Dir: absDir, Patterns: []string{"."}, BuildTags: opts.BuildTags})
	if len(diags) > 0 {
		return "", diags, nil
	}
	var pkg *annotate.Package
	var tools []*annotate.Struct
	for _, p := range pkgs {
		for _, s := range p.Structs {
			if !s.Question {
				pkg = p
				tools = append(tools, s)
			}
		}
	}
	if pkg == nil {
		return "", nil, fmt.Errorf("%s: no tool: mark a struct //mcpgen:tool or tag its fields elicit:\"…\", then run mcpgen init again", absDir)
	}
	if pkg.Name != "main" {
		return "", nil, fmt.Errorf("%s: package %s is not package main: its handler types are unexported, so a main elsewhere cannot construct them; declare the tools in package main (or write the main by hand from the one mcpgen init writes)", pkg.Dir, pkg.Name)
	}
	if filepath.Dir(out) != pkg.Dir {
		return "", nil, fmt.Errorf("-o %s: not in %s, the directory of the tools' package main (a main.go belongs to its package's directory)", out, pkg.Dir)
	}
	if err := checkNoMain(pkg.Dir, opts.BuildTags); err != nil {
		return "", nil, err
	}
	if clash := slices.DeleteFunc(slices.Clone(pkg.TakenNames), func(n string) bool { return !slices.Contains(declared, n) }); len(clash) > 0 {
		return "", nil, fmt.Errorf("%s: the package declares %s, which the main mcpgen init writes declares or imports; rename yours", pkg.Dir, strings.Join(clash, ", "))
	}
	constraint, err := sharedConstraint(tools)
	if err != nil {
		return "", nil, err
	}
	src, err := Render(path.Base(pkg.Path), tools)
	if err != nil {
		return "", nil, err
	}
	if constraint != "" {
		src = append([]byte("//go:build "+constraint+"\n\n"), src...)
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return "", nil, fmt.Errorf("%s: %w; mcpgen init never overwrites a file: remove it or name another with -o", out, ErrExists)
	}
	if err != nil {
		return "", nil, err
	}
	if _, err := f.Write(src); err != nil {
		f.Close()
		return "", nil, err
	}
	return out, nil, f.Close()
}

// sharedConstraint returns the build constraint the main must carry to
// build where the tools it registers do: the AND of the tools' constraints,
// each once ("" when none has one). Under it every tool's files are in the
// build whenever the main is. An expression that does not parse is an
// error naming the tool.
func sharedConstraint(tools []*annotate.Struct) (string, error) {
	var all constraint.Expr
	seen := map[string]bool{}
	for _, t := range tools {
		if t.BuildConstraint == "" || seen[t.BuildConstraint] {
			continue
		}
		seen[t.BuildConstraint] = true
		x, err := constraint.Parse("//go:build " + t.BuildConstraint)
		if err != nil {
			return "", fmt.Errorf("%s: its build constraint %q: %w", t.Name, t.BuildConstraint, err)
		}
		if all == nil {
			all = x
		} else {
			all = &constraint.AndExpr{X: all, Y: x}
		}
	}
	if all == nil {
		return "", nil
	}
	return all.String(), nil
}

// declared are the package-level names the main declares or imports.
var declared = []string{"main", "serve", "context", "flag", "slog", "net", "os", "signal", "syscall", "mcp", "devauth", "mcpsdk", "redisstore"}

// checkNoMain returns an error naming the position of the package's own
// func main, if it has one (the main.go would declare a second).
func checkNoMain(dir string, tags []string) error {
	ctx := build.Default
	ctx.BuildTags = append(slices.Clone(ctx.BuildTags), tags...)
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	fset := token.NewFileSet()
	for _, name := range bp.GoFiles {
		file := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
				return fmt.Errorf("%s: the package already declares func main; mcpgen init writes a whole main.go (remove yours, or copy from a main.go written in an empty package)", fset.Position(fd.Pos()))
			}
		}
	}
	return nil
}

// tool is one registration line of the main.
type tool struct {
	Name, FlowFunc, HandlerType string
}

// Render returns the main.go that serves tools as command name (the
// Implementation name the server reports), gofmt-formatted.
func Render(name string, tools []*annotate.Struct) ([]byte, error) {
	data := struct {
		Name  string
		Tools []tool
		Names string
	}{Name: name}
	var names []string
	for _, s := range tools {
		data.Tools = append(data.Tools, tool{Name: s.Tool, FlowFunc: s.Names.FlowFunc, HandlerType: s.Names.HandlerType})
		names = append(names, s.Tool)
	}
	data.Names = strings.Join(names, ", ")
	var b bytes.Buffer
	if err := mainTemplate.Execute(&b, data); err != nil {
		return nil, err
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("scaffold: main.go does not parse: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

var mainTemplate = template.Must(template.New("main.go").Parse(`// Command {{.Name}} serves its MCP tools ({{.Names}}) over Streamable HTTP at
// /mcp, or over stdio. mcpgen init wrote this file once; it is yours to edit.
//
// Usage:
//
//	{{.Name}}                          # http://127.0.0.1:8080/mcp
//	{{.Name}} -http 127.0.0.1:9000
//	{{.Name}} -stdio                   # for a client that starts the server
//
// Over HTTP each request needs a bearer token. The tokens here are
// development ones (runtime/devauth: alice-token is alice, bob-token is bob),
// public, and refused on any address but loopback: before serving anyone
// else, replace devauth with auth.RequireBearerToken and a verifier of real
// tokens that sets TokenInfo.UserID and Expiration. The user is bound into
// each requestState, so one user cannot resume another's call.
//
// Instances behind a load balancer share MCPGEN_STATE_KEYS (mcpgen keygen)
// and MCPGEN_REDIS_URL; without them the server warns that only this
// instance can resume its calls.
package main

import (
	"context"
	"flag"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/devauth"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func main() {
	addr := flag.String("http", "127.0.0.1:8080", "serve Streamable HTTP at /mcp on this address")
	stdio := flag.Bool("stdio", false, "serve over stdin and stdout instead")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	slog.SetDefault(log)
	if err := serve(*addr, *stdio, log); err != nil {
		log.Error("{{.Name}}", "err", err)
		os.Exit(1)
	}
}

// serve serves the tools until SIGINT or SIGTERM, then shuts down
// gracefully (open requests get 5 seconds).
func serve(addr string, stdio bool, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Keys from MCPGEN_STATE_KEYS (random when unset), the store from
	// MCPGEN_REDIS_URL (this process's memory when unset).
	flows, closeStore, err := redisstore.OptionsFromEnv(ctx, func(msg string) { log.Warn(msg) })
	if err != nil {
		return err
	}
	defer closeStore()
	// One record per round (tool, outcome, duration; never an answer or the
	// state), and a branch's panic with its stack.
	flows.Logger = log
	s := mcp.NewServer(&mcp.Implementation{Name: "{{.Name}}", Version: "0.1.0"}, nil)
	opts := &mcpsdk.Options{Flow: flows}
{{- range .Tools}}
	mcpsdk.AddTool(s, {{.FlowFunc}}({{.HandlerType}}{}), opts)
{{- end}}
	if stdio {
		return mcpsdk.ServeStdio(ctx, s)
	}
	dev := devauth.New() // development tokens: replace before serving anyone else
	if err := dev.CheckAddr(addr); err != nil {
		return err
	}
	if os.Getenv(devauth.EnvAnyAddr) == "1" {
		log.Warn("serving the public development tokens beyond loopback (" + devauth.EnvAnyAddr + "=1): anyone who reaches " + addr + " can call as alice or bob")
	}
	return mcpsdk.ServeHTTPWith(ctx, addr, s, dev.Middleware(), func(a net.Addr) {
		log.Info("serving MCP (development bearer tokens alice-token, bob-token)", "url", "http://"+a.String()+"/mcp")
	})
}
`))
