package otelmcp_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// A tools/call or prompts/get naming a tool or prompt the server does not
// have is a span named by its method alone, and its duration has no
// gen_ai.tool.name or gen_ai.prompt.name: the name is the client's, any
// string, and would make a new series (and span name) per request.
func TestUnknownTargetIsNoLabel(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	cfg := &otelmcp.Config{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))}
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	otelmcp.Instrument(s, &runtime.Options{Keys: runtime.EphemeralKeyRing()}, cfg)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })

	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo"})
	require.NoError(t, err)
	for _, name := range []string{"no-such-tool-1", "no-such-tool-2"} {
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name})
		require.ErrorContains(t, err, "unknown tool") // go-sdk's message, which the middleware recognises
	}
	_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "no-such-prompt"})
	require.ErrorContains(t, err, "unknown prompt")

	var names []string
	for _, sp := range spans.Ended() {
		names = append(names, sp.Name())
	}
	assert.Contains(t, names, "tools/call echo")
	assert.Equal(t, 2, countOf(names, "tools/call"), names)
	assert.Equal(t, 1, countOf(names, "prompts/get"), names)
	for _, n := range names {
		assert.NotContains(t, n, "no-such", "a span named by the client's name")
	}

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(t.Context(), &rm))
	var tools []string
	found := false
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "mcp.server.operation.duration" {
				continue
			}
			found = true
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				for _, kv := range dp.Attributes.ToSlice() {
					assert.NotContains(t, kv.Value.String(), "no-such", "a label with the client's name: %s", kv.Key)
					if kv.Key == "gen_ai.tool.name" {
						tools = append(tools, kv.Value.AsString())
					}
				}
			}
		}
	}
	require.True(t, found)
	assert.Equal(t, []string{"echo"}, tools)
}

func countOf(names []string, name string) int {
	n := 0
	for _, s := range names {
		if s == name {
			n++
		}
	}
	return n
}
