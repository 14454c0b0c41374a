package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// telemetry is what the tests in this file observe: every span ended and
// every metric, through the OpenTelemetry SDK's in-memory exporters.
type telemetry struct {
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
	cfg     *otelmcp.Config

	tp *sdktrace.TracerProvider

	mu      sync.Mutex
	flowIDs []string // every Event.FlowID, heard by an OnEnd set before Instrument
}

func newTelemetry() *telemetry {
	tel := &telemetry{spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	tel.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tel.spans))
	tel.cfg = &otelmcp.Config{
		TracerProvider: tel.tp,
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.metrics)),
		// Propagator nil: W3C Trace Context and Baggage, the _meta keys' format.
	}
	return tel
}

// tracedInstances starts n instrumented bookflight instances sharing one
// key ring and one store, as instances behind a load balancer do.
func tracedInstances(t *testing.T, tel *telemetry, n int) []*instance {
	t.Helper()
	return tracedInstancesWrapped(t, tel, n, nil)
}

// tracedInstancesWrapped is tracedInstances with each endpoint served
// through wrap (nil: as it is).
func tracedInstancesWrapped(t *testing.T, tel *telemetry, n int, wrap func(http.Handler) http.Handler) []*instance {
	t.Helper()
	keys := runtime.EphemeralKeyRing()
	store := runtime.NewMemoryStore()
	var out []*instance
	for range n {
		in := &instance{h: &countingHandler{}}
		s := mcp.NewServer(&mcp.Implementation{Name: "bookflight", Version: "0.1.0"}, nil)
		mo := &mcpsdk.Options{Flow: runtime.Options{Keys: keys, Store: store, Logger: quiet,
			OnEnd: func(_ context.Context, ev runtime.Event) {
				tel.mu.Lock()
				tel.flowIDs = append(tel.flowIDs, ev.FlowID)
				tel.mu.Unlock()
			}}}
		otelmcp.Instrument(s, &mo.Flow, tel.cfg)
		mcpsdk.AddTool(s, NewBookFlightArgsFlow(in.h), mo)
		var h http.Handler = mcpsdk.NewHTTPHandler(s, nil)
		if wrap != nil {
			h = wrap(h)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		in.url = srv.URL
		out = append(out, in)
	}
	return out
}

// calls returns the ended spans named "tools/call book_flight", in order.
func (tel *telemetry) calls() []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range tel.spans.Ended() {
		if s.Name() == "tools/call book_flight" {
			out = append(out, s)
		}
	}
	return out
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// threeRounds drives one call over three rounds, alternating between the
// clients: asked, a date that is not one (asked again), a good date. meta,
// when set, is every request's _meta.
func threeRounds(t *testing.T, cs []*mcp.ClientSession, meta mcp.Meta) {
	t.Helper()
	callWith := func(c *mcp.ClientSession, answers mcp.InputResponseMap, state string) *mcp.CallToolResult {
		t.Helper()
		res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Meta: meta, Name: "book_flight", Arguments: route,
			InputResponses: answers, RequestState: state})
		require.NoError(t, err)
		return res
	}
	r1 := callWith(cs[0], nil, "")
	require.True(t, r1.NeedsInput())
	r2 := callWith(cs[1], answer("accept", map[string]any{"date": "next-tuesday-please", "passengers": 4}), r1.RequestState)
	require.True(t, r2.NeedsInput(), "a date that is not one is asked again")
	r3 := callWith(cs[0], mcp.InputResponseMap{"book_flight_2": &mcp.ElicitResult{Action: "accept",
		Content: map[string]any{"date": "2031-05-17"}}}, r2.RequestState)
	assert.Contains(t, text(t, r3), "2031-05-17")
}

