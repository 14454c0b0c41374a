package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// deployArgsHandler runs the branches of the deploy tool on its cluster:
// register it with NewDeployArgsFlow(deployArgsHandler{cluster}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If DeployArgsHandler changes, the assertion below stops compiling until the methods match.
type deployArgsHandler struct {
	cluster *Cluster
}

var _ DeployArgsHandler = deployArgsHandler{}

// Accept deploys to staging at once. For production it computes the plan,
// asks the user to type the service name (the Confirm question), and deploys
// only after that last question was answered. The flow runs Accept again
// from the top on every round, so everything before runtime.Ask is free of
// side effects: the plan is kept in the sealed state (runtime.Keep) so
// every round shows the same number of pods, and Deploy comes last.
func (h deployArgsHandler) Accept(ctx context.Context, args *DeployArgs) (*runtime.Result, error) {
	plan, err := runtime.Keep(ctx, "plan", func() (Plan, error) {
		return h.cluster.Plan(args.Service, args.Environment)
	})
	if unknown := errUnknownService(""); errors.As(err, &unknown) {
		return runtime.ToolError("deploy: %v", err), nil
	}
	if err != nil {
		return nil, err
	}
	if args.Environment == Production {
		var q Confirm
		action, err := runtime.Ask(ctx, "confirm", &q, &runtime.AskOptions{
			Message: fmt.Sprintf("This restarts %d pods of %s in production. Type the service name to confirm.", plan.Pods, plan.Service),
			Equal:   map[string]string{"confirm": args.Service},
		})
		if err != nil {
			return nil, err // not answered yet: the flow asks, and runs Accept again on the retry
		}
		switch action {
		case runtime.Decline:
			return runtime.Textf("Deploy of %s declined; nothing changed.", args.Service), nil
		case runtime.Cancel:
			return runtime.Textf("Deploy of %s cancelled; nothing changed.", args.Service), nil
		}
	}
	// After the last question: the side effect, once.
	h.cluster.Deploy(plan)
	return runtime.Textf("Deployed %s to %s (%d pods restarted).", plan.Service, plan.Environment, plan.Pods), nil
}

// Decline runs when the user declined to choose the environment: nothing is
// deployed.
func (deployArgsHandler) Decline(ctx context.Context, args *DeployArgs, declined []string) (*runtime.Result, error) {
	return runtime.Textf("Deploy of %s declined; nothing changed.", args.Service), nil
}

// Cancel runs when the user dismissed the environment form: nothing is
// deployed.
func (deployArgsHandler) Cancel(ctx context.Context, args *DeployArgs) (*runtime.Result, error) {
	return runtime.Textf("Deploy of %s cancelled; nothing changed.", args.Service), nil
}
