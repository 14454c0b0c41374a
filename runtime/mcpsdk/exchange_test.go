//lint:file-ignore SA1019 the test drives the deprecated (SEP-2577) sampling input request through the SDK client.

package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// topicArgs is a hand-written runtime.Args with one required elicitable
// string field, "topic" (the shape mcpgen generates).
type topicArgs struct {
	Topic string `json:"topic,omitempty"`
}

func (a *topicArgs) MissingFields() []string {
	if a.Topic == "" {
		return []string{"topic"}
	}
	return nil
}

func (a *topicArgs) RequestedSchema(fields ...string) *jsonschema.Schema {
	s := impl.NewObjectSchema()
	if len(fields) == 0 {
		fields = a.MissingFields()
	}
	for _, f := range fields {
		if f == "topic" {
			s.Properties.Set("topic", &jsonschema.Schema{Type: "string", Title: "Topic"})
			s.Required = append(s.Required, "topic")
		}
	}
	return s
}

func (a *topicArgs) ApplyContent(c map[string]any) error {
	if _, given := c["topic"]; !given && a.Topic != "" {
		return nil // only missing fields are applied
	}
	v, _ := c["topic"].(string)
	if v == "" {
		var ve *runtime.ValidationError
		impl.AddFieldError(&ve, "topic", "required", "is required")
		return ve.Err()
	}
	a.Topic = v
	return nil
}

func (a *topicArgs) ApplyPartial(c map[string]any) error { return a.ApplyContent(c) }
func (a *topicArgs) Validate() error                     { return nil }

func topicFlow() *runtime.Flow {
	return impl.NewFlow(impl.FlowSpec[topicArgs]{
		Name: "topic", Description: "Writes about a topic", Key: "topic", Fields: []string{"topic"},
		Dispatch: func(_ context.Context, args *topicArgs, action runtime.Action, _ []string) (*runtime.Result, error) {
			return runtime.Textf("%s %s", action, args.Topic), nil
		},
	})
}

// capitalTool asks the client's model a question, then reports its answer
// and the round it arrived in.
func capitalTool(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	if s, ok := x.Sampling("capital"); ok {
		var asked string
		if _, err := x.Carried(&asked); err != nil {
			return nil, err
		}
		return &runtime.Response{Result: runtime.Textf("%s -> %s (round %d)", asked, s.Text, runtime.Round(ctx))}, nil
	}
	q := "What is the capital of France?"
	return x.InputRequired(map[string]protocol.InputRequest{
		"capital": &protocol.SamplingRequest{Messages: []protocol.SamplingMessage{{Role: "user", Text: q}}, MaxTokens: 20},
	}, q)
}

// confirmRead asks the user to confirm before a document is read.
func confirmRead(_ context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	if ans, ok := x.Elicitation("confirm"); ok {
		if ans.Action != runtime.Accept {
			return &runtime.Response{Result: runtime.ToolError("not confirmed")}, nil
		}
		var a struct{ URI string }
		if err := json.Unmarshal(x.Arguments(), &a); err != nil {
			return nil, err
		}
		return &runtime.Response{Result: runtime.Textf("contents of %s", a.URI)}, nil
	}
	s := impl.NewObjectSchema()
	s.Properties.Set("ok", &jsonschema.Schema{Type: "boolean"})
	return x.InputRequired(map[string]protocol.InputRequest{"confirm": &protocol.ElicitRequest{Mode: "form", Message: "Read it?", RequestedSchema: s}}, nil)
}

func serve(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpsdk.AddExchangeTool(s, &mcp.Tool{Name: "capital", Description: "asks the model"}, opts, capitalTool)
	mcpsdk.AddPrompt(s, topicFlow(), opts)
	mcpsdk.AddTool(s, topicFlow(), opts) // same name as the prompt, other method
	mcpsdk.AddExchangeResourceTemplate(s, &mcp.ResourceTemplate{Name: "doc", URITemplate: "test://doc/{id}", MIMEType: "text/plain"},
		opts, confirmRead)
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// dial connects a 2026-07-28 client that drives rounds itself and declares
// sampling and form elicitation, or nothing.
func dial(t *testing.T, url string, declare bool) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	if declare {
		opts.CreateMessageHandler = func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, errors.New("rounds are driven by the test")
		}
		opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by the test")
		}
	} else {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestExchangeToolSampling(t *testing.T) {
	cs := dial(t, serve(t), true)
	ctx := context.Background()
	r1, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "capital", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, r1.NeedsInput())
	require.NotEmpty(t, r1.RequestState)
	p, ok := r1.InputRequests["capital"].(*mcp.CreateMessageWithToolsParams)
	require.True(t, ok, "capital is %T", r1.InputRequests["capital"])
	assert.EqualValues(t, 20, p.MaxTokens)
	require.Len(t, p.Messages, 1)
	require.Len(t, p.Messages[0].Content, 1)
	assert.Equal(t, "What is the capital of France?", p.Messages[0].Content[0].(*mcp.TextContent).Text)

	answer := mcp.InputResponseMap{"capital": &mcp.CreateMessageResult{
		Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Paris"}}}
	r2, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "capital", Arguments: map[string]any{},
		InputResponses: answer, RequestState: r1.RequestState})
	require.NoError(t, err)
	require.False(t, r2.NeedsInput())
	assert.Equal(t, "What is the capital of France? -> Paris (round 1)", r2.Content[0].(*mcp.TextContent).Text)

	// The answer without the state is not trusted: the tool asks again.
	r3, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "capital", Arguments: map[string]any{}, InputResponses: answer})
	require.NoError(t, err)
	assert.True(t, r3.NeedsInput())

	// A tampered state is a -32602 error, not a result.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "capital", Arguments: map[string]any{},
		InputResponses: answer, RequestState: r1.RequestState + "-TAMPERED"})
	requireRPC(t, err, jsonrpc.CodeInvalidParams)
}