// A three-round call served by two instances, rounds alternating, is one
// trace: three SERVER spans "tools/call book_flight", each the child of the
// one before, with the conventions' attributes and mcpgen's.
func TestOneTraceAcrossRoundsAndInstances(t *testing.T) {
	t.Parallel()
	tel := newTelemetry()
	ins := tracedInstances(t, tel, 2)
	threeRounds(t, []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true)}, nil)

	spans := tel.calls()
	require.Len(t, spans, 3)
	for i, s := range spans {
		a := attrs(s)
		assert.Equal(t, trace.SpanKindServer, s.SpanKind())
		assert.Equal(t, spans[0].SpanContext().TraceID(), s.SpanContext().TraceID(), "round %d shares the trace", i+1)
		if i == 0 {
			assert.False(t, s.Parent().IsValid(), "round 1 is the root")
		} else {
			assert.Equal(t, spans[i-1].SpanContext().SpanID(), s.Parent().SpanID(), "round %d is the child of round %d", i+1, i)
			assert.True(t, s.Parent().IsRemote())
		}
		assert.Equal(t, "tools/call", a["mcp.method.name"].AsString())
		assert.Equal(t, "book_flight", a["gen_ai.tool.name"].AsString())
		assert.Equal(t, "execute_tool", a["gen_ai.operation.name"].AsString())
		assert.Equal(t, "2026-07-28", a["mcp.protocol.version"].AsString())
		assert.EqualValues(t, i+1, a["mcpgen.round"].AsInt64())
		assert.Equal(t, attrs(spans[0])["mcpgen.flow.id"], a["mcpgen.flow.id"], "one flow")
		assert.Len(t, a["mcpgen.flow.id"].AsString(), 16)
		assert.NotContains(t, a, attribute.Key("error.type"))
	}
	outcomes := []string{}
	for _, s := range spans {
		outcomes = append(outcomes, attrs(s)["mcpgen.outcome"].AsString())
	}
	assert.Equal(t, []string{"asked", "asked", "completed"}, outcomes)
	assert.Equal(t, []string{"book_flight"}, attrs(spans[0])["mcpgen.question.keys"].AsStringSlice())
	assert.Equal(t, []string{"book_flight_2"}, attrs(spans[1])["mcpgen.question.keys"].AsStringSlice())
	assert.Equal(t, []string{"date"}, attrs(spans[1])["mcpgen.reasked.fields"].AsStringSlice())

	rm := collect(t, tel)
	assert.EqualValues(t, 3, histogramCount(rm, "mcp.server.operation.duration", "gen_ai.tool.name", "book_flight"))
	assert.EqualValues(t, 2, counter(rm, "mcpgen.outcomes", "mcpgen.outcome", "asked"))
	assert.EqualValues(t, 1, counter(rm, "mcpgen.outcomes", "mcpgen.outcome", "completed"))
	assert.EqualValues(t, 2, counter(rm, "mcpgen.claims", "mcpgen.claim.result", "claimed"), "rounds 2 and 3 claim the flow")
	assert.EqualValues(t, 1, counter(rm, "mcpgen.rounds", "mcpgen.round", "3"))
	assert.Positive(t, histogramCount(rm, "mcpgen.store.duration", "mcpgen.store.operation", "claim"))
}

// A client's trace context in _meta is every round's parent; the previous
// round is then a link.
func TestClientTraceContextIsTheParent(t *testing.T) {
	t.Parallel()
	tel := newTelemetry()
	ins := tracedInstances(t, tel, 2)
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	threeRounds(t, []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true)},
		mcp.Meta{"traceparent": tp, "baggage": "tenant=acme"})
	spans := tel.calls()
	require.Len(t, spans, 3)
	for i, s := range spans {
		assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", s.SpanContext().TraceID().String())
		assert.Equal(t, "00f067aa0ba902b7", s.Parent().SpanID().String(), "round %d: the client's span is the parent", i+1)
		if i == 0 {
			assert.Empty(t, s.Links())
			continue
		}
		require.Len(t, s.Links(), 1, "round %d links the previous round", i+1)
		assert.Equal(t, spans[i-1].SpanContext().SpanID(), s.Links()[0].SpanContext.SpanID())
		assert.Equal(t, []attribute.KeyValue{otelmcp.AttrLink.String("previous_round")}, s.Links()[0].Attributes)
	}
}

