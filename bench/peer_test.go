package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The peer: book_flight served by the official TypeScript server
// (@modelcontextprotocol/server 2.4.0, bench/tsserver/server.mjs), driven by
// the same go-sdk client as mcpgen's generated tool, in the same run.
const (
	// envPeerDir names the folder where bench/tsserver/install put the npm
	// packages; unset, $MCPGEN_CACHE/tsserver or ~/.cache/mcpgen/tsserver.
	envPeerDir = "MCPGEN_TSSERVER"
	// envPeerRequired=1 turns a missing node or install into a failure
	// instead of a skip.
	envPeerRequired = "MCPGEN_BENCH_PEER"
	// peerServerVersion is the @modelcontextprotocol/server the peer runs.
	peerServerVersion = "2.4.0"
	// peerConcurrency is how many calls are in flight at once in the
	// throughput half.
	peerConcurrency = 16
)

// peerMode is the mode both sides are driven in: one elicitation round, run
// by the client itself (MultiRoundTrip disabled), as mcpgen/manual in
// [BenchmarkRoundTrip]. Both servers name their tool book_flight.
var peerMode = roundTripMode{name: "manual", tool: toolGenerated, round: true}

// peerDir returns the folder holding the peer's npm packages, or skips (fails
// under MCPGEN_BENCH_PEER=1) saying why it cannot run.
func peerDir(tb testing.TB) (node, dir string) {
	tb.Helper()
	unavailable := func(format string, args ...any) {
		tb.Helper()
		msg := "TS peer unavailable: " + fmt.Sprintf(format, args...) + "; bench/tsserver/install installs it (bench/run calls it)"
		if os.Getenv(envPeerRequired) == "1" {
			tb.Fatal(msg)
		}
		if _, ok := tb.(*testing.B); ok {
			// go test prints a benchmark's skip message only with -v; this
			// line reaches bench/out/bench.txt either way.
			fmt.Printf("--- SKIP: %s: %s\n", tb.Name(), msg)
		}
		tb.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable("node is not on PATH")
	}
	dir = os.Getenv(envPeerDir)
	if dir == "" {
		cache := os.Getenv("MCPGEN_CACHE")
		if cache == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				unavailable("no %s, MCPGEN_CACHE or home folder", envPeerDir)
			}
			cache = filepath.Join(home, ".cache", "mcpgen")
		}
		dir = filepath.Join(cache, "tsserver")
	}
	pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server", "package.json"))
	if err != nil {
		unavailable("@modelcontextprotocol/server is not installed in %s", dir)
	}
	if !bytes.Contains(pkg, []byte(`"version": "`+peerServerVersion+`"`)) {
		unavailable("%s holds another @modelcontextprotocol/server than %s", dir, peerServerVersion)
	}
	return node, dir
}

