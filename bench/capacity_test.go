package bench

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

// BenchmarkCapacity measures what docs/capacity.md models: one op is one
// completed flow of the generated book_flight tool with one question (two
// requests over real HTTP on loopback: the first call, which asks, on one
// of three instances, and the accepted retry, which claims, runs Accept and
// records, on the next), against one redis-server (single), a Redis
// Cluster of 3 masters with a replica each (cluster) and a master with 2
// replicas and 3 sentinels (sentinel), all started here, in one run. Each
// instance has its own client, made by redisstore.NewClient from the URL
// MCPGEN_REDIS_URL would hold. Sequential sub-benchmarks give the round
// latency and the costs per flow; parallel ones (16 goroutines per CPU
// core… b.SetParallelism(8)) the throughput of this machine.
//
// Metrics per op (one completed flow), summed over the masters: redis-cmds
// (commands the instances sent), redis-cpu-us (INFO cpu: used_cpu_user +
// used_cpu_sys), redis-in-B and redis-out-B (INFO stats: total_net_input
// and total_net_output bytes, replication to the replicas included),
// redis-mem-B (INFO memory: used_memory growth: the record each flow
// leaves until it expires), proc-cpu-us (this process's CPU: the three
// instances and their clients), state-B (the requestState's length).
//
//	go test ./bench -run '^$' -bench 'Capacity' -benchtime 2000x
func BenchmarkCapacity(b *testing.B) {
	topologies := []struct {
		name  string
		start func(b *testing.B) (url string, masters func() []*redistest.Server)
	}{
		{"single", func(b *testing.B) (string, func() []*redistest.Server) {
			s := redistest.Start(b)
			return s.URL(), func() []*redistest.Server { return []*redistest.Server{s} }
		}},
		{"cluster", func(b *testing.B) (string, func() []*redistest.Server) {
			c := redistest.StartCluster(b, 3)
			return c.URL(), c.Masters
		}},
		{"sentinel", func(b *testing.B) (string, func() []*redistest.Server) {
			s := redistest.StartSentinel(b, 2, 3)
			return s.URL(), func() []*redistest.Server { return []*redistest.Server{s.Master()} }
		}},
	}
	for _, topo := range topologies {
		b.Run(topo.name, func(b *testing.B) {
			url, masters := topo.start(b)
			d := startCapacityDeployment(b, url)
			b.Run("sequential", func(b *testing.B) {
				var i int
				d.measure(b, masters(), func() {
					for b.Loop() {
						d.flow(b, i)
						i++
					}
				})
			})
			b.Run("parallel", func(b *testing.B) {
				var next atomic.Int64
				b.SetParallelism(8)
				d.measure(b, masters(), func() {
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							d.flow(b, int(next.Add(1)))
						}
					})
				})
			})
		})
	}
}

// capacityDeployment is three instances on one Redis deployment.
type capacityDeployment struct {
	clients []*roundTripClient
	sent    atomic.Int64 // commands sent by the instances' Redis clients
	state   atomic.Int64 // the last requestState's length
}

func startCapacityDeployment(b *testing.B, url string) *capacityDeployment {
	d := &capacityDeployment{}
	keys := runtime.EphemeralKeyRing()
	for range 3 {
		client, _, err := redisstore.NewClient(b.Context(), url)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = client.Close() })
		client.AddHook(countHook{&d.sent})
		store, err := redisstore.New(b.Context(), client, nil)
		if err != nil {
			b.Fatal(err)
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}), &mcpsdk.Options{Flow: runtime.Options{MaxFlowsPerPrincipal: -1, Keys: keys, Store: store}})
		srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
		b.Cleanup(srv.Close)
		for range 8 {
			d.clients = append(d.clients, connectMode(b, srv.URL, roundTripMode{name: "capacity", tool: toolGenerated, round: true}))
		}
	}
	for i := range 3 { // warm up: connections, script caches
		d.flow(b, i)
	}
	return d
}

// flow completes flow i: the first call on one instance, the accepted
// retry on the next.
func (d *capacityDeployment) flow(b *testing.B, i int) {
	ctx := context.Background()
	n := len(d.clients)
	first, err := d.clients[i%n].cs.CallTool(ctx, &mcp.CallToolParams{Name: toolGenerated, Arguments: routeArgs})
	if err != nil || !first.NeedsInput() {
		b.Fatalf("first call: %v", err)
	}
	d.state.Store(int64(len(first.RequestState)))
	res, err := d.clients[(i+8)%n].cs.CallTool(ctx, &mcp.CallToolParams{Name: toolGenerated, Arguments: routeArgs,
		InputResponses: mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept", Content: formReply}},
		RequestState:   first.RequestState})
	if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != wantText {
		b.Fatalf("retry: %v", err)
	}
}

// measure runs run and reports the costs per op on masters. The masters'
// CPU while idle (replication, cluster bus and sentinel pings, cron),
// sampled for half a second before, is subtracted: redis-cpu-us is what the
// flows cost.
func (d *capacityDeployment) measure(b *testing.B, masters []*redistest.Server, run func()) {
	idle := redisStats(b, masters)
	time.Sleep(500 * time.Millisecond)
	idleRate := (redisStats(b, masters).cpu - idle.cpu) / 0.5
	before, cmds, cpu, start := redisStats(b, masters), d.sent.Load(), processCPU(), time.Now()
	b.ResetTimer()
	run()
	b.StopTimer()
	elapsed := time.Since(start).Seconds()
	after := redisStats(b, masters)
	n := float64(b.N)
	b.ReportMetric(float64(d.sent.Load()-cmds)/n, "redis-cmds/op")
	b.ReportMetric(max(0, after.cpu-before.cpu-idleRate*elapsed)*1e6/n, "redis-cpu-us/op")
	b.ReportMetric(float64(after.in-before.in)/n, "redis-in-B/op")
	b.ReportMetric(float64(after.out-before.out)/n, "redis-out-B/op")
	b.ReportMetric(float64(recordBytes(b, masters)), "record-B")
	b.ReportMetric(float64(processCPU()-cpu)/1e3/n, "proc-cpu-us/op")
	b.ReportMetric(float64(d.state.Load()), "state-B")
	b.ReportMetric(n/elapsed, "flows/s")
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average after the run: %s", strings.TrimSpace(string(load)))
	}
}

