// Package scaffold writes the files a user starts from and then owns:
// `mcpgen init`'s main.go, a whole server for the package's tools.
//
// It is part of mcpgen's generator, exported for `mcpgen init` only: its API
// carries no compatibility promise.
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
	// WorkDir is the directory a relative Dir or Out is in ("": the
	// current directory); messages name them as given.
	WorkDir string
}

// abs is path made absolute from opts.WorkDir.
func (opts Options) abs(path string) (string, error) {
	if opts.WorkDir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(opts.WorkDir, path)
	}
	return filepath.Abs(path)
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
	absDir, err := opts.abs(dir)
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
	out, err = opts.abs(out)
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
	var tools, urlQuestions []*annotate.Struct
	for _, p := range pkgs {
		for _, s := range p.Structs {
			switch {
			case !s.Question:
				pkg = p
				tools = append(tools, s)
			case s.URLMode:
				urlQuestions = append(urlQuestions, s)
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
	names := declared
	if len(urlQuestions) > 0 {
		names = append(slices.Clone(declared), declaredForPages...)
	}
	if clash := slices.DeleteFunc(slices.Clone(pkg.TakenNames), func(n string) bool { return !slices.Contains(names, n) }); len(clash) > 0 {
		return "", nil, fmt.Errorf("%s: the package declares %s, which the main mcpgen init writes declares or imports; rename yours", pkg.Dir, strings.Join(clash, ", "))
	}
	constraint, err := sharedConstraint(tools)
	if err != nil {
		return "", nil, err
	}
	src, err := Render(path.Base(pkg.Path), tools, pkg.Tools, urlQuestions)
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

// declared are the package-level names the main declares or imports;
// declaredForPages those it adds for a package with URL-mode questions.
var (
	declared = []string{"main", "serve", "context", "flag", "slog", "net", "http", "os", "signal", "syscall",
		"mcp", "runtime", "devauth", "mcpsdk", "otelenv", "redisstore"}
	declaredForPages = []string{"pages", "pagePath", "url", "page"}
)

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

// Render returns the main.go that serves tools as command name (the
// Implementation name the server reports), gofmt-formatted. urlQuestions
// are the package's URL-mode questions: when there are any, the main also
// serves their pages and a development sign-in. inFlows are the tools the
// package's generated Flows returns (annotate.Package.Tools); a tool of
// tools not among them (its file has a build constraint) is registered
// with its own New<T>Flow after them.
func Render(name string, tools []*annotate.Struct, inFlows []annotate.ToolEntry, urlQuestions []*annotate.Struct) ([]byte, error) {
	data := struct {
		Name, Names, Flows, URLQuestions string
		URLMode, NeedRuntime             bool
	}{Name: name, URLMode: len(urlQuestions) > 0}
	var names, questions []string
	for _, s := range tools {
		names = append(names, s.Tool)
	}
	for _, q := range urlQuestions {
		questions = append(questions, q.Name)
	}
	data.Names = strings.Join(names, ", ")
	data.URLQuestions = strings.Join(questions, ", ")
	// Every tool through the package's generated registration (Flows, in
	// mcpgen_tools.go): a tool added later is served after go generate,
	// with no edit here. The main imports runtime only for pages.
	data.Flows = "Flows(Handlers{})"
	data.NeedRuntime = data.URLMode
	var own []string
	for _, t := range tools {
		if !slices.ContainsFunc(inFlows, func(e annotate.ToolEntry) bool { return e.Struct == t.Name }) {
			own = append(own, t.Names.FlowFunc+"("+t.Names.HandlerType+"{})")
		}
	}
	switch {
	case len(own) > 0 && len(inFlows) > 0:
		data.Flows = "append(" + data.Flows + ", " + strings.Join(own, ", ") + ")"
	case len(own) > 0:
		data.Flows = "[]*runtime.Flow{" + strings.Join(own, ", ") + "}"
		data.NeedRuntime = true
	}
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
// each requestState, so one user cannot resume another's call. Over stdio
// the caller is MCPGEN_PRINCIPAL, else the operating system's user
// (mcpsdk.StdioPrincipal).
{{- if .URLMode}}
//
// URL-mode questions ({{.URLQuestions}}) are answered on this server's own
// page, at /elicit/ (runtime/page), by the user who signs in at /login. That
// sign-in is a DEVELOPMENT one (devauth.SignIn: alice / alice-password, bob /
// bob-password; loopback only): replace it with your own, naming the same
// users as your tokens. MCPGEN_PAGE_URL is the page's URL as browsers reach
// it (behind a proxy or TLS; its path is where the page is served).
{{- end}}
//
// Routes of your own go on the mux in serve: they are served with the same
// connection bounds and graceful shutdown as /mcp.
//
// Environment: MCPGEN_STATE_KEYS (mcpgen keygen) and MCPGEN_REDIS_URL, shared
// by instances behind a load balancer (without them the server warns that
// only this instance can resume its calls); MCPGEN_INSTANCE=s1, s2, … behind
// stock nginx, so that older clients' session ids name their instance;
// OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER turn telemetry on
// (runtime/otelenv; off unless set).
package main

import (
	"context"
	"flag"
	"log/slog"
	"net"
	"net/http"
{{- if .URLMode}}
	"net/url"
{{- end}}
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
{{if .NeedRuntime}}
	"github.com/mcpgen/mcpgen/runtime"
{{- end}}
	"github.com/mcpgen/mcpgen/runtime/devauth"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelenv"
{{- if .URLMode}}
	"github.com/mcpgen/mcpgen/runtime/page"
{{- end}}
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
	// Traces and metrics from OTEL_* (off unless set).
	shutdown, err := otelenv.Start(ctx, "{{.Name}}", stdio)
	if err != nil {
		return err
	}
	defer otelenv.Stop(shutdown, func(err error) { log.Warn("telemetry shutdown", "err", err) })
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
	// MCPGEN_INSTANCE=s1: older clients' session ids read "s1.<random>".
	sessionIDs, err := mcpsdk.InstanceSessionIDs(os.Getenv(mcpsdk.EnvInstance))
	if err != nil {
		return err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "{{.Name}}", Version: "0.1.0"}, &mcp.ServerOptions{GetSessionID: sessionIDs})
	opts := &mcpsdk.Options{Flow: flows}
	otelenv.Instrument(s, &opts.Flow)
	mcpsdk.AddTools(s, {{.Flows}}, opts)
	if stdio {
		// No bearer token over stdio: the caller is MCPGEN_PRINCIPAL, else
		// the operating system's user.
		if opts.Principal, err = mcpsdk.StdioPrincipal(); err != nil {
			return err
		}
		log.Info("serving MCP over stdio", "principal", opts.Principal(ctx, nil))
		return mcpsdk.ServeStdio(ctx, s)
	}
	dev := devauth.New() // development tokens: replace before serving anyone else
	if err := dev.CheckAddr(addr); err != nil {
		return err
	}
	if os.Getenv(devauth.EnvAnyAddr) == "1" {
		log.Warn("serving the public development tokens beyond loopback (" + devauth.EnvAnyAddr + "=1): anyone who reaches " + addr + " can call as alice or bob")
	}
	endpoint := mcpsdk.NewHTTPHandler(s, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", otelenv.HTTP(dev.Middleware())(endpoint))
{{- if .URLMode}}
	if err := pages(mux, &opts.Flow, log); err != nil {
		return err
	}
{{- end}}
	// Add your own routes here, e.g.
	// mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {})
	return mcpsdk.Serve(ctx, addr, endpoint, mux, func(a net.Addr) {
{{- if .URLMode}}
		if opts.Flow.PageURL == "" {
			opts.Flow.PageURL = "http://" + a.String() + pagePath
		}
{{- end}}
		log.Info("serving MCP (development bearer tokens alice-token, bob-token)", "url", "http://"+a.String()+"/mcp"{{if .URLMode}}, "page", opts.Flow.PageURL{{end}})
	})
}
{{- if .URLMode}}

// pagePath is where the pages of URL-mode questions are served, unless
// MCPGEN_PAGE_URL names another path.
const pagePath = "/elicit/"

// pages mounts on mux the pages of URL-mode questions (runtime/page) at
// MCPGEN_PAGE_URL's path, else pagePath, and the development sign-in that
// identifies their user at /login.
func pages(mux *http.ServeMux, o *runtime.Options, log *slog.Logger) error {
	o.PageURL = os.Getenv("MCPGEN_PAGE_URL") // "": http://ADDR/elicit/, once the address is known
	where := o.PageURL
	if where == "" {
		where = pagePath
	}
	signIn, err := devauth.NewSignIn(o.Keys, where) // development sign-in: replace before serving anyone else
	if err != nil {
		return err
	}
	opts := page.Options{Identify: signIn.Identify, Title: "{{.Name}}", Logger: log}
	if u, err := url.Parse(o.PageURL); err == nil && o.PageURL != "" {
		// Browsers post the page from MCPGEN_PAGE_URL's origin, which a
		// proxy may not pass on as Host.
		opts.TrustedOrigins = []string{u.Scheme + "://" + u.Host}
		where = u.Path
	}
	mux.Handle(where, page.Handler(o, opts))
	mux.Handle(devauth.SignInPath, signIn)
	return nil
}
{{- end}}
`))
