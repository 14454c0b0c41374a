package bench

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// BenchmarkStoreRound times one complete elicitation round of the generated
// book_flight tool over real HTTP on loopback (go-sdk client, stateless
// Streamable HTTP server in this process): the first call, which asks, and
// the accepted retry, which claims the flow, runs Accept and records the
// result. memory: the default in-process store; redis: runtime/redisstore on
// a real redis-server (started here; skipped without the binary). The redis
// case also reports the Redis commands each completing request sent
// (redis-cmds/op, from INFO's total_commands_processed): the round trips the
// at-most-once guarantee costs.
func BenchmarkStoreRound(b *testing.B) {
	keys := runtime.EphemeralKeyRing()
	run := func(b *testing.B, opts runtime.Options, cmds func() int64) {
		s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}), &mcpsdk.Options{Flow: opts})
		srv := httptest.NewServer(mcpsdk.HTTPHandler(s))
		b.Cleanup(srv.Close)
		c := connectMode(b, srv.URL, roundTripMode{name: "store", tool: toolGenerated, round: true})
		ctx := context.Background()
		if _, err := c.call(ctx); err != nil { // warm up: connections, script cache
			b.Fatal(err)
		}
		var before int64
		if cmds != nil {
			before = cmds()
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			text, err := c.call(ctx)
			if err != nil || text != wantText {
				b.Fatalf("got %q, %v", text, err)
			}
		}
		b.StopTimer()
		if cmds != nil {
			b.ReportMetric(float64(cmds()-before)/float64(b.N), "redis-round-trips/op")
		}
	}
	b.Run("memory", func(b *testing.B) {
		run(b, runtime.Options{Keys: keys, Store: runtime.NewMemoryStore()}, nil)
	})
	b.Run("redis", func(b *testing.B) {
		srv := redistest.Start(b)
		client := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
		b.Cleanup(func() { _ = client.Close() })
		var sent atomic.Int64
		client.AddHook(countHook{&sent})
		store, err := redisstore.New(b.Context(), client, nil)
		if err != nil {
			b.Fatal(err)
		}
		run(b, runtime.Options{Keys: keys, Store: store}, sent.Load)
	})
}

// countHook counts the commands (each one round trip) a go-redis client
// sends.
type countHook struct{ n *atomic.Int64 }

func (h countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmds)
	}
}
