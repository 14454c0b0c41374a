// Command conformance is the server the official MCP conformance suite
// (@modelcontextprotocol/conformance) runs against at spec 2026-07-28; see
// docs/operations.md "Conformance". examples/conformance/run builds it, starts it and
// runs the suite.
//
//	go run ./examples/conformance -http 127.0.0.1:8080   # stateless Streamable HTTP at /mcp
//
// The elicitation fixtures are mcpgen flows generated from the structs in
// args.go; the sampling, roots, multiple-input and capability fixtures are
// runtime.Exchange handlers (exchange.go); the rest are plain go-sdk
// fixtures (fixtures.go). State is sealed under MCPGEN_STATE_KEYS, or a
// random key when it is unset.
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
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve stateless Streamable HTTP at /mcp on this address, e.g. 127.0.0.1:8080 (required)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *httpAddr == "" || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "conformance: give -http ADDR and nothing else")
		fs.Usage()
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	flow, closeStore, err := redisstore.OptionsFromEnv(context.Background(), func(msg string) { log.Warn(msg) })
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	defer closeStore()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = mcpsdk.Serve(ctx, *httpAddr, mcpsdk.NewHTTPHandler(newServer(flow, log), nil), nil, func(a net.Addr) {
		log.Info("serving MCP (stateless Streamable HTTP)", "url", "http://"+a.String()+"/mcp")
	})
	if err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	return 0
}

// newServer builds the server with every fixture of the 2026-07-28
// requirement list on flow (keys and store), logging each rejected
// requestState.
func newServer(flow runtime.Options, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpgen-conformance", Version: "0.1.0"},
		&mcp.ServerOptions{CompletionHandler: complete})
	flow.OnReject = func(_ context.Context, r runtime.Rejection) {
		log.Warn("rejected requestState", "flow", r.Flow, "reason", r.Reason)
	}
	opts := &mcpsdk.Options{Flow: flow}
	mcpsdk.AddTool(s, NewElicitationArgsFlow(elicitationArgsHandler{}), opts)
	mcpsdk.AddTool(s, NewRequestStateArgsFlow(requestStateArgsHandler{}), opts)
	mcpsdk.AddTool(s, NewMultiRoundArgsFlow(multiRoundArgsHandler{}), opts)
	mcpsdk.AddTool(s, NewTamperedStateArgsFlow(tamperedStateArgsHandler{}), opts)
	mcpsdk.AddPrompt(s, NewPromptArgsFlow(promptArgsHandler{}), opts)
	addExchangeFixtures(s, opts)
	addPlainTools(s)
	addResources(s)
	addPrompts(s)
	return s
}
