package otelmcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// instrumented returns a client session of a go-sdk server instrumented with
// cfg that has one tool, named tool, answering "ok".
func instrumented(t *testing.T, cfg *otelmcp.Config, tool string) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	otelmcp.Instrument(s, &runtime.Options{Keys: runtime.EphemeralKeyRing()}, cfg)
	mcp.AddTool(s, &mcp.Tool{Name: tool}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// A tools/call or prompts/get naming a tool or prompt the server does not
// have is a span named by its method alone, and its duration has no
// gen_ai.tool.name or gen_ai.prompt.name: the name is the client's, any
// string, and would make a new series (and span name) per request.
func TestUnknownTargetIsNoLabel(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	cfg := &otelmcp.Config{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))}
	cs := instrumented(t, cfg, "echo")

	_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo"})
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

// startSeen records every span's name and attributes as a span processor
// sees them when the span starts (before the SDK looked the tool up) and
// when it ends.
type startSeen struct {
	mu   sync.Mutex
	seen []string
}

func (p *startSeen) note(name string, attrs []attribute.KeyValue) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, name)
	for _, kv := range attrs {
		p.seen = append(p.seen, string(kv.Key)+"="+kv.Value.String())
	}
}

func (p *startSeen) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	p.note(s.Name(), s.Attributes())
}
func (p *startSeen) OnEnd(s sdktrace.ReadOnlySpan)    { p.note(s.Name(), s.Attributes()) }
func (p *startSeen) Shutdown(context.Context) error   { return nil }
func (p *startSeen) ForceFlush(context.Context) error { return nil }

// A tools/call or prompts/get naming, with 20,000 characters, a tool or
// prompt the server does not have gives no span a name or an attribute
// longer than a few hundred bytes, at its start or its end; a known tool
// keeps its name.
func TestUnknownTargetIsBounded(t *testing.T) {
	seen := &startSeen{}
	cfg := &otelmcp.Config{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(seen)),
		MeterProvider: sdkmetric.NewMeterProvider()}
	known := strings.Repeat("k", 120)
	cs := instrumented(t, cfg, known)

	long := strings.Repeat("x", 20_000)
	_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: long})
	require.ErrorContains(t, err, "unknown tool")
	_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: long})
	require.ErrorContains(t, err, "unknown prompt")
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no-such-tool"})
	require.ErrorContains(t, err, "unknown tool")
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: known})
	require.NoError(t, err)

	seen.mu.Lock()
	defer seen.mu.Unlock()
	for _, v := range seen.seen {
		assert.LessOrEqual(t, len(v), 200, "a span's name or attribute of %d bytes: %.80s…", len(v), v)
	}
	assert.Contains(t, seen.seen, "gen_ai.tool.name=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…(20000 bytes)")
	assert.Contains(t, seen.seen, "gen_ai.tool.name=no-such-tool", "a short unknown name is kept on the span as sent")
	assert.Contains(t, seen.seen, "tools/call "+known, "a known tool's span keeps its name")
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

// The protocol version a client's initialize names is any string it likes,
// and go-sdk reports that request: the duration's mcp.protocol.version is
// one of the published versions or "other", so that made-up versions make
// no new series.
func TestMadeUpProtocolVersionIsNoLabel(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	cfg := &otelmcp.Config{TracerProvider: sdktrace.NewTracerProvider(),
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))}
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	otelmcp.Instrument(s, &runtime.Options{Keys: runtime.EphemeralKeyRing()}, cfg)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	for i, version := range []string{"2025-junk-1", "2025-junk-2", strings.Repeat("2", 5000), "2025-06-18"} {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Connect(t.Context(), st, nil)
		require.NoError(t, err)
		conn, err := ct.Connect(t.Context())
		require.NoError(t, err)
		send := func(id int64, method string, params any) {
			raw, err := json.Marshal(params)
			require.NoError(t, err)
			msg := &jsonrpc.Request{Method: method, Params: raw}
			if id != 0 {
				msg.ID, err = jsonrpc.MakeID(float64(id))
				require.NoError(t, err)
			}
			require.NoError(t, conn.Write(t.Context(), msg))
			if id != 0 {
				resp, err := conn.Read(t.Context())
				require.NoError(t, err)
				require.Nil(t, resp.(*jsonrpc.Response).Error, "%s with version %d", method, i)
			}
		}
		send(1, "initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "c", "version": "1"}})
		send(0, "notifications/initialized", map[string]any{})
		send(2, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{}})
		require.NoError(t, conn.Close())
		ss.Close()
	}

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(t.Context(), &rm))
	versions := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "mcp.server.operation.duration" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				if v, ok := dp.Attributes.Value("mcp.protocol.version"); ok {
					versions[v.AsString()] = true
				}
			}
		}
	}
	assert.Equal(t, map[string]bool{"other": true, "2025-06-18": true}, versions)
}
