// Command bookflight is mcpgen's example MCP server: one tool, book_flight,
// that asks the user for the departure date (and, optionally, the time of day
// and number of passengers) when the model did not pass them.
//
// Usage:
//
//	go run ./examples/bookflight -http 127.0.0.1:8080   # Streamable HTTP at /mcp (mcpsdk.NewHTTPHandler)
//	go run ./examples/bookflight -stdio                 # stdio
//	go run ./examples/bookflight -demo                  # serve and drive three calls, narrating each step
//	go run ./examples/bookflight -demo -wire            # the same, with every message in full JSON
//
// Instances behind a load balancer must share MCPGEN_STATE_KEYS
// (comma-separated 32-byte base64 keys, newest first; `mcpgen keygen` makes
// one). Without it a random key is used and only this instance can resume
// its own calls. They should also share MCPGEN_REDIS_URL (a Redis URL, e.g.
// redis://127.0.0.1:6379/0): a replayed final retry then books once whichever
// instance receives it; without it each instance remembers only its own.
// MCPGEN_INSTANCE (e.g. s1) makes older clients' session ids name this
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

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelenv"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("bookflight", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at /mcp on this address (stateless for 2026-07-28 clients, sessions for older ones), e.g. 127.0.0.1:8080")
	stdio := fs.Bool("stdio", false, "serve over stdin and stdout")
	demoRun := fs.Bool("demo", false, "serve on a free loopback port and drive one accepted, one declined and one cancelled call, narrating each step")
	wire := fs.Bool("wire", false, "with -demo, also print every tools/call and its result in full JSON")
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
		fmt.Fprintln(os.Stderr, "bookflight: give exactly one of -http ADDR, -stdio or -demo")
		fs.Usage()
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	slog.SetDefault(log) // the handler's "booked" lines too
	// MCPGEN_STATE_KEYS and MCPGEN_REDIS_URL; one warning when they do not
	// make a sound set of instances.
	opts, closeStore, err := redisstore.OptionsFromEnv(context.Background(), func(msg string) { log.Warn(msg) })
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	defer closeStore()
	if *demoRun {
		if err := demo(os.Stdout, opts.Keys, *wire, log); err != nil {
			log.Error("demo", "err", err)
			return 1
		}
		return 0
	}
	if opts.Store != nil {
		log.Info("at most once across instances: Redis store", "url_env", redisstore.EnvURL)
	}
	// OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER: off unless set.
	shutdown, err := otelenv.Start(context.Background(), "bookflight", *stdio)
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
	server := newServer(opts, sessionIDs, bookFlightArgsHandler{}, log)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *stdio {
		err = mcpsdk.ServeStdio(ctx, server)
	} else {
		endpoint := mcpsdk.NewHTTPHandler(server, nil)
		mux := http.NewServeMux()
		mux.Handle("/mcp", otelenv.HTTP(nil)(endpoint))
		err = mcpsdk.Serve(ctx, *httpAddr, endpoint, mux, func(a net.Addr) {
			log.Info("serving MCP (Streamable HTTP: stateless for 2026-07-28, sessions for older clients)", "url", "http://"+a.String()+"/mcp")
		})
	}
	if err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	return 0
}

// newServer builds the MCP server with the book_flight tool on opts (keys
// and store), logging one line per request (what happened in the round,
// never the answers or the state). sessionIDs makes the ids of older
// clients' sessions (nil: go-sdk's default).
func newServer(opts runtime.Options, sessionIDs func() string, h BookFlightArgsHandler, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bookflight", Version: "0.1.0"}, &mcp.ServerOptions{GetSessionID: sessionIDs})
	opts.Logger = log
	otelenv.Instrument(s, &opts)
	mcpsdk.AddTools(s, Flows(Handlers{BookFlightArgs: h}), &mcpsdk.Options{Flow: opts})
	return s
}
