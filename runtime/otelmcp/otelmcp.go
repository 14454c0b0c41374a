// Package otelmcp traces and measures mcpgen servers with OpenTelemetry, by
// the MCP semantic conventions (OpenTelemetry semantic conventions, "Semantic
// conventions for Model Context Protocol (MCP)", docs/gen-ai/mcp.md, status
// Development; attribute names from go.opentelemetry.io/otel/semconv/v1.41.0),
// and adds what they lack for calls of several rounds under an mcpgen.
// prefix.
//
// Nothing is traced or measured unless a server calls this package: package
// runtime and the SDK adapters import no OpenTelemetry. [Instrument] (or
// [New], [Telemetry.Hooks] and [Telemetry.Middleware]) sets it up on a
// go-sdk server; runtime/otelmcp/otelmcpgo does the same on mcp-go.
//
// Spans: one SERVER span per request, named "{mcp.method.name} {target}"
// (e.g. "tools/call book_flight"; "tools/call" alone for a tool the
// server does not have, whose name the client chose, and then no
// gen_ai.tool.name or gen_ai.prompt.name on the metric either, and at most
// its first 64 bytes, "…" and its length on the span; a name longer than
// 128 bytes is shortened so from the span's start), with
// mcp.method.name, gen_ai.tool.name, gen_ai.operation.name=execute_tool
// (tools/call), gen_ai.prompt.name (prompts/get), mcp.protocol.version (a
// published version, or "other" for one a client made up),
// mcp.session.id when there is a session, jsonrpc.request.id when the
// SDK gives it, and, when the request fails, error.type and
// rpc.response.status_code (the JSON-RPC code as a string) or error.type
// "tool_error" (a result with isError), with status Error. Its parent is
// the trace context in params._meta (traceparent, tracestate, baggage;
// W3C, through the configured propagator); a retry without one is the
// child of the previous round's span, whose traceparent rides sealed in
// the requestState ([runtime.Options].TraceContext,
// [runtime.Options.CarriedTrace]), so every round of a call shares one trace
// whichever instance served it; with a client parent the previous round is
// a link. A span already in the request's context (otelhttp's HTTP span) is
// linked, or is the parent when there is no other.
//
// The mcpgen attributes, set when the round engine ends the request
// ([runtime.Options].OnEnd): mcpgen.round (1 for a first call),
// mcpgen.outcome ([runtime.Event].Outcome), mcpgen.refusal.reason
// ([runtime.Event].Reason), mcpgen.question.keys (the inputRequests keys
// asked), mcpgen.reasked.fields (fields asked again), mcpgen.flow.id (the
// first 8 bytes of the SHA-256 of the flow id, hex: it joins a call's spans
// but is not the flow id). Never an answer's value, the arguments' values,
// the state or a secret; a JSON-RPC error's message is not copied into the
// span status either (it may quote an argument).
//
// Metrics: mcp.server.operation.duration (histogram, s, the semantic
// conventions' attributes and buckets); mcpgen.rounds (requests of
// multi-round calls, by tool and mcpgen.round), mcpgen.outcomes (by tool and
// mcpgen.outcome), mcpgen.refusals (by tool and mcpgen.refusal.reason),
// mcpgen.replays (by tool), mcpgen.claims (at-most-once claims, by
// mcpgen.claim.result) and mcpgen.store.duration (histogram, s, by
// mcpgen.store.operation and error.type) through [Telemetry.Store].
package otelmcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
)

// scope is the instrumentation scope of every tracer and meter.
const scope = "github.com/mcpgen/mcpgen/runtime/otelmcp"

// The mcpgen attributes (see the package comment).
const (
	AttrRound         = attribute.Key("mcpgen.round")
	AttrOutcome       = attribute.Key("mcpgen.outcome")
	AttrRefusalReason = attribute.Key("mcpgen.refusal.reason")
	AttrQuestionKeys  = attribute.Key("mcpgen.question.keys")
	AttrReasked       = attribute.Key("mcpgen.reasked.fields")
	AttrFlowID        = attribute.Key("mcpgen.flow.id")
	AttrClaimResult   = attribute.Key("mcpgen.claim.result")
	AttrStoreOp       = attribute.Key("mcpgen.store.operation")
	AttrLink          = attribute.Key("mcpgen.link") // on a link: "previous_round" or "transport"
)

// Config chooses the providers; a nil Config, or a nil member, means the
// global tracer and meter providers (otel.GetTracerProvider,
// otel.GetMeterProvider), read once by [New]; providers set globally later
// still apply (the global ones delegate).
type Config struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator reads a client's trace context from params._meta. nil
	// means W3C Trace Context and Baggage (traceparent, tracestate,
	// baggage), the format of those _meta keys (MCP 2026-07-28,
	// basic/index, _meta; the MCP semantic conventions, "Context
	// propagation"), whatever propagator the process uses for HTTP.
	Propagator propagation.TextMapPropagator
}

// Telemetry holds the tracer and the instruments of one server (or of
// several that share them). Make one with [New]; its methods are safe for
// concurrent use.
type Telemetry struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator

	duration   mcpconv.ServerOperationDuration
	rounds     metric.Int64Counter
	outcomes   metric.Int64Counter
	refusals   metric.Int64Counter
	replays    metric.Int64Counter
	claims     metric.Int64Counter
	storeTimes metric.Float64Histogram
}

