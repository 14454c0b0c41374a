package bench

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
		srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
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
		run(b, runtime.Options{MaxFlowsPerPrincipal: -1, Keys: keys, Store: runtime.NewMemoryStore()}, nil)
	})
	b.Run("redis", func(b *testing.B) {
		srv := redistest.Start(b)
		o := &redis.Options{Addr: srv.Addr()}
		redisstore.ClientOptions(o)
		client := redis.NewClient(o)
		b.Cleanup(func() { _ = client.Close() })
		var sent atomic.Int64
		client.AddHook(countHook{&sent})
		store, err := redisstore.New(b.Context(), client, nil)
		if err != nil {
			b.Fatal(err)
		}
		run(b, runtime.Options{MaxFlowsPerPrincipal: -1, Keys: keys, Store: store}, sent.Load)
	})
}

// BenchmarkStoreConcurrentRounds runs, per op, 2000 complete elicitation
// rounds of the generated book_flight tool at once over real HTTP on
// loopback: two instances (stateless Streamable HTTP servers in this
// process) sharing one real redis-server through runtime/redisstore, each
// with the client FromEnv makes (redisstore.ClientOptions) and the store's
// default timeout; each round's first call goes to one instance and its
// accepted retry to the other, from 16 client sessions. Redis stays
// healthy throughout, so every "flow store unavailable" (-32603) is false:
// store-unavailable/op reports them (the goal is 0), other-errors/op the
// rounds' other errors, and store-max-ms the slowest Claim or Record as the
// engine saw it (queueing for a connection and for the CPU included).
func BenchmarkStoreConcurrentRounds(b *testing.B) {
	const rounds = 2000
	srv := redistest.Start(b)
	keys := runtime.EphemeralKeyRing()
	var urls []string
	var slowest atomic.Int64
	for range 2 {
		o := &redis.Options{Addr: srv.Addr()}
		redisstore.ClientOptions(o)
		client := redis.NewClient(o)
		b.Cleanup(func() { _ = client.Close() })
		store, err := redisstore.New(b.Context(), client, nil)
		if err != nil {
			b.Fatal(err)
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}),
			&mcpsdk.Options{Flow: runtime.Options{MaxFlowsPerPrincipal: -1, Keys: keys, Store: timedStore{store, &slowest}}})
		h := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
		b.Cleanup(h.Close)
		urls = append(urls, h.URL)
	}
	var clients []*roundTripClient
	for i := range 16 {
		clients = append(clients, connectMode(b, urls[i%2], roundTripMode{name: "store", tool: toolGenerated, round: true}))
	}
	var unavailable, other atomic.Int64
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for i := range rounds {
			wg.Go(func() {
				ctx := context.Background()
				first, err := clients[i%16].cs.CallTool(ctx, &mcp.CallToolParams{Name: toolGenerated, Arguments: routeArgs})
				if err == nil {
					var res *mcp.CallToolResult
					res, err = clients[(i+1)%16].cs.CallTool(ctx, &mcp.CallToolParams{Name: toolGenerated, Arguments: routeArgs,
						InputResponses: mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept", Content: formReply}},
						RequestState:   first.RequestState})
					if err == nil && (len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != wantText) {
						err = errors.New("not the booking")
					}
				}
				var je *jsonrpc.Error
				switch {
				case err == nil:
				case errors.As(err, &je) && strings.Contains(je.Message, "flow store unavailable"):
					unavailable.Add(1)
				default:
					other.Add(1)
				}
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	b.ReportMetric(float64(unavailable.Load())/float64(b.N), "store-unavailable/op")
	b.ReportMetric(float64(other.Load())/float64(b.N), "other-errors/op")
	b.ReportMetric(float64(time.Duration(slowest.Load()).Milliseconds()), "store-max-ms")
}

// timedStore keeps the longest Claim or Record its store took.
type timedStore struct {
	*redisstore.Store
	max *atomic.Int64 // nanoseconds
}

func (s timedStore) took(t0 time.Time) {
	d := int64(time.Since(t0))
	for {
		m := s.max.Load()
		if d <= m || s.max.CompareAndSwap(m, d) {
			return
		}
	}
}

func (s timedStore) Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error) {
	defer s.took(time.Now())
	return s.Store.Claim(ctx, flow, token, epoch, lease)
}

func (s timedStore) Record(ctx context.Context, flow, token string, rec []byte, expires time.Time) error {
	defer s.took(time.Now())
	return s.Store.Record(ctx, flow, token, rec, expires)
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
