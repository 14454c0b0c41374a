// Command deploy is an mcpgen example MCP server with one tool, deploy,
// which asks the user for the environment when the model did not pass it
// and, for production, asks a second question from the middle of its Accept
// branch: type the service name to confirm a plan computed first.
//
// Usage:
//
//	go run ./examples/deploy -http 127.0.0.1:8080   # Streamable HTTP at /mcp, bearer tokens required
//	go run ./examples/deploy -stdio                 # stdio, as the local user alice
//	go run ./examples/deploy -demo                  # serve and drive the cases, printing what happens
//
// Over HTTP every request needs a development bearer token
// (examples/internal/devauth): alice-token (alice) or bob-token (bob);
// anything else is HTTP 401. The user is bound into each requestState, so
// one user's pending deploy cannot be confirmed by another. Over stdio there
// is no token: the server runs as alice.
//
// Like bookflight, instances share MCPGEN_STATE_KEYS and MCPGEN_REDIS_URL,
// and MCPGEN_INSTANCE (e.g. s1) makes older clients' session ids name this
// instance, "s1.<random>", for a balancer that routes on them
// (examples/loadbalanced/nginx.conf).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelenv"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("deploy", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at /mcp on this address, with bearer tokens alice-token and bob-token, e.g. 127.0.0.1:8080")
	stdio := fs.Bool("stdio", false, "serve over stdin and stdout, as the user MCPGEN_PRINCIPAL names, else "+devauth.StdioUser)
	demoRun := fs.Bool("demo", false, "serve on a free loopback port and drive the cases, printing what happens")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	modes := 0
	for _, on := range []bool{*httpAddr != "", *stdio, *demoRun} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		fmt.Fprintln(os.Stderr, "deploy: give exactly one of -http ADDR, -stdio or -demo")
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
	cluster := newCluster()
	// OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER: off unless set.
	shutdown, err := otelenv.Start(context.Background(), "deploy", *stdio)
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	defer otelenv.Stop(shutdown, func(err error) { log.Warn("telemetry shutdown", "err", err) })
	// MCPGEN_INSTANCE: session ids that name this instance, for a balancer
	// that routes older clients' sessions on them (stock nginx).
	sessionIDs, err := mcpsdk.InstanceSessionIDs(os.Getenv(mcpsdk.EnvInstance))
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *stdio {
		principal, perr := devauth.StdioPrincipal()
		if perr != nil {
			log.Error("bad environment", "err", perr)
			return 2
		}
		err = mcpsdk.ServeStdio(ctx, newServer(opts, cluster, principal, log))
	} else {
		endpoint := mcpsdk.NewHTTPHandler(newSessionServer(opts, cluster, nil, sessionIDs, log), nil)
		mux := http.NewServeMux()
		mux.Handle("/mcp", otelenv.HTTP(devauth.Middleware())(endpoint))
		err = mcpsdk.Serve(ctx, *httpAddr, endpoint, mux, func(a net.Addr) {
			log.Info("serving MCP (Streamable HTTP, bearer tokens alice-token and bob-token)", "url", "http://"+a.String()+"/mcp")
		})
	}
	if err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	return 0
}

// newServer builds the MCP server with the deploy tool on opts (keys and
// store) and cluster. principal names the caller of a request (nil: the
// bearer token's user, mcpsdk.DefaultPrincipal).
func newServer(opts runtime.Options, cluster *Cluster, principal func(context.Context, *mcp.RequestExtra) string, log *slog.Logger) *mcp.Server {
	return newSessionServer(opts, cluster, principal, nil, log)
}

// newSessionServer is newServer whose older clients' session ids are made
// by sessionIDs (nil: go-sdk's default).
func newSessionServer(opts runtime.Options, cluster *Cluster, principal func(context.Context, *mcp.RequestExtra) string, sessionIDs func() string, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "deploy", Version: "0.1.0"}, &mcp.ServerOptions{GetSessionID: sessionIDs})
	opts.OnReject = func(_ context.Context, r runtime.Rejection) {
		log.Warn("rejected requestState", "tool", r.Flow, "reason", r.Reason)
	}
	otelenv.Instrument(s, &opts)
	mcpsdk.AddTools(s, Flows(Handlers{DeployArgs: deployArgsHandler{cluster: cluster}}), &mcpsdk.Options{Flow: opts, Principal: principal})
	return s
}