// recordBytes returns the memory (MEMORY USAGE) of one flow's record on
// the masters: the key, the value and Redis's overhead for them.
func recordBytes(b *testing.B, masters []*redistest.Server) int64 {
	ctx := context.Background()
	for _, m := range masters {
		c := redis.NewClient(&redis.Options{Addr: m.Addr()})
		keys, _, err := c.Scan(ctx, 0, redisstore.DefaultPrefix+"{*", 1000).Result()
		for _, k := range keys {
			if err == nil && !strings.HasSuffix(k, ":epoch") {
				n, _ := c.MemoryUsage(ctx, k).Result()
				_ = c.Close()
				return n
			}
		}
		_ = c.Close()
	}
	b.Fatal("no record found on the masters")
	return 0
}

// nodeStats is what INFO says of the masters, summed.
type nodeStats struct {
	cpu     float64 // seconds
	in, out int64
}

func redisStats(b *testing.B, masters []*redistest.Server) nodeStats {
	var s nodeStats
	for _, m := range masters {
		info := m.Do("INFO", "all")
		if info == "" {
			b.Fatalf("INFO on %s: no answer", m.Addr())
		}
		s.cpu += infoFloat(info, "used_cpu_user") + infoFloat(info, "used_cpu_sys")
		s.in += int64(infoFloat(info, "total_net_input_bytes"))
		s.out += int64(infoFloat(info, "total_net_output_bytes"))
	}
	return s
}

func infoFloat(info, name string) float64 {
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

// BenchmarkWait times what WAIT would add to each write of the store on a
// master with 2 replicas (Sentinel's): SET alone, and SET then WAIT 1 (one
// replica acknowledged) in one pipeline, so on one connection, as WAIT
// requires (it waits for the writes of its own connection). A completed
// flow makes two such writes (the claim and the record).
//
//	go test ./bench -run '^$' -bench 'Wait' -benchtime 5000x
func BenchmarkWait(b *testing.B) {
	st := redistest.StartSentinel(b, 2, 3)
	c := redis.NewClient(&redis.Options{Addr: st.Master().Addr()})
	b.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	for _, replicas := range []int{0, 1, 2} {
		b.Run("replicas="+strconv.Itoa(replicas), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
					p.Set(ctx, "k"+strconv.Itoa(i%1000), "v", time.Minute)
					if replicas > 0 {
						p.Do(ctx, "WAIT", replicas, 1000)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStoreFlowOps measures the Redis side alone: one op is what a
// completed flow asks of the store (its bucket's epoch from the cache, the
// claim and the record), 64 at once, from one process without HTTP, on one
// redis-server unfenced (FenceOff), auto (FenceAuto, the default on one
// address: the INFO replication call in each claim decides, and finds the
// server alone) and fenced (FenceOn), and on the 3-master cluster. redis-cpu-us/op, with the masters' idle CPU
// subtracted, is what sizes the Redis shards.
//
//	go test ./bench -run '^$' -bench 'StoreFlowOps' -benchtime 20000x
func BenchmarkStoreFlowOps(b *testing.B) {
	single := redistest.Start(b)
	cluster := redistest.StartCluster(b, 3)
	for _, tc := range []struct {
		name    string
		url     string
		fence   redisstore.Fence
		masters func() []*redistest.Server
	}{
		{"single", single.URL(), redisstore.FenceOff, func() []*redistest.Server { return []*redistest.Server{single} }},
		{"single-auto", single.URL(), redisstore.FenceAuto, func() []*redistest.Server { return []*redistest.Server{single} }},
		{"single-fenced", single.URL(), redisstore.FenceOn, func() []*redistest.Server { return []*redistest.Server{single} }},
		{"cluster", cluster.URL(), redisstore.FenceAuto, cluster.Masters},
	} {
		b.Run(tc.name, func(b *testing.B) {
			client, _, err := redisstore.NewClient(b.Context(), tc.url)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = client.Close() })
			store, err := redisstore.New(b.Context(), client, &redisstore.Options{Fence: tc.fence})
			if err != nil {
				b.Fatal(err)
			}
			d := &capacityDeployment{}
			client.AddHook(countHook{&d.sent})
			ctx := context.Background()
			later := time.Now().Add(10 * time.Minute)
			rec := []byte(`{"t":"` + wantText + `"}`)
			b.SetParallelism(32)
			d.measure(b, tc.masters(), func() {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						var id [16]byte
						_, _ = rand.Read(id[:])
						f := base64.RawURLEncoding.EncodeToString(id[:])
						ep, err := store.Epoch(ctx, f)
						if err == nil {
							_, err = store.Claim(ctx, f, "token", ep, time.Minute)
						}
						if err == nil {
							err = store.Record(ctx, f, "token", rec, later)
						}
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		})
	}
}