func TestExchangeToolMissingCapability(t *testing.T) {
	cs := dial(t, serve(t), false)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "capital", Arguments: map[string]any{}})
	je := requireRPC(t, err, protocol.CodeMissingCapability)
	assert.JSONEq(t, `{"requiredCapabilities":{"sampling":{}}}`, string(je.Data))
}

func TestPromptFlow(t *testing.T) {
	url := serve(t)
	cs := dial(t, url, true)
	ctx := context.Background()

	list, err := cs.ListPrompts(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Prompts, 1)
	assert.Equal(t, "Writes about a topic", list.Prompts[0].Description)
	require.Len(t, list.Prompts[0].Arguments, 1)
	assert.Equal(t, "topic", list.Prompts[0].Arguments[0].Name)
	assert.False(t, list.Prompts[0].Arguments[0].Required, "elicitable arguments are optional")

	r1, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "topic"})
	require.NoError(t, err)
	require.True(t, r1.NeedsInput())
	ep, ok := r1.InputRequests["topic"].(*mcp.ElicitParams)
	require.True(t, ok, "topic is %T", r1.InputRequests["topic"])
	assert.Contains(t, ep.Message, "Topic")

	answer := mcp.InputResponseMap{"topic": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"topic": "Go"}}}
	r2, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "topic", InputResponses: answer, RequestState: r1.RequestState})
	require.NoError(t, err)
	require.False(t, r2.NeedsInput())
	require.Len(t, r2.Messages, 1)
	assert.Equal(t, mcp.Role("user"), r2.Messages[0].Role)
	assert.Equal(t, "accept Go", r2.Messages[0].Content.(*mcp.TextContent).Text)

	// A prompt's state does not resume the tool of the same name.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "topic", Arguments: map[string]any{},
		InputResponses: answer, RequestState: r1.RequestState})
	requireRPC(t, err, jsonrpc.CodeInvalidParams)

	// Given as an argument, nothing is asked.
	r3, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "topic", Arguments: map[string]string{"topic": "MCP"}})
	require.NoError(t, err)
	assert.Equal(t, "accept MCP", r3.Messages[0].Content.(*mcp.TextContent).Text)

	// A client without form elicitation gets -32602 naming the field.
	_, err = dial(t, url, false).GetPrompt(ctx, &mcp.GetPromptParams{Name: "topic"})
	je := requireRPC(t, err, jsonrpc.CodeInvalidParams)
	assert.Contains(t, je.Message, "topic")
}

func requireRPC(t *testing.T, err error, code int64) *jsonrpc.Error {
	t.Helper()
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je, "want JSON-RPC error %d", code)
	require.Equal(t, code, je.Code, "error: %v", err)
	return je
}

func TestExchangeResource(t *testing.T) {
	cs := dial(t, serve(t), true)
	ctx := context.Background()
	r1, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/1"})
	require.NoError(t, err)
	require.True(t, r1.NeedsInput())
	require.Contains(t, r1.InputRequests, "confirm")

	yes := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}}
	r2, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/1", InputResponses: yes, RequestState: r1.RequestState})
	require.NoError(t, err)
	require.False(t, r2.NeedsInput())
	require.Len(t, r2.Contents, 1)
	assert.Equal(t, "contents of test://doc/1", r2.Contents[0].Text)
	assert.Equal(t, "text/plain", r2.Contents[0].MIMEType)

	// The state of a read of doc/1 does not resume a read of doc/2.
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/2", InputResponses: yes, RequestState: r1.RequestState})
	requireRPC(t, err, jsonrpc.CodeInvalidParams)

	// The read completed: its state, replayed with another answer, gets the
	// recorded contents and runs nothing (at most once).
	no := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "decline"}}
	again, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/1", InputResponses: no, RequestState: r1.RequestState})
	require.NoError(t, err)
	require.Len(t, again.Contents, 1)
	assert.Equal(t, "contents of test://doc/1", again.Contents[0].Text)

	r1, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/1"})
	require.NoError(t, err)
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/1", InputResponses: no, RequestState: r1.RequestState})
	je := requireRPC(t, err, jsonrpc.CodeInvalidParams)
	assert.Equal(t, "not confirmed", je.Message)
}

// An error a tool's handler returns reaches the client as a tool error
// result (isError) it can read, not a JSON-RPC error.
func TestHandlerErrorIsAToolErrorResult(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	opts := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	mcpsdk.AddExchangeTool(s, &mcp.Tool{Name: "down"}, opts, func(context.Context, *runtime.Exchange) (*runtime.Response, error) {
		return nil, errors.New("the booking backend is down")
	})
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	cs := dial(t, srv.URL, true)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "down"})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Len(t, res.Content, 1)
	assert.Equal(t, "the booking backend is down", res.Content[0].(*mcp.TextContent).Text)
}
