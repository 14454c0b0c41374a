package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// greetArgs is a hand-written Args with one required elicitable field, the
// shape mcpgen generates for `Name string `elicit:"required"“.
type greetArgs struct {
	Name string `json:"name,omitempty"`
}

func (a *greetArgs) MissingFields() []string {
	if a.Name == "" {
		return []string{"name"}
	}
	return nil
}

func (a *greetArgs) RequestedSchema(fields ...string) *jsonschema.Schema {
	if len(fields) == 0 {
		fields = a.MissingFields()
	}
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	for _, f := range fields {
		if f == "name" {
			s.Properties.Set("name", &jsonschema.Schema{Type: "string", Title: "Name"})
			s.Required = append(s.Required, "name")
		}
	}
	return s
}

func (a *greetArgs) ApplyContent(content map[string]any) error {
	if _, given := content["name"]; !given && a.Name != "" {
		return nil // only missing fields are applied
	}
	v, _ := content["name"].(string)
	if v == "" {
		ve := &ValidationError{}
		ve.Add("name", "required", "is required")
		return ve.Err()
	}
	a.Name = v
	return nil
}

func (a *greetArgs) ApplyPartial(content map[string]any) error {
	if v, _ := content["name"].(string); v != "" {
		a.Name = v
		return nil
	}
	return a.ApplyContent(content)
}

func (a *greetArgs) Validate() error {
	if a.Name == "" {
		ve := &ValidationError{}
		ve.Add("name", "required", "is required")
		return ve.Err()
	}
	return nil
}

func greetFlow(unsealed bool) (*Flow, *[]int) {
	var rounds []int
	return &Flow{def: Def{
		Name: "greet", Key: "user_name", Fields: []string{"name"}, AcceptUnsealed: unsealed,
		New: func() Args { return &greetArgs{} },
		Dispatch: func(ctx context.Context, args Args, action Action, _ []string) (*Result, error) {
			rounds = append(rounds, Round(ctx))
			return Textf("%s: %s", action, args.(*greetArgs).Name), nil
		},
	}}, &rounds
}

func TestFlowUnsealedAnswers(t *testing.T) {
	o := &Options{Keys: EphemeralKeyRing()}
	accept := func(name string) protocol.InputResponse {
		return &protocol.ElicitResult{Action: Accept, Content: map[string]any{"name": name}}
	}
	t.Run("opted in: the answer under the round-1 key completes the call", func(t *testing.T) {
		f, rounds := greetFlow(true)
		resp, err := f.Call(context.Background(), o, &protocol.Request{Method: "tools/call", FormElicitation: true,
			InputResponses: map[string]protocol.InputResponse{"user_name": accept("Alice"), "unknown_extra_key": accept("x")}})
		require.NoError(t, err)
		require.NotNil(t, resp.Result)
		assert.Equal(t, "accept: Alice", resp.Result.Text)
		assert.Equal(t, []int{1}, *rounds, "the unsealed answer counts as round 1")
	})
	t.Run("opted in: answers under other keys ask the round-1 question", func(t *testing.T) {
		f, rounds := greetFlow(true)
		resp, err := f.Call(context.Background(), o, &protocol.Request{Method: "tools/call", FormElicitation: true,
			InputResponses: map[string]protocol.InputResponse{"wrong_key": accept("Mallory")}})
		require.NoError(t, err)
		require.Nil(t, resp.Result)
		assert.Contains(t, resp.InputRequests, "user_name")
		assert.Empty(t, *rounds)
	})
	t.Run("opted in: an invalid unsealed answer asks again in round 2", func(t *testing.T) {
		f, _ := greetFlow(true)
		resp, err := f.Call(context.Background(), o, &protocol.Request{Method: "tools/call", FormElicitation: true,
			InputResponses: map[string]protocol.InputResponse{"user_name": accept("")}})
		require.NoError(t, err)
		require.Nil(t, resp.Result)
		assert.Contains(t, resp.InputRequests, "user_name_2")
	})
	t.Run("not opted in: unsealed answers are never applied", func(t *testing.T) {
		f, rounds := greetFlow(false)
		resp, err := f.Call(context.Background(), o, &protocol.Request{Method: "tools/call", FormElicitation: true,
			InputResponses: map[string]protocol.InputResponse{"user_name": accept("Alice")}})
		require.NoError(t, err)
		require.Nil(t, resp.Result)
		assert.Contains(t, resp.InputRequests, "user_name")
		assert.NotEmpty(t, resp.RequestState)
		assert.Empty(t, *rounds)
	})
}

// An Exchange's state must not resume a Flow of the same name, nor the
// other way round.
func TestFlowAndExchangeStatesDoNotMix(t *testing.T) {
	o := &Options{Keys: EphemeralKeyRing()}
	f, _ := greetFlow(false)
	x, err := NewExchange("greet", o, &protocol.Request{Method: "tools/call", FormElicitation: true})
	require.NoError(t, err)
	xr, err := x.InputRequired(map[string]protocol.InputRequest{"user_name": &protocol.ElicitRequest{Message: "Name?", RequestedSchema: (&greetArgs{}).RequestedSchema()}}, nil)
	require.NoError(t, err)
	_, err = f.Call(context.Background(), o, &protocol.Request{Method: "tools/call", FormElicitation: true, RequestState: xr.RequestState,
		InputResponses: map[string]protocol.InputResponse{"user_name": &protocol.ElicitResult{Action: Accept, Content: map[string]any{"name": "A"}}}})
	var pe *protocol.Error
	require.True(t, errors.As(err, &pe), "exchange state into a flow: got %v", err)

	fr, err := f.Call(context.Background(), o, &protocol.Request{Method: "tools/call", FormElicitation: true})
	require.NoError(t, err)
	require.NotEmpty(t, fr.RequestState)
	_, err = NewExchange("greet", o, &protocol.Request{Method: "tools/call", RequestState: fr.RequestState})
	require.True(t, errors.As(err, &pe), "flow state into an exchange: got %v", err)
}
