package mcpsdk_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// One anonymous client completing small flows again and again, over HTTP
// from 127.0.0.2, against a default server whose in-memory store holds
// 1 MiB (the attack that filled such a store after 4,368 flows, and then
// refused every user's final retry with -32603 "retry later" for ten
// minutes): it is refused once it holds its quota of flows, with an error
// naming Options.MaxFlowsPerPrincipal, and a client from 127.0.0.3 still
// completes its call.
func TestOneAddressCannotFillTheStore(t *testing.T) {
	store := runtime.NewMemoryStore()
	store.MaxBytes = 1 << 20
	opts := keys()
	opts.Flow.Store = store
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(opts, &fixture.TripRecorder{}, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)

	complete := func(ip string, i int) error {
		cs := connect(t, srv.URL, true, fromAddress(t, ip))
		defer cs.Close()
		args := map[string]any{"city": fmt.Sprintf("c%d", i)}
		res, err := callTrip(cs, args, nil, "")
		if err != nil {
			return err
		}
		key, _, err := onlyKey(res)
		if err != nil {
			return err
		}
		res, err = callTrip(cs, args, accept(key, map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 1}), res.RequestState)
		if err != nil {
			return err
		}
		if res.NeedsInput() || res.IsError {
			return fmt.Errorf("not complete: %s", text(res))
		}
		return nil
	}

	attacker := connect(t, srv.URL, true, fromAddress(t, "127.0.0.2"))
	completed := 0
	var refusal error
	for i := range 6000 {
		args := map[string]any{"city": fmt.Sprintf("a%d", i)}
		res, err := callTrip(attacker, args, nil, "")
		require.NoError(t, err)
		key, _, err := onlyKey(res)
		require.NoError(t, err)
		res, err = callTrip(attacker, args, accept(key, map[string]any{"name": "Eve", "email": "eve@example.com", "nights": 1}), res.RequestState)
		if err != nil {
			refusal = err
			break
		}
		require.False(t, res.NeedsInput() || res.IsError, text(res))
		completed++
	}
	require.Error(t, refusal, "the client completed 6000 flows")
	t.Logf("the client at 127.0.0.2 completed %d flows; the store holds %d bytes; then: %v", completed, store.Bytes(), refusal)
	je := requireCode(t, refusal, -32603)
	assert.Contains(t, je.Message, "the anonymous client at 127.0.0.2 already has")
	assert.Contains(t, je.Message, "Options.MaxFlowsPerPrincipal")
	assert.Equal(t, runtime.DefaultMaxFlowsPerPrincipal, completed)

	require.NoError(t, complete("127.0.0.3", 0), "another client's call")
}

// A server's own go-sdk handler serving tools from Tool counts anonymous
// callers by address once wrapped in ClientAddresses: a client at its
// limit is refused, and a client at another address still completes.
// Unwrapped, every anonymous caller is one, and the first at the limit
// refuses the others (what the test shows first).
func TestClientAddressesOnAServersOwnHandler(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		t.Run(map[bool]string{false: "unwrapped", true: "wrapped"}[wrapped], func(t *testing.T) {
			opts := keys()
			opts.Flow.MaxFlowsPerPrincipal = 3
			s := mcp.NewServer(&mcp.Implementation{Name: "own", Version: "1"}, nil)
			for _, flow := range fixtureFlows(&fixture.TripRecorder{}) {
				s.AddTool(mcpsdk.Tool(flow, opts))
			}
			mcpsdk.Install(s)
			var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})
			if wrapped {
				h = mcpsdk.ClientAddresses(h)
			}
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			complete := func(ip string, i int) error {
				cs := connect(t, srv.URL, true, fromAddress(t, ip))
				defer cs.Close()
				args := map[string]any{"city": fmt.Sprintf("%s-%d", ip, i)}
				res, err := callTrip(cs, args, nil, "")
				if err != nil {
					return err
				}
				key, _, err := onlyKey(res)
				if err != nil {
					return err
				}
				_, err = callTrip(cs, args, accept(key, map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 1}), res.RequestState)
				return err
			}
			for i := range 3 {
				require.NoError(t, complete("127.0.0.2", i))
			}
			je := requireCode(t, complete("127.0.0.2", 3), -32603)
			err := complete("127.0.0.3", 0)
			if !wrapped {
				assert.Contains(t, je.Message, "the anonymous callers already have 3 calls")
				requireCode(t, err, -32603)
				return
			}
			assert.Contains(t, je.Message, "the anonymous client at 127.0.0.2 already")
			require.NoError(t, err, "another address's call")
		})
	}
}
