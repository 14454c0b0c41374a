package otelmcp

import (
	"context"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/clip"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Call is one MCP request as an SDK adapter describes it to [Telemetry.Start]:
// names and identifiers only.
type Call struct {
	Method          string         // the JSON-RPC method, e.g. "tools/call"
	Tool            string         // tools/call: the tool's name
	Prompt          string         // prompts/get: the prompt's name
	RequestState    string         // a retry's requestState, read only through runtime.Options.CarriedTrace
	ProtocolVersion string         // the MCP protocol version, "" when unknown
	SessionID       string         // the MCP session, "" when there is none
	RequestID       string         // the JSON-RPC id as a string, "" when unknown
	Meta            map[string]any // params._meta, where a client's trace context is
}

// Span is the SERVER span of one request, from [Telemetry.Start] to
// [Span.End].
type Span struct {
	t     *Telemetry
	span  trace.Span
	start time.Time
	attrs []attribute.KeyValue // the metric's attributes known at the start
}

// Start starts c's SERVER span (see the package comment for its name,
// attributes, parent and links) and returns the context that carries it,
// for the request's handler. o, when not nil, opens a retry's requestState
// for the previous round's span context ([runtime.Options.CarriedTrace]).
func (t *Telemetry) Start(ctx context.Context, c *Call, o *runtime.Options) (context.Context, *Span) {
	name := c.Method
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs, semconv.McpMethodNameKey.String(c.Method))
	switch {
	case c.Tool != "":
		tool := target(c.Tool)
		name += " " + tool
		attrs = append(attrs, semconv.GenAIToolName(tool), semconv.GenAIOperationNameExecuteTool)
	case c.Prompt != "":
		prompt := target(c.Prompt)
		name += " " + prompt
		attrs = append(attrs, semconv.GenAIPromptName(prompt))
	}
	if c.ProtocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(versionLabel(c.ProtocolVersion)))
	}
	metricAttrs := attrs
	if c.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionID(c.SessionID))
	}
	if c.RequestID != "" {
		attrs = append(attrs, semconv.JSONRPCRequestID(c.RequestID))
	}

	// The client's context in _meta, extracted apart from ctx so that it
	// is told from the transport's span already in ctx.
	var client trace.SpanContext
	if len(c.Meta) > 0 {
		mctx := t.prop.Extract(context.Background(), metaCarrier(c.Meta))
		client = trace.SpanContextFromContext(mctx)
		if b := baggage.FromContext(mctx); b.Len() > 0 {
			ctx = baggage.ContextWithBaggage(ctx, b)
		}
	}
	var previous trace.SpanContext
	if o != nil && c.RequestState != "" {
		if tp := o.CarriedTrace(c.RequestState); tp != "" {
			previous = trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(),
				propagation.MapCarrier{"traceparent": tp}))
		}
	}
	ambient := trace.SpanContextFromContext(ctx)
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
	link := func(sc trace.SpanContext, kind string) {
		if sc.IsValid() {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: sc, Attributes: []attribute.KeyValue{AttrLink.String(kind)}}))
		}
	}
	switch {
	case client.IsValid():
		ctx = trace.ContextWithRemoteSpanContext(ctx, client)
		link(previous, "previous_round")
		link(ambient, "transport")
	case previous.IsValid():
		ctx = trace.ContextWithRemoteSpanContext(ctx, previous)
		link(ambient, "transport")
	}
	ctx, span := t.tracer.Start(ctx, name, opts...)
	return ctx, &Span{t: t, span: span, start: time.Now(), attrs: metricAttrs}
}

// End ends the span and records mcp.server.operation.duration. code is the
// JSON-RPC error code the request was answered with (0: none); toolError
// reports a result with isError. Either sets error.type and status Error;
// a code also sets rpc.response.status_code.
func (s *Span) End(ctx context.Context, code int64, toolError bool) {
	attrs := s.attrs
	switch {
	case code != 0:
		et := errorType(code)
		attrs = append(attrs[:len(attrs):len(attrs)], semconv.ErrorTypeKey.String(et), semconv.RPCResponseStatusCodeKey.String(et))
		s.span.SetAttributes(attrs[len(s.attrs):]...)
		// Not the JSON-RPC message, which may quote an argument.
		s.span.SetStatus(codes.Error, "JSON-RPC error "+et)
	case toolError:
		attrs = append(attrs[:len(attrs):len(attrs)], semconv.ErrorTypeKey.String("tool_error"))
		s.span.SetAttributes(attrs[len(s.attrs):]...)
		s.span.SetStatus(codes.Error, "tool_error")
	}
	s.span.End()
	s.t.duration.Inst().Record(ctx, time.Since(s.start).Seconds(), metric.WithAttributes(attrs...))
}

// untargeted makes s a request of method without a target: its name is
// method alone ("If there is no low-cardinality target available") and its
// mcp.server.operation.duration has no gen_ai.tool.name or
// gen_ai.prompt.name, for a tool or prompt the server does not have, whose
// name the client chose. The span keeps the attribute, as sent up to
// [clip.Max] bytes: "no-such-tool", or the first 64 bytes of a longer
// name, "…" and its length ("xxxx…(20000 bytes)").
func (s *Span) untargeted(method string) {
	s.span.SetName(method)
	attrs := make([]attribute.KeyValue, 0, len(s.attrs))
	for _, kv := range s.attrs {
		if kv.Key != semconv.GenAIToolNameKey && kv.Key != semconv.GenAIPromptNameKey {
			attrs = append(attrs, kv)
		} else {
			s.span.SetAttributes(kv.Key.String(clip.Text(kv.Value.AsString())))
		}
	}
	s.attrs = attrs
}

// maxTarget is the longest tool or prompt name a span's name and its
// gen_ai.tool.name or gen_ai.prompt.name carry as they are: 128, the length
// a tool's name should not exceed (MCP 2025-11-25, server/tools, "Tool
// Names"). A span starts before the SDK has looked the name up, so a name
// the client made up reaches it too.
const maxTarget = 128

// target is a tool's or prompt's name as a span carries it: name when it is
// at most maxTarget bytes long, else shortened by [clip.Text] (its first 64
// bytes, "…" and its length), so that no request makes a span's name or
// attributes longer than about 200 bytes whatever name it sends.
func target(name string) string {
	if len(name) <= maxTarget {
		return name
	}
	return clip.Text(name)
}

// metaCarrier reads a trace context from params._meta: its string values
// by key (traceparent, tracestate, baggage).
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(string, string) {} // never written: a server only reads

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// knownVersions are the MCP protocol versions published up to 2026-07-28
// (basic/lifecycle, "Version Negotiation": a version is the date of its
// last backwards-incompatible change).
var knownVersions = []string{"2024-11-05", "2025-03-26", protocol.Version20250618, protocol.Version20251125, protocol.VersionMRTR}

// versionLabel is v as the mcp.protocol.version attribute carries it: one of
// knownVersions, else "other". A client's initialize names any version it
// likes, and an SDK may report that request rather than what it negotiated:
// written as sent, each made-up version would be a new metric series (one
// client could grow them without bound) and any length would reach the
// exporter.
func versionLabel(v string) string {
	if slices.Contains(knownVersions, v) {
		return v
	}
	return "other"
}
