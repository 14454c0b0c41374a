package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// demo serves deploy on a free loopback port, behind the development bearer
// tokens, and drives it as alice with a go-sdk client (MCP 2026-07-28),
// printing each case: every question asked, every answer, the tool's
// result, and the deploys the cluster made.
func demo(w io.Writer, keys *runtime.KeyRing) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cluster := newCluster()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	server := newServer(runtime.Options{Keys: keys}, cluster, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h := mcpsdk.NewHTTPHandler(server, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", devauth.Middleware()(h))
	go func() { errc <- mcpsdk.Serve(ctx, "127.0.0.1:0", h, mux, func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-errc:
		return err
	}
	endpoint := "http://" + addr.String() + "/mcp"
	fmt.Fprintf(w, "deploy serving %s (bearer tokens alice-token, bob-token)\n", endpoint)
	client := mcp.NewClient(&mcp.Implementation{Name: "demo", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: devauth.Client("alice-token")}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()

	// run makes a call and answers each question with the next of answers
	// (under the key it was asked with, unless the answer names a key),
	// printing what happens.
	type reply struct {
		key    string // "" means the key of the question asked
		action string
		values map[string]any
	}
	run := func(title string, args map[string]any, answers ...reply) error {
		fmt.Fprintf(w, "\n=== %s\n", title)
		params := &mcp.CallToolParams{Name: "deploy", Arguments: args}
		for {
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				return err
			}
			if !res.NeedsInput() {
				var parts []string
				for _, c := range res.Content {
					if t, ok := c.(*mcp.TextContent); ok {
						parts = append(parts, t.Text)
					}
				}
				kind := "-->"
				if res.IsError {
					kind = "--> tool error:"
				}
				fmt.Fprintf(w, "%s %s\n", kind, strings.Join(parts, ""))
				return nil
			}
			var key string
			for k, ir := range res.InputRequests {
				key = k
				if er, ok := ir.(*mcp.ElicitParams); ok {
					fmt.Fprintf(w, "    asked (%s): %s\n", k, strings.ReplaceAll(er.Message, "\n\n", " "))
				}
			}
			if len(answers) == 0 {
				return fmt.Errorf("%s: asked more than expected", title)
			}
			a := answers[0]
			answers = answers[1:]
			if a.key != "" {
				key = a.key
			}
			fmt.Fprintf(w, "    answer under %s: %s %v\n", key, a.action, a.values)
			params = &mcp.CallToolParams{Name: "deploy", Arguments: args, RequestState: res.RequestState,
				InputResponses: mcp.InputResponseMap{key: &mcp.ElicitResult{Action: a.action, Content: a.values}}}
		}
	}
	api := func(env string) map[string]any {
		if env == "" {
			return map[string]any{"service": "api"}
		}
		return map[string]any{"service": "api", "environment": env}
	}
	steps := []error{
		run("api to staging: deployed at once", api("staging")),
		run("api to production: a wrong name, then the right one", api("production"),
			reply{action: "accept", values: map[string]any{"confirm": "apx"}},
			reply{action: "accept", values: map[string]any{"confirm": "api"}}),
		run("api to production: the user declines the confirmation", api("production"), reply{action: "decline"}),
		run("api to production: the user cancels the confirmation", api("production"), reply{action: "cancel"}),
		run("api without an environment: production is chosen, then confirmed", api(""),
			reply{action: "accept", values: map[string]any{"environment": "production"}},
			reply{action: "accept", values: map[string]any{"confirm": "api"}}),
		run("api without an environment: the answer to the confirmation sent under the first round's key is not applied", api(""),
			reply{action: "accept", values: map[string]any{"environment": "production"}},
			reply{key: "deploy", action: "accept", values: map[string]any{"confirm": "api"}},
			reply{action: "decline"}),
		run("api without an environment: the user declines the environment form", api(""), reply{action: "decline"}),
		run("db to staging: an unknown service", map[string]any{"service": "db", "environment": "staging"}),
	}
	for _, err := range steps {
		if err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "\n=== what the cluster deployed")
	for _, p := range cluster.Deployed() {
		fmt.Fprintf(w, "--> %s to %s, %d pods\n", p.Service, p.Environment, p.Pods)
	}
	return nil
}