// startPeer copies bench/tsserver/server.mjs next to the installed packages
// (node resolves its imports from the script's folder), runs it with node
// under a fresh AES-256 key, and waits for its URL. Like [startServer]'s, the
// process serves /mcp and /cpu and ends when its stdin is closed
// (tb.Cleanup).
func startPeer(tb testing.TB) *benchServer {
	tb.Helper()
	node, dir := peerDir(tb)
	script, err := os.ReadFile(filepath.Join("tsserver", "server.mjs"))
	if err != nil {
		tb.Fatal(err)
	}
	// Named by its digest, so that runs of different versions of the script
	// (other worktrees, other branches) sharing the cache never run each
	// other's; written aside and renamed, so that a concurrent run never
	// starts a half-written one.
	sum := sha256.Sum256(script)
	path := filepath.Join(dir, fmt.Sprintf("server-%x.mjs", sum[:6]))
	if _, err := os.Stat(path); err != nil {
		tmp, err := os.CreateTemp(dir, "server-*.tmp")
		if err != nil {
			tb.Fatal(err)
		}
		_, err = tmp.Write(script)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
			tb.Fatal(err)
		}
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	var args []string
	if prof := os.Getenv(envServerProfile); prof != "" {
		// bench/run -profile: V8's CPU profile, next to the Go server's,
		// written when the process exits (open it in Chrome DevTools).
		args = append(args, "--cpu-prof", "--cpu-prof-dir="+filepath.Dir(prof), "--cpu-prof-name=tsserver.cpuprofile")
	}
	cmd := exec.Command(node, append(args, path)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MCPGEN_PEER_KEY="+base64.StdEncoding.EncodeToString(key))
	return runServer(tb, cmd, "TS peer")
}

// TestPeerRoundTrip checks that the TypeScript peer does what mcpgen's tool
// does, so that the benchmark compares like with like: it books the flight
// in one round (client-driven and with the SDK's automatic rounds), refuses a
// tampered requestState and one bound to other arguments, and refuses an
// answer outside the requestedSchema.
func TestPeerRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a node process")
	}
	peer := startPeer(t)
	ctx := context.Background()

	for _, m := range []roundTripMode{peerMode, {name: "auto", tool: toolGenerated, round: true, auto: true}} {
		got, err := connectMode(t, peer.url, m).call(ctx)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if got != wantText {
			t.Fatalf("%s: got %q, want %q", m.name, got, wantText)
		}
	}

	c := connectMode(t, peer.url, peerMode)
	first, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: toolGenerated, Arguments: routeArgs})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || first.RequestState == "" {
		t.Fatal("expected an input-required result with a requestState")
	}
	er, ok := first.InputRequests[inputKey].(*mcp.ElicitParams)
	if !ok || er.Message == "" || er.RequestedSchema == nil {
		t.Fatalf("expected an elicitation request under %q, got %#v", inputKey, first.InputRequests)
	}
	retry := func(args, answer map[string]any, state string) (*mcp.CallToolResult, error) {
		return c.cs.CallTool(ctx, &mcp.CallToolParams{
			Name: toolGenerated, Arguments: args,
			InputResponses: mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept", Content: answer}},
			RequestState:   state,
		})
	}
	// refused checks that the server refused the retry saying why (want),
	// as a JSON-RPC error or a tool error.
	refused := func(what string, res *mcp.CallToolResult, err error, want string) {
		t.Helper()
		var why string
		switch {
		case err != nil:
			why = err.Error()
		case res.IsError && len(res.Content) == 1:
			why = res.Content[0].(*mcp.TextContent).Text
		default:
			t.Fatalf("%s: accepted: %#v", what, res)
		}
		if !strings.Contains(why, want) {
			t.Fatalf("%s: refused with %q, want it to say %q", what, why, want)
		}
		t.Logf("%s: refused: %s", what, why)
	}

	// A tampered state: one byte of the ciphertext changed.
	b := []byte(first.RequestState)
	if mid := len(b) / 2; b[mid] == 'A' {
		b[mid] = 'B'
	} else {
		b[mid] = 'A'
	}
	res, err := retry(routeArgs, formReply, string(b))
	refused("tampered requestState", res, err, "Invalid or expired requestState")

	// A genuine state replayed with other arguments.
	res, err = retry(map[string]any{"origin": "CDG", "destination": "LHR"}, formReply, first.RequestState)
	refused("requestState bound to other arguments", res, err, "invalid requestState")

	// Answers outside the requestedSchema.
	for _, bad := range []map[string]any{
		{"date": "2026-12-24", "window": "morning", "passengers": 12},
		{"date": "24/12/2026", "passengers": 2},
		{"date": "2026-12-24", "window": "night", "passengers": 2},
		{"window": "morning", "passengers": 2},
	} {
		res, err := retry(routeArgs, bad, first.RequestState)
		refused(fmt.Sprintf("answer %v", bad), res, err, "invalid answer")
	}

	// The genuine state still books the flight.
	res, err = retry(routeArgs, formReply, first.RequestState)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != wantText {
		t.Fatalf("got %#v, want %q", res, wantText)
	}
}

