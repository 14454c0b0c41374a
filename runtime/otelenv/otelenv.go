// Package otelenv sets up OpenTelemetry for an MCP server from the standard
// environment, as operators expect of a Go server: one call, [Start], in
// main creates the exporters of
// go.opentelemetry.io/contrib/exporters/autoexport and sets the global
// providers; [Instrument] puts runtime/otelmcp on the go-sdk server and its
// flows' options, [HTTP] puts otelhttp around the HTTP endpoint. mcpgen
// init's main and every example use it:
//
//	shutdown, err := otelenv.Start(ctx, "myserver", stdio)
//	if err != nil { … } // names the variable at fault
//	defer otelenv.Stop(shutdown, func(err error) { log.Warn("telemetry shutdown", "err", err) })
//	…
//	otelenv.Instrument(s, &opts.Flow) // before the tools are added
//	handler := otelenv.HTTP(nil)(mcpsdk.NewHTTPHandler(s, nil))
//
// It is off unless the operator sets OTEL_TRACES_EXPORTER or
// OTEL_METRICS_EXPORTER (OpenTelemetry SDK environment variables,
// "Exporter selection"): autoexport's default for an unset variable is
// otlp, which would make every server send to localhost:4318 unasked.
// Off, [Start] sets no provider and [Instrument] and [HTTP] add nothing, so
// the server runs exactly as without this package. A variable set to none
// turns that signal off; the other may still be on. Over stdio, where
// stdout carries the MCP messages, the console exporter (which writes to
// stdout) is refused with an error instead of corrupting the protocol.
//
// Values (autoexport): OTEL_TRACES_EXPORTER=otlp|console|none,
// OTEL_METRICS_EXPORTER=otlp|prometheus|console|none. With prometheus,
// autoexport serves /metrics at OTEL_EXPORTER_PROMETHEUS_HOST (default
// localhost) and OTEL_EXPORTER_PROMETHEUS_PORT (default 9464). OTLP reads
// OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL and the rest;
// the resource reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
package otelenv

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// The environment variables that turn telemetry on (OpenTelemetry SDK
// environment variables, "Exporter selection").
const (
	EnvTraces  = "OTEL_TRACES_EXPORTER"
	EnvMetrics = "OTEL_METRICS_EXPORTER"
)

// on is set by [Start] when it installed providers: [Instrument] and
// [HTTP] then instrument, with the global providers. Set once per process,
// as the global providers are.
var on atomic.Bool

// Start reads the environment and, when OTEL_TRACES_EXPORTER or
// OTEL_METRICS_EXPORTER is set, creates the exporters with autoexport, sets
// the global tracer and meter providers (a batching span processor, the
// reader autoexport chose) with the service name service (unless
// OTEL_SERVICE_NAME says otherwise) and the W3C Trace Context and Baggage
// propagator, so that [Instrument] and [HTTP] instrument. stdio says that
// stdout carries MCP (the server is served over stdio): a console exporter,
// which writes to stdout, is then refused with an error naming the
// variable. It returns the function that flushes and shuts the providers
// down (give it a context with a deadline); when nothing is set it does
// nothing and returns a shutdown that does nothing. An error names the
// variable at fault.
func Start(ctx context.Context, service string, stdio bool) (shutdown func(context.Context) error, err error) {
	traces, metrics := os.Getenv(EnvTraces), os.Getenv(EnvMetrics)
	none := func(context.Context) error { return nil }
	if traces == "" && metrics == "" {
		return none, nil
	}
	if stdio {
		for _, v := range [][2]string{{EnvTraces, traces}, {EnvMetrics, metrics}} {
			if v[1] == "console" {
				return none, fmt.Errorf("%s=console writes to stdout, which carries MCP over stdio: use otlp (or prometheus for metrics), or serve over HTTP", v[0])
			}
		}
	}
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(service)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return none, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME: %w", err)
	}
	var stops []func(context.Context) error
	shutdown = func(ctx context.Context) error {
		var errs []error
		for _, stop := range stops {
			errs = append(errs, stop(ctx))
		}
		return errors.Join(errs...)
	}
	if traces != "" {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return none, fmt.Errorf("%s=%s: %w", EnvTraces, traces, err)
		}
		if !autoexport.IsNoneSpanExporter(exp) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
			otel.SetTracerProvider(tp)
			stops = append(stops, tp.Shutdown)
		}
	}
	if metrics != "" {
		reader, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			return none, errors.Join(fmt.Errorf("%s=%s: %w", EnvMetrics, metrics, err), shutdown(ctx))
		}
		if !autoexport.IsNoneMetricReader(reader) {
			mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
			otel.SetMeterProvider(mp)
			stops = append(stops, mp.Shutdown)
		}
	}
	if len(stops) == 0 { // both none
		return none, nil
	}
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	on.Store(true)
	return shutdown, nil
}

// Stop calls shutdown with a deadline of 5 seconds, reporting an error to
// report: what a main defers after [Start].
func Stop(shutdown func(context.Context) error, report func(error)) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := shutdown(ctx); err != nil {
		report(err)
	}
}

// Instrument traces and measures s, whose flows run with o, through
// otelmcp.Instrument with the global providers (o's store is then timed
// by otelmcp's Telemetry.Store), when [Start] turned telemetry on; it does
// nothing otherwise. Call it before adding s's tools with o.
func Instrument(s *mcp.Server, o *runtime.Options) {
	if on.Load() {
		otelmcp.Instrument(s, o, nil)
	}
}

// HTTP returns middleware that puts otelhttp (a SERVER span and the HTTP
// server metrics per request, with the global providers) around next (nil:
// none) when [Start] turned telemetry on, and next itself otherwise (nil
// next: the handler it is given, unchanged). Mount what it returns on the
// mux that mcpsdk.Serve serves: mux.Handle("/mcp", otelenv.HTTP(auth)(h)).
func HTTP(next func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	if !on.Load() {
		if next == nil {
			return func(h http.Handler) http.Handler { return h }
		}
		return next
	}
	return func(h http.Handler) http.Handler {
		if next != nil {
			h = next(h)
		}
		return otelhttp.NewHandler(h, "mcp")
	}
}
