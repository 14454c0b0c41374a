package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/examples/internal/devauth"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// The tests in this file serve deploy over real HTTP (httptest) through
// mcpsdk.NewHTTPHandler behind the development bearer-token middleware, and
// drive it as alice with go-sdk's client, one round at a time.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// startDeploy serves a fresh cluster and returns alice's client session.
func startDeploy(t *testing.T) (*mcp.ClientSession, *Cluster) {
	t.Helper()
	cluster := newCluster()
	srv := httptest.NewServer(devauth.Middleware()(mcpsdk.NewHTTPHandler(
		newServer(runtime.Options{Keys: runtime.EphemeralKeyRing()}, cluster, nil, quiet), nil)))
	t.Cleanup(srv.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by the test")
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: devauth.Client("alice-token")}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, cluster
}

func deploy(t *testing.T, cs *mcp.ClientSession, args map[string]any, answers mcp.InputResponseMap, state string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "deploy", Arguments: args, InputResponses: answers, RequestState: state,
	})
	require.NoError(t, err)
	return res
}

func answer(key, action string, content map[string]any) mcp.InputResponseMap {
	return mcp.InputResponseMap{key: &mcp.ElicitResult{Action: action, Content: content}}
}

// asked returns the key, message, property names and required names of the
// only input request of an input-required result.
func asked(t *testing.T, res *mcp.CallToolResult) (key, message string, fields, required []string) {
	t.Helper()
	require.True(t, res.NeedsInput(), "expected an input-required result")
	require.Len(t, res.InputRequests, 1)
	for k, ir := range res.InputRequests {
		er, ok := ir.(*mcp.ElicitParams)
		require.True(t, ok, "input request %q is %T", k, ir)
		schema, ok := er.RequestedSchema.(map[string]any)
		require.True(t, ok, "requestedSchema is %T", er.RequestedSchema)
		props, _ := schema["properties"].(map[string]any)
		for name := range props {
			fields = append(fields, name)
		}
		req, _ := schema["required"].([]any)
		for _, r := range req {
			required = append(required, r.(string))
		}
		return k, er.Message, fields, required
	}
	panic("unreachable")
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.False(t, res.NeedsInput(), "expected a complete result")
	require.Len(t, res.Content, 1)
	return res.Content[0].(*mcp.TextContent).Text
}

var (
	apiStaging    = map[string]any{"service": "api", "environment": "staging"}
	apiProduction = map[string]any{"service": "api", "environment": "production"}
	apiOnly       = map[string]any{"service": "api"}
)

const confirmMessage = "This restarts 12 pods of api in production. Type the service name to confirm."

func TestStagingDeploysAtOnce(t *testing.T) {
	cs, cluster := startDeploy(t)
	res := deploy(t, cs, apiStaging, nil, "")
	assert.Equal(t, "Deployed api to staging (2 pods restarted).", text(t, res))
	assert.Equal(t, []Plan{{Service: "api", Environment: Staging, Pods: 2}}, cluster.Deployed())
}

func TestProductionAsksToTypeTheServiceName(t *testing.T) {
	cs, cluster := startDeploy(t)
	r1 := deploy(t, cs, apiProduction, nil, "")
	key, msg, fields, required := asked(t, r1)
	assert.Equal(t, "confirm", key)
	assert.Equal(t, confirmMessage, msg)
	assert.Contains(t, msg, "12 pods")
	assert.Equal(t, []string{"confirm"}, fields)
	assert.Equal(t, []string{"confirm"}, required)
	assert.Empty(t, cluster.Deployed())

	r2 := deploy(t, cs, apiProduction, answer(key, "accept", map[string]any{"confirm": "apx"}), r1.RequestState)
	key, msg, fields, _ = asked(t, r2)
	assert.Equal(t, "confirm_2", key)
	assert.Contains(t, msg, `confirm: must be exactly "api"`)
	assert.Equal(t, []string{"confirm"}, fields)
	assert.Empty(t, cluster.Deployed(), "a wrong name deploys nothing")

	r3 := deploy(t, cs, apiProduction, answer(key, "accept", map[string]any{"confirm": "api"}), r2.RequestState)
	assert.Equal(t, "Deployed api to production (12 pods restarted).", text(t, r3))
	assert.Equal(t, []Plan{{Service: "api", Environment: Production, Pods: 12}}, cluster.Deployed())
}

func TestProductionDeclineAndCancelDeployNothing(t *testing.T) {
	cs, cluster := startDeploy(t)
	for action, want := range map[string]string{
		"decline": "Deploy of api declined; nothing changed.",
		"cancel":  "Deploy of api cancelled; nothing changed.",
	} {
		r1 := deploy(t, cs, apiProduction, nil, "")
		res := deploy(t, cs, apiProduction, answer("confirm", action, nil), r1.RequestState)
		assert.False(t, res.IsError)
		assert.Equal(t, want, text(t, res))
	}
	assert.Empty(t, cluster.Deployed())
}

func TestEnvironmentThenConfirmation(t *testing.T) {
	cs, cluster := startDeploy(t)
	r1 := deploy(t, cs, apiOnly, nil, "")
	key, _, fields, required := asked(t, r1)
	assert.Equal(t, "deploy", key)
	assert.Equal(t, []string{"environment"}, fields)
	assert.Equal(t, []string{"environment"}, required)

	r2 := deploy(t, cs, apiOnly, answer(key, "accept", map[string]any{"environment": "production"}), r1.RequestState)
	key, msg, fields, _ := asked(t, r2)
	assert.Equal(t, "confirm", key, "the question asked from the middle of Accept")
	assert.Equal(t, confirmMessage, msg)
	assert.Equal(t, []string{"confirm"}, fields)
	assert.Empty(t, cluster.Deployed())

	r3 := deploy(t, cs, apiOnly, answer(key, "accept", map[string]any{"confirm": "api"}), r2.RequestState)
	assert.Equal(t, "Deployed api to production (12 pods restarted).", text(t, r3))
	assert.Len(t, cluster.Deployed(), 1)
}

func TestConfirmationUnderTheFirstRoundsKeyIsNotApplied(t *testing.T) {
	cs, cluster := startDeploy(t)
	r1 := deploy(t, cs, apiOnly, nil, "")
	r2 := deploy(t, cs, apiOnly, answer("deploy", "accept", map[string]any{"environment": "production"}), r1.RequestState)
	key, _, _, _ := asked(t, r2)
	require.Equal(t, "confirm", key)
	r3 := deploy(t, cs, apiOnly, answer("deploy", "accept", map[string]any{"confirm": "api", "environment": "production"}), r2.RequestState)
	key, msg, _, _ := asked(t, r3)
	assert.Equal(t, "confirm_3", key, "asked again")
	assert.Equal(t, confirmMessage, msg)
	assert.Empty(t, cluster.Deployed())
}

func TestEnvironmentFormDeclineAndCancel(t *testing.T) {
	cs, cluster := startDeploy(t)
	for action, want := range map[string]string{
		"decline": "Deploy of api declined; nothing changed.",
		"cancel":  "Deploy of api cancelled; nothing changed.",
	} {
		r1 := deploy(t, cs, apiOnly, nil, "")
		res := deploy(t, cs, apiOnly, answer("deploy", action, nil), r1.RequestState)
		assert.Equal(t, want, text(t, res))
	}
	assert.Empty(t, cluster.Deployed())
}

func TestUnknownService(t *testing.T) {
	cs, cluster := startDeploy(t)
	res := deploy(t, cs, map[string]any{"service": "db", "environment": "production"}, nil, "")
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "unknown service")
	assert.Empty(t, cluster.Deployed())
}
