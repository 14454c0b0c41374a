// Command bookflight is mcpgen's example MCP server: one tool, book_flight,
// that asks the user for the departure date (and, optionally, the time of day
// and number of passengers) when the model did not pass them.
//
// Usage:
//
//	go run ./examples/bookflight -http 127.0.0.1:8080   # Streamable HTTP at /mcp (mcpsdk.HTTPHandler)
//	go run ./examples/bookflight -stdio                 # stdio
//	go run ./examples/bookflight -demo                  # serve and drive three calls, printing the wire
//
// Instances behind a load balancer must share MCPGEN_STATE_KEYS
// (comma-separated 32-byte base64 keys, newest first; `mcpgen keygen` makes
// one). Without it a random key is used and only this instance can resume
// its own calls.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("bookflight", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at /mcp on this address (stateless for 2026-07-28 clients, sessions for older ones), e.g. 127.0.0.1:8080")
	stdio := fs.Bool("stdio", false, "serve over stdin and stdout")
	demoRun := fs.Bool("demo", false, "serve on a free loopback port and drive one accepted, one declined and one cancelled call, printing the wire")
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
	keys, ephemeral, err := runtime.KeyRingFromEnvOrEphemeral()
	if err != nil {
		log.Error("bad key ring", "err", err)
		return 2
	}
	if ephemeral {
		log.Warn("MCPGEN_STATE_KEYS is not set: using a random key; only this instance can resume its calls")
	}
	if *demoRun {
		if err := demo(os.Stdout, keys); err != nil {
			log.Error("demo", "err", err)
			return 1
		}
		return 0
	}
	server := newServer(keys, bookFlightArgsHandler{}, log)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *stdio {
		err = mcpsdk.ServeStdio(ctx, server)
	} else {
		err = mcpsdk.ServeHTTP(ctx, *httpAddr, server, func(a net.Addr) {
			log.Info("serving MCP (Streamable HTTP: stateless for 2026-07-28, sessions for older clients)", "url", "http://"+a.String()+"/mcp")
		})
	}
	if err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	return 0
}

// newServer builds the MCP server with the book_flight tool, sealing state
// under keys and logging every rejected requestState.
func newServer(keys *runtime.KeyRing, h BookFlightArgsHandler, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bookflight", Version: "0.1.0"}, nil)
	mcpsdk.AddTool(s, NewBookFlightArgsFlow(h), &mcpsdk.Options{Flow: runtime.Options{
		Keys: keys,
		OnReject: func(_ context.Context, r runtime.Rejection) {
			log.Warn("rejected requestState", "tool", r.Flow, "reason", r.Reason)
		},
	}})
	return s
}