// Behind otelhttp, round 1's span is the child of its HTTP span; a later
// round's parent is the previous round, its own HTTP span a link.
func TestHTTPSpanIsLinked(t *testing.T) {
	t.Parallel()
	tel := newTelemetry()
	ins := tracedInstancesWrapped(t, tel, 2, func(h http.Handler) http.Handler {
		return otelhttp.NewHandler(h, "mcp", otelhttp.WithTracerProvider(tel.tp))
	})
	threeRounds(t, []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true)}, nil)
	spans := tel.calls()
	require.Len(t, spans, 3)
	httpSpans := map[trace.SpanID]bool{}
	// otelhttp ends its span after the response is written, so the client
	// may read the last response before its HTTP span has ended: wait for it.
	require.Eventually(t, func() bool {
		clear(httpSpans)
		for _, s := range tel.spans.Ended() {
			if s.SpanKind() == trace.SpanKindServer && s.Name() != "tools/call book_flight" && s.InstrumentationScope().Name != "github.com/mcpgen/mcpgen/runtime/otelmcp" {
				httpSpans[s.SpanContext().SpanID()] = true
			}
		}
		for _, s := range spans[1:] {
			if len(s.Links()) == 1 && !httpSpans[s.Links()[0].SpanContext.SpanID()] {
				return false
			}
		}
		return httpSpans[spans[0].Parent().SpanID()]
	}, 5*time.Second, 5*time.Millisecond, "round 1 is the child of its HTTP span, and every round's HTTP span ends")
	for i := 1; i < 3; i++ {
		s := spans[i]
		assert.Equal(t, spans[i-1].SpanContext().SpanID(), s.Parent().SpanID(), "round %d is the child of round %d", i+1, i)
		require.Len(t, s.Links(), 1)
		assert.True(t, httpSpans[s.Links()[0].SpanContext.SpanID()], "round %d links its HTTP span", i+1)
		assert.Equal(t, []attribute.KeyValue{otelmcp.AttrLink.String("transport")}, s.Links()[0].Attributes)
	}
}

// A tampered state is refused: its span says why, with error.type -32602.
func TestTamperedStateSpan(t *testing.T) {
	t.Parallel()
	tel := newTelemetry()
	ins := tracedInstances(t, tel, 1)
	cs := connect(t, ins[0].url, true)
	first, err := call(t, cs, route, nil, "")
	require.NoError(t, err)
	bad := []byte(first.RequestState)
	bad[len(bad)/2] = flip(bad[len(bad)/2])
	_, err = call(t, cs, route, answer("accept", map[string]any{"date": "2027-01-02"}), string(bad))
	requireCode(t, err, -32602)

	spans := tel.calls()
	require.Len(t, spans, 2)
	s := spans[1]
	a := attrs(s)
	assert.Equal(t, "rejected", a["mcpgen.outcome"].AsString())
	assert.Equal(t, "tampered", a["mcpgen.refusal.reason"].AsString())
	assert.Equal(t, "-32602", a["error.type"].AsString())
	assert.Equal(t, "-32602", a["rpc.response.status_code"].AsString())
	assert.Equal(t, "Error", s.Status().Code.String())
	assert.False(t, s.Parent().IsValid(), "a tampered state gives no parent")
	assert.NotEqual(t, spans[0].SpanContext().TraceID(), s.SpanContext().TraceID())
	_, hasRound := a["mcpgen.round"]
	assert.False(t, hasRound, "a state that did not open has no known round")

	rm := collect(t, tel)
	assert.EqualValues(t, 1, counter(rm, "mcpgen.refusals", "mcpgen.refusal.reason", "tampered"))
	assert.EqualValues(t, 1, counter(rm, "mcpgen.rounds", "mcpgen.round", "1"), "only the first call is a round 1")
	assert.EqualValues(t, 1, histogramCount(rm, "mcp.server.operation.duration", "error.type", "-32602"))
}

