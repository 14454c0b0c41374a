package mcpsdk_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

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
	srv := httptest.NewServer(mcpsdk.HTTPHandler(server(opts, &fixture.TripRecorder{}, &fixture.PicksRecorder{})))
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
