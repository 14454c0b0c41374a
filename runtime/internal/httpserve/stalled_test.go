package httpserve

import (
	"context"
	"flag"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkStalledConnections measures a normal request's latency while
// many connections stall: -stalled N (default 2000) connections that send
// half their headers and stop (slowloris), and as many that send their
// headers and stop in the body, all held open for the whole run. It runs
// only with -bench (it needs about 4 N file descriptors: see ulimit -n):
//
//	go test ./runtime/internal/httpserve -run '^$' -bench StalledConnections -benchtime 200x
//
// Reported: p50 and p99 of a normal POST (ms), and how many stalled
// connections were open.
func BenchmarkStalledConnections(b *testing.B) {
	n := stalledN
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	go func() {
		_ = Serve(ctx, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			_, _ = w.Write(body)
		}), nil, func(a net.Addr) { addrc <- a })
	}()
	addr := (<-addrc).String()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 2*n; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatalf("after %d stalled connections: %v (raise ulimit -n)", len(conns), err)
		}
		conns = append(conns, c)
		msg := "POST " + Path + " HTTP/1.1\r\nHost: x\r\nX-Slow: " // half the headers
		if i%2 == 1 {
			msg = "POST " + Path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{" // the body stalls
		}
		if _, err := io.WriteString(c, msg); err != nil {
			b.Fatal(err)
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		began := time.Now()
		resp, err := client.Post("http://"+addr+Path, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took = append(took, time.Since(began))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(conns)), "stalled-conns")
	b.Logf("%d stalled connections (%d in headers, %d in bodies) open during %d normal requests", len(conns), n, n, b.N)
}

// stalledN is BenchmarkStalledConnections' connections of each kind (flag
// -stalled).
var stalledN = 2000

func init() {
	flag.IntVar(&stalledN, "stalled", 2000, "BenchmarkStalledConnections: stalled connections of each kind")
}
