package pagebrowser

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// env is one server: flows with a store and a key ring, and the page
// handler mounted under /elicit/ (newBrowserEnv).
type env struct {
	t     *testing.T
	o     *runtime.Options
	srv   *httptest.Server
	store *runtime.MemoryStore
}

// call runs one request of an exchange named "import" for principal that
// asks Key on the page and answers with the key's length.
func (e *env) call(principal, version, state string, responses map[string]protocol.InputResponse) (*runtime.Response, error) {
	req := &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`), RequestState: state,
		InputResponses: responses, FormElicitation: true, URLElicitation: true, Principal: principal, ProtocolVersion: version}
	x, err := runtime.NewExchange("import", e.o, req)
	if err != nil {
		return nil, err
	}
	return x.Run(context.Background(), func(ctx context.Context) (*runtime.Response, error) {
		var q Key
		action, err := runtime.Ask(ctx, "key", &q, nil)
		if err != nil {
			return nil, err
		}
		if action != runtime.Accept {
			return &runtime.Response{Result: runtime.Textf("no key: %s", action)}, nil
		}
		return &runtime.Response{Result: runtime.Textf("imported with a key of %d characters", len(q.Key))}, nil
	})
}

// urlRequest returns the one URL-mode request of an input-required response.
func urlRequest(t *testing.T, resp *runtime.Response) (key string, ir *protocol.ElicitRequest) {
	t.Helper()
	require.Nil(t, resp.Result, "want an input-required result")
	require.Len(t, resp.InputRequests, 1)
	for k, v := range resp.InputRequests {
		ir, ok := v.(*protocol.ElicitRequest)
		require.True(t, ok)
		require.Equal(t, "url", ir.Mode)
		return k, ir
	}
	return "", nil
}