// No span attribute, event, link or status, and no metric label, holds an
// answer's value, an argument's value, the state or the key ring's secret.
func TestTelemetryHoldsNoAnswerStateOrSecret(t *testing.T) {
	t.Parallel()
	tel := newTelemetry()
	ins := tracedInstances(t, tel, 2)
	cs := []*mcp.ClientSession{connect(t, ins[0].url, true), connect(t, ins[1].url, true)}
	threeRounds(t, cs, nil)
	// A declined call and a tampered one too.
	first, err := call(t, cs[0], route, nil, "")
	require.NoError(t, err)
	_, err = call(t, cs[1], route, answer("decline", nil), first.RequestState)
	require.NoError(t, err)
	_, err = call(t, cs[1], route, answer("accept", map[string]any{"date": "2029-12-30"}), first.RequestState[:len(first.RequestState)-2]+"AA")
	require.Error(t, err)

	var seen []string
	add := func(kvs []attribute.KeyValue) {
		for _, kv := range kvs {
			seen = append(seen, string(kv.Key)+"="+kv.Value.String())
		}
	}
	require.NotEmpty(t, tel.spans.Ended())
	for _, s := range tel.spans.Ended() {
		seen = append(seen, s.Name(), s.Status().Description)
		add(s.Attributes())
		for _, e := range s.Events() {
			seen = append(seen, e.Name)
			add(e.Attributes)
		}
		for _, l := range s.Links() {
			add(l.Attributes)
		}
	}
	rm := collect(t, tel)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			for _, set := range pointSets(m) {
				add(set.ToSlice())
			}
		}
	}
	all := strings.Join(seen, "\n")
	require.Contains(t, all, "mcpgen.outcome=declined", "the search sees the spans")
	leaks := []string{"next-tuesday-please", "2031-05-17", "2029-12-30", "CDG", "JFK",
		first.RequestState[:24], first.RequestState[len(first.RequestState)-24:]}
	tel.mu.Lock()
	require.NotEmpty(t, tel.flowIDs, "the OnEnd set before Instrument is still called")
	for _, id := range tel.flowIDs {
		if id != "" {
			leaks = append(leaks, id)
		}
	}
	tel.mu.Unlock()
	for _, leak := range leaks {
		assert.NotContains(t, all, leak)
	}
}

func collect(t *testing.T, tel *telemetry) *metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, tel.metrics.Collect(context.Background(), &rm))
	return &rm
}

// pointSets returns the attribute sets of m's data points.
func pointSets(m metricdata.Metrics) []attribute.Set {
	var out []attribute.Set
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	}
	return out
}

// counter sums the points of the counter name whose attribute key has value.
func counter(rm *metricdata.ResourceMetrics, name, key, value string) int64 {
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == name {
				for _, p := range d.DataPoints {
					if v, ok := p.Attributes.Value(attribute.Key(key)); ok && v.String() == value {
						n += p.Value
					}
				}
			}
		}
	}
	return n
}

// histogramCount counts the measurements of the histogram name whose
// attribute key has value.
func histogramCount(rm *metricdata.ResourceMetrics, name, key, value string) uint64 {
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == name {
				for _, p := range d.DataPoints {
					if v, ok := p.Attributes.Value(attribute.Key(key)); ok && v.String() == value {
						n += p.Count
					}
				}
			}
		}
	}
	return n
}

// A 2025-11-25 client on a session: the call (one tools/call, its round
// asked on the call through elicitation/create) has its span with the
// session id and the protocol version.
func TestLegacySessionSpan(t *testing.T) {
	t.Parallel()
	tel := newTelemetry()
	ins := tracedInstances(t, tel, 1)
	c := mcp.NewClient(&mcp.Implementation{Name: "legacy-http", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": "2026-12-31"}}, nil
		},
	})
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ins[0].url},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "book_flight", Arguments: route})
	require.NoError(t, err)
	assert.Contains(t, text(t, res), "2026-12-31")

	spans := tel.calls()
	require.Len(t, spans, 1)
	a := attrs(spans[0])
	assert.Equal(t, "2025-11-25", a["mcp.protocol.version"].AsString())
	assert.Equal(t, cs.ID(), a["mcp.session.id"].AsString())
	assert.Equal(t, "completed", a["mcpgen.outcome"].AsString(), "the round asked on the call ends it")
}
