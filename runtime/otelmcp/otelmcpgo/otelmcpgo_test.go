package otelmcpgo_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpgo"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
	"github.com/mcpgen/mcpgen/runtime/otelmcp/otelmcpgo"
)

// On mcp-go, a call's rounds are one trace too, served by two instances
// sharing keys and a store; a tampered state's span says why it was
// refused.
func TestMCPGoRoundsAreOneTrace(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	cfg := &otelmcp.Config{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
		Propagator: propagation.TraceContext{}}
	keys, store := runtime.EphemeralKeyRing(), runtime.NewMemoryStore()
	var sessions []*mcp.ClientSession
	for range 2 {
		mo := &mcpgo.Options{Flow: runtime.Options{Keys: keys, Store: store}}
		s := mgserver.NewMCPServer("fixture", "1", mgserver.WithToolCapabilities(false), mgserver.WithElicitation(),
			otelmcpgo.Instrument(&mo.Flow, cfg))
		mcpgo.AddTool(s, fixture.NewTripFlow(&fixture.TripRecorder{}), mo)
		srv := httptest.NewServer(mcpgo.NewHTTPHandler(s, nil))
		t.Cleanup(srv.Close)
		c := mcp.NewClient(&mcp.Implementation{Name: "go-sdk", Version: "1"}, &mcp.ClientOptions{
			MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return nil, errors.New("rounds are driven by the test")
			},
		})
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		sessions = append(sessions, cs)
	}
	params := &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}}
	first, err := sessions[0].CallTool(t.Context(), params)
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	params.RequestState = first.RequestState
	params.InputResponses = mcp.InputResponseMap{"plan_trip": &mcp.ElicitResult{Action: "accept",
		Content: map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2}}}
	done, err := sessions[1].CallTool(t.Context(), params)
	require.NoError(t, err)
	require.False(t, done.NeedsInput())
	params.RequestState = first.RequestState[:len(first.RequestState)-3] + "AAA"
	_, err = sessions[1].CallTool(t.Context(), params)
	require.Error(t, err)

	ended := spans.Ended()
	require.Len(t, ended, 3)
	attrs := func(i int) map[attribute.Key]attribute.Value {
		m := map[attribute.Key]attribute.Value{}
		for _, kv := range ended[i].Attributes() {
			m[kv.Key] = kv.Value
		}
		return m
	}
	for i, s := range ended {
		assert.Equal(t, "tools/call plan_trip", s.Name())
		assert.Equal(t, trace.SpanKindServer, s.SpanKind())
		assert.Equal(t, "plan_trip", attrs(i)["gen_ai.tool.name"].AsString())
		assert.Equal(t, "2026-07-28", attrs(i)["mcp.protocol.version"].AsString())
	}
	assert.Equal(t, ended[0].SpanContext().TraceID(), ended[1].SpanContext().TraceID())
	assert.Equal(t, ended[0].SpanContext().SpanID(), ended[1].Parent().SpanID(), "round 2 is the child of round 1")
	assert.Equal(t, "asked", attrs(0)["mcpgen.outcome"].AsString())
	assert.Equal(t, "completed", attrs(1)["mcpgen.outcome"].AsString())
	assert.Equal(t, "tampered", attrs(2)["mcpgen.refusal.reason"].AsString())
	assert.Equal(t, "-32603", attrs(2)["error.type"].AsString(), "mcp-go answers the refusal with -32603")
}
