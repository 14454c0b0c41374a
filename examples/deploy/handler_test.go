package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/elicittest"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// These tests drive the same cases as main_test.go in-process with
// runtime/elicittest: the generated flow and this package's handler, no
// server, no client.

func deployTester() (*elicittest.Tester, *Cluster) {
	cluster := newCluster()
	tr := elicittest.New(NewDeployArgsFlow(deployArgsHandler{cluster: cluster}))
	tr.Principal = "alice"
	return tr, cluster
}

func TestHandlerStagingDeploysAtOnce(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), apiStaging)
	require.NoError(t, err)
	require.True(t, step.Done(), "no question for staging")
	assert.Equal(t, "Deployed api to staging (2 pods restarted).", step.Result.Text)
	assert.Len(t, cluster.Deployed(), 1)
}

func TestHandlerProductionConfirmation(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), map[string]any{"service": "api", "environment": "production"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "production asks first")
	assert.Equal(t, "confirm", step.Question.Key)
	assert.Equal(t, "This restarts 12 pods of api in production. Type the service name to confirm.", step.Question.Message)
	assert.Equal(t, []string{"confirm"}, step.Question.Required)

	step, err = step.Accept(t.Context(), map[string]any{"confirm": "apx"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "a wrong name is asked again")
	assert.Contains(t, step.Question.Message, `confirm: must be exactly "api"`)
	assert.Empty(t, cluster.Deployed(), "nothing deployed yet")

	step, err = step.Accept(t.Context(), map[string]any{"confirm": "api"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Deployed api to production (12 pods restarted).", step.Result.Text)
	assert.Equal(t, []Plan{{Service: "api", Environment: Production, Pods: 12}}, cluster.Deployed())
}

func TestHandlerProductionDeclineAndCancelDeployNothing(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), apiProduction)
	require.NoError(t, err)
	declined, err := step.Decline(t.Context())
	require.NoError(t, err)
	assert.Equal(t, &runtime.Result{Text: "Deploy of api declined; nothing changed."}, declined.Result)

	step, err = tr.Call(t.Context(), apiProduction)
	require.NoError(t, err)
	cancelled, err := step.Cancel(t.Context())
	require.NoError(t, err)
	assert.Equal(t, &runtime.Result{Text: "Deploy of api cancelled; nothing changed."}, cancelled.Result)
	assert.Empty(t, cluster.Deployed())
}

func TestHandlerEnvironmentThenConfirmation(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), apiOnly)
	require.NoError(t, err)
	assert.Equal(t, "deploy", step.Question.Key)
	assert.Equal(t, []string{"environment"}, step.Question.Fields)
	assert.Equal(t, 1, step.Question.Round)

	step, err = step.Accept(t.Context(), map[string]any{"environment": "production"})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "Accept asks its question")
	assert.Equal(t, "confirm", step.Question.Key)
	assert.Equal(t, 2, step.Question.Round)
	assert.Equal(t, []string{"confirm"}, step.Question.Fields)

	step, err = step.Accept(t.Context(), map[string]any{"confirm": "api"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Deployed api to production (12 pods restarted).", step.Result.Text)
	assert.Len(t, cluster.Deployed(), 1)
}

func TestHandlerConfirmationUnderTheFirstRoundsKeyIsNotApplied(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), apiOnly)
	require.NoError(t, err)
	step, err = step.Accept(t.Context(), map[string]any{"environment": "production"})
	require.NoError(t, err)
	require.Equal(t, "confirm", step.Question.Key)
	step, err = step.Respond(t.Context(), step.RequestState, map[string]protocol.InputResponse{
		"deploy": &protocol.ElicitResult{Action: runtime.Accept, Content: map[string]any{"confirm": "api", "environment": "production"}},
	})
	require.NoError(t, err)
	require.NotNil(t, step.Question, "asked again")
	assert.Equal(t, "confirm_3", step.Question.Key)
	assert.Equal(t, 3, step.Question.Round)
	assert.Empty(t, cluster.Deployed())
}

func TestHandlerEnvironmentFormDeclineAndCancel(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), apiOnly)
	require.NoError(t, err)
	declined, err := step.Decline(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "Deploy of api declined; nothing changed.", declined.Result.Text)
	step, err = tr.Call(t.Context(), apiOnly) // a new call: the first one is over
	require.NoError(t, err)
	cancelled, err := step.Cancel(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "Deploy of api cancelled; nothing changed.", cancelled.Result.Text)
	assert.Empty(t, cluster.Deployed())
}

func TestHandlerUnknownService(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), map[string]any{"service": "db", "environment": "production"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.True(t, step.Result.IsError)
	assert.Contains(t, step.Result.Text, "unknown service")
	assert.Empty(t, cluster.Deployed())
}

// The plan is computed once (runtime.Keep) and sealed in the state: a
// scale-up between the question and the answer does not change what the
// user confirmed, nor what is deployed.
func TestHandlerPlanIsKeptAcrossRounds(t *testing.T) {
	tr, cluster := deployTester()
	step, err := tr.Call(t.Context(), apiProduction)
	require.NoError(t, err)
	require.Contains(t, step.Question.Message, "12 pods")
	cluster.SetPods("api", Production, 20)
	step, err = step.Accept(t.Context(), map[string]any{"confirm": "api"})
	require.NoError(t, err)
	require.True(t, step.Done())
	assert.Equal(t, "Deployed api to production (12 pods restarted).", step.Result.Text)
}
