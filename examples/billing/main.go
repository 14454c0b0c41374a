// Command billing is an mcpgen example MCP server with two tools:
// pay_invoice, which charges an invoice to one of the caller's accounts and
// asks the user which one when the caller has several (the options come
// from the handler at run time: an elicit:"choices" field), and charges,
// which lists the caller's charges.
//
// Usage:
//
//	go run ./examples/billing -http 127.0.0.1:8080   # Streamable HTTP at /mcp, bearer tokens required
//	go run ./examples/billing -stdio                 # stdio, as the local user alice
//	go run ./examples/billing -demo                  # serve and drive the cases, printing what happens
//
// Over HTTP every request needs a development bearer token
// (examples/internal/devauth): alice-token is alice (three accounts),
// bob-token is bob (one account); anything else is HTTP 401. Over stdio
// there is no token: the server runs as alice.
//
// Like bookflight, instances share MCPGEN_STATE_KEYS and MCPGEN_REDIS_URL;
// with MCPGEN_REDIS_URL the ledger lives in that Redis too, shared by every
// instance, and in memory otherwise.
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
	"strings"
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
	fs := flag.NewFlagSet("billing", flag.ContinueOnError)
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
		fmt.Fprintln(os.Stderr, "billing: give exactly one of -http ADDR, -stdio or -demo")
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
	ledger := ledgerFor(opts)
	// OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER: off unless set.
	shutdown, err := otelenv.Start(context.Background(), "billing", *stdio)
	if err != nil {
		log.Error("bad environment", "err", err)
		return 2
	}
	defer otelenv.Stop(shutdown, func(err error) { log.Warn("telemetry shutdown", "err", err) })
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *stdio {
		principal, perr := devauth.StdioPrincipal()
		if perr != nil {
			log.Error("bad environment", "err", perr)
			return 2
		}
		err = mcpsdk.ServeStdio(ctx, newServer(opts, ledger, principal, log))
	} else {
		endpoint := mcpsdk.NewHTTPHandler(newServer(opts, ledger, nil, log), nil)
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

// ledgerFor returns the ledger in the Redis of opts.Store when it is the
// Redis store (MCPGEN_REDIS_URL), shared by every instance; a ledger in
// memory otherwise.
func ledgerFor(opts runtime.Options) Ledger {
	if rs, ok := opts.Store.(*redisstore.Store); ok {
		return newRedisLedger(rs.Client())
	}
	return newMemoryLedger()
}

// newServer builds the MCP server with the pay_invoice and charges tools on
// opts (keys and store) and ledger. principal names the caller of a request
// (nil: the bearer token's user, mcpsdk.DefaultPrincipal).
func newServer(opts runtime.Options, ledger Ledger, principal func(context.Context, *mcp.RequestExtra) string, log *slog.Logger) *mcp.Server {
	if principal == nil {
		principal = mcpsdk.DefaultPrincipal
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "billing", Version: "0.1.0"}, nil)
	opts.OnReject = func(_ context.Context, r runtime.Rejection) {
		log.Warn("rejected requestState", "tool", r.Flow, "reason", r.Reason)
	}
	otelenv.Instrument(s, &opts)
	mcpsdk.AddTools(s, Flows(Handlers{PayInvoiceArgs: payInvoiceArgsHandler{ledger: ledger}}), &mcpsdk.Options{Flow: opts, Principal: principal})
	mcp.AddTool(s, &mcp.Tool{Name: "charges", Description: "List the caller's charges."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, chargesOut, error) {
			list, err := ledger.List(ctx, principal(ctx, req.Extra))
			if err != nil {
				// The ledger's error names its Redis address: logged, not shown.
				log.ErrorContext(ctx, "charges", "err", err)
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
					Text: "charges: the billing ledger is unavailable; try again later"}}}, chargesOut{}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: chargeLines(list)}}}, chargesOut{Charges: list}, nil
		})
	return s
}

// chargesOut is the structured content of the charges tool.
type chargesOut struct {
	Charges []Charge `json:"charges"`
}

// chargeLines is the charges tool's text: one line per charge.
func chargeLines(list []Charge) string {
	if len(list) == 0 {
		return "No charges."
	}
	lines := make([]string, len(list))
	for i, c := range list {
		lines[i] = fmt.Sprintf("%s: %.2f to %s for %s", c.ID, c.Amount, c.Account, c.Invoice)
	}
	return strings.Join(lines, "\n")
}