// New returns the telemetry of cfg's providers (nil: the global ones). An
// instrument the meter provider refuses is a no-op one, reported to
// otel.Handle, as the OpenTelemetry API does.
func New(cfg *Config) *Telemetry {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.TracerProvider == nil {
		c.TracerProvider = otel.GetTracerProvider()
	}
	if c.MeterProvider == nil {
		c.MeterProvider = otel.GetMeterProvider()
	}
	if c.Propagator == nil {
		c.Propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	m := c.MeterProvider.Meter(scope)
	t := &Telemetry{tracer: c.TracerProvider.Tracer(scope), prop: c.Propagator}
	var err error
	check := func(e error) {
		if e != nil && err == nil {
			err = e
		}
	}
	var e error
	t.duration, e = mcpconv.NewServerOperationDuration(m,
		metric.WithExplicitBucketBoundaries(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300))
	check(e)
	t.rounds, e = m.Int64Counter("mcpgen.rounds", metric.WithUnit("{request}"),
		metric.WithDescription("Requests of mcpgen's multi-round calls, by tool and round (1: the first call)."))
	check(e)
	t.outcomes, e = m.Int64Counter("mcpgen.outcomes", metric.WithUnit("{request}"),
		metric.WithDescription("Requests of mcpgen's multi-round calls, by outcome: asked, completed, declined, cancelled, replayed, rejected, failed."))
	check(e)
	t.refusals, e = m.Int64Counter("mcpgen.refusals", metric.WithUnit("{request}"),
		metric.WithDescription("Rejected requests of mcpgen's multi-round calls, by reason."))
	check(e)
	t.replays, e = m.Int64Counter("mcpgen.replays", metric.WithUnit("{request}"),
		metric.WithDescription("Retries answered with a completed call's recorded result, nothing run again."))
	check(e)
	t.claims, e = m.Int64Counter("mcpgen.claims", metric.WithUnit("{claim}"),
		metric.WithDescription("At-most-once claims of a retry on the flow store, by result: claimed, recorded (a replay), busy, epoch, error."))
	check(e)
	t.storeTimes, e = m.Float64Histogram("mcpgen.store.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of the flow store's operations, by operation."),
		metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
	check(e)
	if err != nil {
		otel.Handle(err)
	}
	return t
}

// Hooks sets o's tracing and metrics hooks: OnEnd (the mcpgen attributes
// on the request's span, and the counters), TraceContext (replaced: the
// request's span context sealed into the next round's state), Store, timed
// by [Telemetry.Store] (o.FlowStore(): the process's in-memory store when o
// has none), and PageStore, timed by [Telemetry.PageStore]
// (o.FlowPageStore()). An OnEnd o already had is still called, first. Call
// it once, after setting o.Store and o.PageStore (it wraps the stores o has
// then) and before o serves.
func (t *Telemetry) Hooks(o *runtime.Options) {
	prev := o.OnEnd
	o.OnEnd = func(ctx context.Context, ev runtime.Event) {
		if prev != nil {
			prev(ctx, ev)
		}
		t.end(ctx, ev)
	}
	o.TraceContext = traceparent
	if _, timed := o.PageStore.(*pageStore); !timed {
		o.PageStore = t.PageStore(o.FlowPageStore())
	}
	if _, timed := o.Store.(*store); !timed {
		o.Store = t.Store(o.FlowStore())
	}
}

// traceparent returns the W3C traceparent of ctx's span, "" when it has
// none (TraceContext's contract: a traceparent or "").
func traceparent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	return c["traceparent"]
}

// end records what the round engine reports of a request: the mcpgen
// attributes on ctx's span, and the counters.
func (t *Telemetry) end(ctx context.Context, ev runtime.Event) {
	tool := semconv.GenAIToolName(ev.Flow)
	round := AttrRound.Int(ev.Round + 1)
	// A request refused before its state opened (tampered, expired, another
	// user's) has no known round: it is not counted as one, and its span
	// carries no mcpgen.round.
	roundKnown := ev.Outcome != "rejected" || ev.FlowID != ""
	outcome := AttrOutcome.String(ev.Outcome)
	if roundKnown {
		t.rounds.Add(ctx, 1, metric.WithAttributes(tool, round))
	}
	t.outcomes.Add(ctx, 1, metric.WithAttributes(tool, outcome))
	switch ev.Outcome {
	case "rejected":
		t.refusals.Add(ctx, 1, metric.WithAttributes(tool, AttrRefusalReason.String(ev.Reason)))
	case "replayed":
		t.replays.Add(ctx, 1, metric.WithAttributes(tool))
	}
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, outcome)
	if roundKnown {
		attrs = append(attrs, round)
	}
	if ev.FlowID != "" {
		attrs = append(attrs, AttrFlowID.String(FlowHash(ev.FlowID)))
	}
	if ev.Reason != "" {
		attrs = append(attrs, AttrRefusalReason.String(ev.Reason))
	}
	if len(ev.Keys) > 0 {
		attrs = append(attrs, AttrQuestionKeys.StringSlice(ev.Keys))
	}
	if len(ev.Reasked) > 0 {
		attrs = append(attrs, AttrReasked.StringSlice(ev.Reasked))
	}
	span.SetAttributes(attrs...)
}

// FlowHash is the value of mcpgen.flow.id for the flow id flowID
// ([runtime.FlowID]): the first 8 bytes of its SHA-256, in hex. It joins
// the spans of one call; the flow id (random, 16 bytes) cannot be recovered
// from it.
func FlowHash(flowID string) string {
	sum := sha256.Sum256([]byte(flowID))
	return hex.EncodeToString(sum[:8])
}

// errorType is the error.type (and rpc.response.status_code) of a JSON-RPC
// error code.
func errorType(code int64) string { return strconv.FormatInt(code, 10) }
