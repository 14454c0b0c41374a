package otelenv

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// offAfter turns the package's switch off when t ends: tests share it.
func offAfter(t *testing.T) {
	t.Cleanup(func() { on.Store(false) })
}

// Neither variable set, or both none: nothing is set up, and Instrument and
// HTTP leave the server and its options as they are.
func TestOffUnlessSet(t *testing.T) {
	for _, env := range [][2]string{{"", ""}, {"none", "none"}, {"none", ""}} {
		t.Run(env[0]+"/"+env[1], func(t *testing.T) {
			offAfter(t)
			t.Setenv(EnvTraces, env[0])
			t.Setenv(EnvMetrics, env[1])
			shutdown, err := Start(t.Context(), "test", false)
			require.NoError(t, err)
			require.NoError(t, shutdown(t.Context()))
			assert.False(t, on.Load())
			var o runtime.Options
			Instrument(mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil), &o)
			assert.Nil(t, o.OnEnd, "no hook")
			assert.Nil(t, o.TraceContext, "no hook")
			assert.Nil(t, o.Store, "the store is not wrapped")
			h := http.NewServeMux()
			assert.Same(t, h, HTTP(nil)(h), "no middleware: the handler itself")
		})
	}
}

// A console exporter writes to stdout, which -stdio uses for MCP.
func TestConsoleRefusedOnStdio(t *testing.T) {
	offAfter(t)
	t.Setenv(EnvTraces, "console")
	t.Setenv(EnvMetrics, "")
	_, err := Start(t.Context(), "test", true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OTEL_TRACES_EXPORTER=console")
	assert.False(t, on.Load())
}

// An exporter autoexport does not know is an error naming the variable.
func TestUnknownExporter(t *testing.T) {
	offAfter(t)
	t.Setenv(EnvTraces, "")
	t.Setenv(EnvMetrics, "statsd")
	_, err := Start(t.Context(), "test", false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OTEL_METRICS_EXPORTER=statsd")
	assert.False(t, on.Load())
}

type booker struct{}

func (booker) Accept(context.Context, *bookflight.BookFlightArgs) (*runtime.Result, error) {
	return runtime.Text("booked"), nil
}

func (booker) Decline(context.Context, *bookflight.BookFlightArgs, []string) (*runtime.Result, error) {
	return runtime.Text("declined"), nil
}

func (booker) Cancel(context.Context, *bookflight.BookFlightArgs) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}

// OTEL_METRICS_EXPORTER=prometheus: autoexport serves /metrics at
// OTEL_EXPORTER_PROMETHEUS_HOST/_PORT, where a call's metrics appear
// (otelmcp's and otelhttp's); shutdown stops that server.
func TestPrometheus(t *testing.T) {
	offAfter(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())
	t.Setenv(EnvTraces, "none")
	t.Setenv(EnvMetrics, "prometheus")
	t.Setenv("OTEL_EXPORTER_PROMETHEUS_HOST", "127.0.0.1")
	t.Setenv("OTEL_EXPORTER_PROMETHEUS_PORT", port)
	shutdown, err := Start(t.Context(), "test", false)
	require.NoError(t, err)
	require.True(t, on.Load())

	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	o := runtime.Options{Keys: runtime.EphemeralKeyRing()}
	Instrument(s, &o)
	require.NotNil(t, o.OnEnd)
	require.NotNil(t, o.Store, "the store is timed")
	mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(booker{}), &mcpsdk.Options{Flow: o})
	srv := httptest.NewServer(HTTP(nil)(mcpsdk.NewHTTPHandler(s, nil)))
	defer srv.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by the test")
		},
	})
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "book_flight",
		Arguments: map[string]any{"origin": "CDG", "destination": "JFK"}})
	require.NoError(t, err)
	require.True(t, res.NeedsInput())

	resp, err := http.Get("http://127.0.0.1:" + port + "/metrics")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	text := string(body)
	for _, want := range []string{
		`mcpgen_outcomes_total{gen_ai_tool_name="book_flight",mcpgen_outcome="asked"`,
		"# TYPE mcp_server_operation_duration_seconds histogram",
		"# TYPE http_server_request_duration_seconds histogram",
		`service_name="test"`,
	} {
		assert.Contains(t, text, want)
	}

	require.NoError(t, shutdown(t.Context()))
	_, err = http.Get("http://127.0.0.1:" + port + "/metrics")
	assert.Error(t, err, "shutdown stops the /metrics server")
	assert.False(t, strings.Contains(text, "CDG"), "no argument value in a label")
}
