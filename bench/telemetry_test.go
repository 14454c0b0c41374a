package bench

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// telemetrySlice is how many rounds one side of BenchmarkTelemetry runs
// before the next side's turn.
const telemetrySlice = 8

// telemetrySide is one set-up of BenchmarkTelemetry and what it measured.
type telemetrySide struct {
	name    string
	h       http.Handler
	elapsed time.Duration
	cpu     int64     // this process's CPU time, ns
	perSlot []float64 // ns per round of each slice
}

// tracedEndpoint is endpointServer's endpoint traced and measured by the
// OpenTelemetry SDK as a server in production would be: every span sampled
// and recorded, batched to an exporter that drops them (the export itself is
// the collector's cost, not the server's), metrics aggregated for a reader
// (never collected during the benchmark; a Prometheus scrape or an OTLP push
// every minute costs nothing per round). withHTTP also puts otelhttp around
// the endpoint, as runtime/otelenv does.
func tracedEndpoint(tb testing.TB, withHTTP bool) http.Handler {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	tb.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mo := &mcpsdk.Options{Flow: runtime.Options{MaxFlowsPerPrincipal: -1, Keys: runtime.EphemeralKeyRing(), Store: benchStore()}}
	otelmcp.Instrument(s, &mo.Flow, &otelmcp.Config{TracerProvider: tp, MeterProvider: mp})
	mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}), mo)
	var h http.Handler = mcpsdk.NewHTTPHandler(s, nil)
	if withHTTP {
		h = otelhttp.NewHandler(h, "mcp", otelhttp.WithTracerProvider(tp), otelhttp.WithMeterProvider(mp))
	}
	return h
}

// BenchmarkTelemetry times one 2026-07-28 round (first call and retry, two
// requests, as BenchmarkEndpoint) served in process through
// mcpsdk.NewHTTPHandler three ways: off (no telemetry: runtime's hooks nil,
// as for every server that does not call otelmcp), on (otelmcp.Instrument
// with the OpenTelemetry SDK's providers, see tracedEndpoint) and on+http
// (the same with otelhttp around the endpoint). The three alternate in
// slices of 8 rounds, the order rotating, so that all see the same
// machine. An op is one round of each. It reports each side's time per
// round in µs (off-us, on-us, on+http-us), this process's CPU time per
// round in µs (…-cpu-us: the batch span processor's goroutine included)
// and allocations per round (…-allocs); x-on and x-on+http, the median over
// slices of that side's time per round over off's in the same slice; and
// x-cpu-on, x-cpu-on+http, the ratios of CPU time per round.
func BenchmarkTelemetry(b *testing.B) {
	sides := []*telemetrySide{
		{name: "off", h: mcpsdk.NewHTTPHandler(endpointServer(), nil)},
		{name: "on", h: tracedEndpoint(b, false)},
		{name: "on+http", h: tracedEndpoint(b, true)},
	}
	for _, s := range sides {
		for range 20 { // warm up caches and pools
			endpointRound(b, s.h)
		}
	}
	b.ResetTimer()
	for done, i := 0, 0; done < b.N; i++ {
		n := min(telemetrySlice, b.N-done)
		for j := range sides {
			s := sides[(i+j)%len(sides)]
			cpu0, start := processCPU(), time.Now()
			for range n {
				endpointRound(b, s.h)
			}
			d, cpu := time.Since(start), processCPU()-cpu0
			s.elapsed += d
			s.cpu += cpu
			s.perSlot = append(s.perSlot, float64(d)/float64(n))
		}
		done += n
	}
	b.StopTimer()
	for _, s := range sides {
		b.ReportMetric(float64(s.elapsed)/1e3/float64(b.N), s.name+"-us")
		b.ReportMetric(float64(s.cpu)/1e3/float64(b.N), s.name+"-cpu-us")
		b.ReportMetric(testing.AllocsPerRun(20, func() { endpointRound(b, s.h) }), s.name+"-allocs")
	}
	b.ReportMetric(float64(sides[1].cpu)/float64(sides[0].cpu), "x-cpu-on")
	b.ReportMetric(float64(sides[2].cpu)/float64(sides[0].cpu), "x-cpu-on+http")
	b.ReportMetric(medianRatio(sides[1].perSlot, sides[0].perSlot), "x-on")
	b.ReportMetric(medianRatio(sides[2].perSlot, sides[0].perSlot), "x-on+http")
}

// TestTelemetryEndpointRound checks that the benchmarked round books
// through the traced endpoints.
func TestTelemetryEndpointRound(t *testing.T) {
	endpointRound(t, tracedEndpoint(t, false))
	endpointRound(t, tracedEndpoint(t, true))
}
