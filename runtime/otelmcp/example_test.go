package otelmcp_test

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// A go-sdk server traced and measured with the global providers (set them
// first, e.g. from the OTEL_* environment with
// go.opentelemetry.io/contrib/exporters/autoexport), its HTTP layer by
// otelhttp: each round's span links its HTTP span.
func ExampleInstrument() {
	var flow *runtime.Flow // a generated New<T>Flow(handler)
	s := mcp.NewServer(&mcp.Implementation{Name: "bookflight", Version: "1"}, nil)
	mo := &mcpsdk.Options{Flow: runtime.Options{Keys: runtime.EphemeralKeyRing()}}
	otelmcp.Instrument(s, &mo.Flow, nil) // before AddTool's first call is served
	mcpsdk.AddTool(s, flow, mo)
	h := mcpsdk.NewHTTPHandler(s, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", otelhttp.NewHandler(h, "mcp"))
	_ = mcpsdk.Serve(context.Background(), "127.0.0.1:8080", h, mux, nil)
}
