// Command connect is an mcpgen example MCP server whose tool needs a secret
// the MCP client must never see: import_contacts imports the caller's
// contacts from a contacts service (a fake one, in process) that needs the
// user's API key. The first time, the tool asks for the key in URL mode
// (MCP 2026-07-28, client/elicitation, "URL Mode Elicitation Requests"):
// the client opens a link to this server's own page (runtime/page), where
// the user signs in and types the key; the server checks it with the
// service, keeps it encrypted, and imports. Later calls ask nothing.
//
// Usage:
//
//	go run ./examples/connect -http 127.0.0.1:8080   # MCP at /mcp, the page at /connect/, sign-in at /login
//	go run ./examples/connect -demo                  # serve and drive the cases, printing what happens
//
// Development identities only: MCP requests need a development bearer
// token (examples/internal/devauth: alice-token is alice, bob-token is
// bob); the page's sign-in form takes alice / alice-password and bob /
// bob-password and sets a development session cookie. The contacts
// service accepts ck-alice-123 (alice's three contacts) and ck-bob-456
// (bob's one). Never use any of these outside development.
//
// The page's URL is http://ADDR/connect/ on the -http address (localhost
// for an unspecified address); -page-url or MCPGEN_PAGE_URL sets it when
// browsers reach the server elsewhere (a proxy, TLS); its origin is then
// trusted for the page's and the sign-in's form posts. Like the other
// examples, instances share MCPGEN_STATE_KEYS and MCPGEN_REDIS_URL; with
// MCPGEN_REDIS_URL the users' sealed API keys live in that Redis too, in
// memory otherwise.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
	rdevauth "github.com/mcpgen/mcpgen/runtime/devauth"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelenv"
	"github.com/mcpgen/mcpgen/runtime/page"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// pagePath is the default path of the page handler on the server.
const pagePath = "/connect/"

func run(args []string) int {
	fs := flag.NewFlagSet("connect", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve MCP at /mcp (bearer tokens alice-token, bob-token), the page at /connect/ and the development sign-in at /login on this address, e.g. 127.0.0.1:8080")
	pageURL := fs.String("page-url", os.Getenv("MCPGEN_PAGE_URL"), "the page's URL as browsers reach it (default http://ADDR/connect/; env MCPGEN_PAGE_URL)")
	demoRun := fs.Bool("demo", false, "serve on a free loopback port and drive the cases, printing what happens")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*httpAddr != "") == *demoRun {
		fmt.Fprintln(os.Stderr, "connect: give exactly one of -http ADDR or -demo")
		fs.Usage()
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	opts, closeStore, err := redisstore.OptionsFromEnv(context.Background(), func(msg string) { log.Warn(msg) })
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	defer closeStore()
	if *demoRun {
		if err := demo(os.Stdout, opts.Keys); err != nil {
			log.Error("demo", "err", err)
			return 1
		}
		return 0
	}
	// OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER: off unless set.
	shutdown, err := otelenv.Start(context.Background(), "connect", false)
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	defer otelenv.Stop(shutdown, func(err error) { log.Warn("telemetry shutdown", "err", err) })
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		log.Error("listen", "err", err)
		return 1
	}
	if opts.PageURL, err = pageURLFor(ln.Addr(), *pageURL); err != nil {
		ln.Close()
		log.Error("bad page URL", "err", err)
		return 2
	}
	app := newApp(opts, newFakeContacts(), vaultFor(opts, redisClient(opts)), log)
	log.Info("serving MCP (Streamable HTTP, bearer tokens alice-token and bob-token)",
		"url", "http://"+ln.Addr().String()+"/mcp", "page", opts.PageURL)
	if err := serve(ctx, ln, app); err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	return 0
}

// redisClient returns the Redis client of opts.Store when it is the Redis
// store (MCPGEN_REDIS_URL), and nil otherwise.
func redisClient(opts runtime.Options) redis.UniversalClient {
	if rs, ok := opts.Store.(*redisstore.Store); ok {
		return rs.Client()
	}
	return nil
}

// pageURLFor returns the page's URL: override when set (an absolute http or
// https URL whose path ends with "/"), else http://addr/connect/, with
// localhost for an unspecified address (0.0.0.0, ::), which no browser can
// open.
func pageURLFor(addr net.Addr, override string) (string, error) {
	if override != "" {
		u, err := url.Parse(override)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.HasSuffix(u.Path, "/") ||
			u.RawQuery != "" || u.Fragment != "" {
			return "", fmt.Errorf("page URL %q: want an absolute http or https URL whose path ends with /, without query or fragment", override)
		}
		return override, nil
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + pagePath, nil
}

// app is the whole server: the MCP endpoint, the page and the development
// sign-in on one mux.
type app struct {
	http.Handler
	mcp *mcpsdk.Handler
}

// newApp builds the server on opts (keys, store, PageURL, which must be
// set): /mcp behind the development bearer tokens, the page handler at
// PageURL's path, the development sign-in at /login. log receives the
// rejected requestStates and the page's records.
func newApp(opts runtime.Options, contacts ContactsService, vault *KeyVault, log *slog.Logger) *app {
	u, err := url.Parse(opts.PageURL)
	if err != nil || !strings.HasSuffix(u.Path, "/") {
		panic(fmt.Sprintf("connect: page URL %q: its path must end with /", opts.PageURL))
	}
	opts.OnReject = func(_ context.Context, r runtime.Rejection) {
		log.Warn("rejected requestState", "tool", r.Flow, "reason", r.Reason)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "connect", Version: "0.1.0"}, nil)
	otelenv.Instrument(s, &opts) // before page.Handler(&opts, …) too: the page's store is timed
	mcpsdk.AddTools(s, Flows(Handlers{ImportContactsArgs: importContactsArgsHandler{contacts: contacts, vault: vault}}),
		&mcpsdk.Options{Flow: opts})
	endpoint := mcpsdk.NewHTTPHandler(s, nil)
	login, err := rdevauth.NewSignIn(opts.Keys, opts.PageURL)
	if err != nil {
		panic(fmt.Sprintf("connect: %v", err))
	}
	// Browsers post the page's form from PageURL's origin, which a proxy in
	// front (MCPGEN_PAGE_URL) may not pass on as Host: trust it, and only it
	// (the sign-in does the same for its own form).
	origin := u.Scheme + "://" + u.Host
	mux := http.NewServeMux()
	mux.Handle("/mcp", otelenv.HTTP(devauth.Middleware())(endpoint))
	mux.Handle(u.Path, page.Handler(&opts, page.Options{Identify: login.Identify, Title: "Contacts import",
		TrustedOrigins: []string{origin}, Logger: log}))
	mux.Handle(rdevauth.SignInPath, login)
	return &app{Handler: mux, mcp: endpoint}
}

// serve serves a on ln until ctx is done, then closes the MCP sessions and
// gives open requests 5 seconds.
func serve(ctx context.Context, ln net.Listener, a *app) error {
	srv := &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.mcp.CloseSessions()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