// BenchmarkPeer compares mcpgen's generated book_flight (served by the Go
// bench server, as in [BenchmarkRoundTrip]) with the same tool served by the
// official TypeScript server @modelcontextprotocol/server 2.4.0
// (bench/tsserver/server.mjs: McpServer, inputRequired, zod, AES-256-GCM
// sealed state), both over loopback stateless Streamable HTTP in their own
// processes, driven by the same go-sdk client doing one elicitation round
// itself (manual mode):
//
//   - latency: one call at a time;
//   - c16: 16 calls in flight at once (16 clients, each with its own
//     connections).
//
// On a shared machine two sub-benchmarks run a few seconds apart can see
// very different loads (go test runs all -count runs of one sub-benchmark
// before the next), so each sub-benchmark times both servers itself, in
// alternating blocks (one call each at a time, 512 calls each at 16), and
// one op is one call to each. Per server it reports calls/s, p50 and p99
// latency in µs and the server process's CPU time per call in µs, as
// mcpgen-… and ts-…. It skips when node or the npm install is missing
// (bench/tsserver/install), unless MCPGEN_BENCH_PEER=1.
func BenchmarkPeer(b *testing.B) {
	peerDir(b) // skip before starting anything
	sides := []*peerSide{{name: "mcpgen", srv: startServer(b)}, {name: "ts", srv: startPeer(b)}}
	// Warm both up (node's JIT most of all) before either is timed.
	for _, s := range sides {
		peerDrive(b, peerClients(b, s.srv, peerConcurrency), 400)
	}
	b.Run("latency", func(b *testing.B) { peerBench(b, sides, 1, 1) })
	b.Run(fmt.Sprintf("c%d", peerConcurrency), func(b *testing.B) { peerBench(b, sides, peerConcurrency, 32*peerConcurrency) })
}

// peerSide is one server of [BenchmarkPeer] and what a run measured of it.
type peerSide struct {
	name    string
	srv     *benchServer
	clients []*roundTripClient
	lat     []time.Duration
	elapsed time.Duration
}

// peerBench makes b.N calls to each side with conc calls in flight at once,
// the sides taking turns in blocks of block calls, and reports the metrics of
// [BenchmarkPeer].
func peerBench(b *testing.B, sides []*peerSide, conc, block int) {
	cpu0 := make([]int64, len(sides))
	for i, s := range sides {
		s.clients = peerClients(b, s.srv, conc)
		peerDrive(b, s.clients, 20*conc) // warm up this run's connections
		s.lat, s.elapsed = make([]time.Duration, 0, b.N), 0
		cpu0[i] = s.srv.cpu(b)
	}
	b.ResetTimer()
	for done, turn := 0, 0; done < b.N; turn++ {
		k := min(block, b.N-done)
		for j := range sides {
			s := sides[(j+turn)%len(sides)] // who goes first alternates too
			t0 := time.Now()
			s.lat = append(s.lat, peerDrive(b, s.clients, k)...)
			s.elapsed += time.Since(t0)
		}
		done += k
	}
	b.StopTimer()
	for i, s := range sides {
		cpu := s.srv.cpu(b) - cpu0[i]
		n := len(s.lat)
		slices.Sort(s.lat)
		b.ReportMetric(float64(n)/s.elapsed.Seconds(), s.name+"-calls/s")
		b.ReportMetric(us(s.lat[n/2]), s.name+"-p50-us")
		b.ReportMetric(us(s.lat[min(n-1, n*99/100)]), s.name+"-p99-us")
		b.ReportMetric(float64(cpu)/1e3/float64(n), s.name+"-server-cpu-us")
	}
}

// peerClients connects conc go-sdk clients to srv in [peerMode], each with its
// own transport and connections.
func peerClients(tb testing.TB, srv *benchServer, conc int) []*roundTripClient {
	cs := make([]*roundTripClient, conc)
	for i := range cs {
		cs[i] = connectMode(tb, srv.url, peerMode)
	}
	return cs
}

// peerDrive makes n complete calls, len(clients) at a time (each client one
// call at a time), checks each booked the flight, and returns their
// latencies.
func peerDrive(tb testing.TB, clients []*roundTripClient, n int) []time.Duration {
	var (
		next  atomic.Int64
		mu    sync.Mutex
		lat   = make([]time.Duration, 0, n)
		first error
		wg    sync.WaitGroup
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := make([]time.Duration, 0, n/len(clients)+1)
			var err error
			for next.Add(1) <= int64(n) {
				t0 := time.Now()
				var got string
				got, err = c.call(ctx)
				own = append(own, time.Since(t0))
				if err == nil && got != wantText {
					err = fmt.Errorf("got %q, want %q", got, wantText)
				}
				if err != nil {
					break
				}
			}
			mu.Lock()
			lat = append(lat, own...)
			if err != nil && first == nil {
				first = err
				cancel() // the others stop at their next call
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first != nil {
		tb.Fatal(first)
	}
	return lat
}
