package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// throughputClients is how many clients drive the server at once in
// BenchmarkThroughput.
const throughputClients = 16

// throughputSlice is how many rounds one tool runs before the benchmark
// switches to the other (about 0.1 s on 2 CPUs).
const throughputSlice = 128

// throughputSide is one tool of BenchmarkThroughput: its clients and what
// they measured.
type throughputSide struct {
	name    string
	clients []*roundTripClient
	lat     []time.Duration
	elapsed time.Duration
	cpu     int64     // server CPU, ns
	rates   []float64 // calls/s of each slice
	p50s    []float64 // p50 latency of each slice, µs
}

// BenchmarkThroughput times complete elicitation rounds of book_flight (the
// first call without the date → input-required → the retry with the answer
// and the requestState → booked) with 16 clients at once, each with its own
// go-sdk client session and connections, over loopback stateless Streamable
// HTTP, against the server process of BenchmarkRoundTrip: the generated flow
// (mcpgen) and the hand-written go-sdk tool doing the same round with the
// same sealing (hand), on the same server process.
//
// An op is one complete round of each tool. The two alternate in slices of
// 128 rounds (the first of each pair of slices alternating too), so that both
// see the same machine on a busy host; the ratio is taken within the run.
// It reports, for each tool (mcpgen-…, hand-…), calls/s (complete rounds per
// second across the 16 clients, counting only that tool's slices), the p50
// and p99 latency of a round in µs, and the server process's CPU time per
// round in µs; and x-calls, the median over pairs of slices of mcpgen's
// calls/s over hand's (a burst of other load on the machine skews one pair,
// not the median), x-p50 likewise for the p50 latency of a round, and
// x-cpu, mcpgen's server CPU per round over hand's.
func BenchmarkThroughput(b *testing.B) {
	alternate(b, throughputClients, throughputSlice, toolGenerated, toolHand)
}

// BenchmarkThroughputNoise is BenchmarkThroughput with the hand-written tool
// on both sides (an A/A run): its ratios differ from 1.00 only by what the
// machine and the alternation add, which tells how near 1.00 a goal on
// BenchmarkThroughput's ratios can be told apart from noise.
func BenchmarkThroughputNoise(b *testing.B) {
	alternate(b, throughputClients, throughputSlice, toolHand, toolHand)
}

// BenchmarkThroughputOnce is BenchmarkThroughput against the hand-written
// tool that also keeps an at-most-once record (book_flight_hand_once, see
// handRecords): what mcpgen's round costs beyond what the guarantee needs,
// which the plain hand-written tool does not give (a replay of its state
// books again).
func BenchmarkThroughputOnce(b *testing.B) {
	alternate(b, throughputClients, throughputSlice, toolGenerated, toolHandOnce)
}

// BenchmarkRoundLatency is BenchmarkThroughput with one client per tool,
// one round at a time, alternating in slices of 32 rounds: the latency of a
// round when the server has nothing else to do, with both tools measured
// side by side in time. Besides the metrics of BenchmarkThroughput it
// reports x-p50, the median over pairs of slices of mcpgen's p50 over
// hand's.
func BenchmarkRoundLatency(b *testing.B) {
	alternate(b, 1, 32, toolGenerated, toolHand)
}

// BenchmarkRoundLatencyNoise is BenchmarkRoundLatency as an A/A run, the
// hand-written tool on both sides (see BenchmarkThroughputNoise).
func BenchmarkRoundLatencyNoise(b *testing.B) {
	alternate(b, 1, 32, toolHand, toolHand)
}

// BenchmarkRoundLatencyOnce is BenchmarkRoundLatency against the
// hand-written tool with an at-most-once record (see
// BenchmarkThroughputOnce).
func BenchmarkRoundLatencyOnce(b *testing.B) {
	alternate(b, 1, 32, toolGenerated, toolHandOnce)
}

// alternate runs b.N complete rounds of each tool with clients clients at
// once, the tools alternating every slice rounds, and reports the metrics
// of BenchmarkThroughput and BenchmarkRoundLatency. The side named mcpgen
// calls tool: the generated one, or the hand-written one for an A/A run;
// the side named hand calls baseline, one of the hand-written tools.
func alternate(b *testing.B, clients, slice int, tool, baseline string) {
	alternateModes(b, clients, slice, roundTripMode{tool: tool, round: true}, roundTripMode{tool: baseline, round: true})
}

// alternateModes is alternate with each side's clients in a mode of their
// own: the side named mcpgen calls as m says, the side named hand as
// baseline says (their names are set here).
func alternateModes(b *testing.B, clients, slice int, m, baseline roundTripMode) {
	srv := startServer(b)
	sides := []*throughputSide{{name: "mcpgen"}, {name: "hand"}}
	modes := map[string]roundTripMode{"mcpgen": m, "hand": baseline}
	ctx := context.Background()
	for _, s := range sides {
		m := modes[s.name]
		m.name = s.name
		for range clients {
			s.clients = append(s.clients, connectMode(b, srv.url, m))
		}
		if err := s.run(ctx, srv, b, 10*clients); err != nil { // warm up connections and caches
			b.Fatal(err)
		}
		s.lat, s.elapsed, s.cpu, s.rates, s.p50s = nil, 0, 0, nil, nil
	}
	b.ResetTimer()
	for done, i := 0, 0; done < b.N; i++ {
		n := min(slice, b.N-done)
		first, second := sides[0], sides[1]
		if i%2 == 1 {
			first, second = second, first
		}
		for _, s := range []*throughputSide{first, second} {
			if err := s.run(ctx, srv, b, n); err != nil {
				b.Fatal(err)
			}
		}
		done += n
	}
	b.StopTimer()
	rate := map[string]float64{}
	cpu := map[string]float64{}
	for _, s := range sides {
		slices.Sort(s.lat)
		n := len(s.lat)
		rate[s.name] = float64(n) / s.elapsed.Seconds()
		cpu[s.name] = float64(s.cpu) / 1e3 / float64(n)
		b.ReportMetric(rate[s.name], s.name+"-calls/s")
		b.ReportMetric(us(s.lat[n/2]), s.name+"-p50-us")
		b.ReportMetric(us(s.lat[min(n-1, n*99/100)]), s.name+"-p99-us")
		b.ReportMetric(cpu[s.name], s.name+"-server-cpu-us")
	}
	b.ReportMetric(medianRatio(sides[0].rates, sides[1].rates), "x-calls")
	b.ReportMetric(medianRatio(sides[0].p50s, sides[1].p50s), "x-p50")
	b.ReportMetric(cpu["mcpgen"]/cpu["hand"], "x-cpu")
}

// medianRatio returns the median of a[i]/b[i].
func medianRatio(a, b []float64) float64 {
	r := make([]float64, len(a))
	for i := range r {
		r[i] = a[i] / b[i]
	}
	slices.Sort(r)
	return (r[(len(r)-1)/2] + r[len(r)/2]) / 2
}

// run makes n complete rounds with the side's clients, all at once, and adds
// their latencies, the wall time and the server's CPU time to the side's.
func (s *throughputSide) run(ctx context.Context, srv *benchServer, tb testing.TB, n int) error {
	var (
		left   atomic.Int64
		failed atomic.Pointer[error]
		wg     sync.WaitGroup
	)
	left.Store(int64(n))
	lats := make([][]time.Duration, len(s.clients))
	cpu0 := srv.cpu(tb)
	start := time.Now()
	for i, c := range s.clients {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				a0 := c.asked.Load()
				t0 := time.Now()
				got, err := c.call(ctx)
				lats[i] = append(lats[i], time.Since(t0))
				if err == nil && got != wantText {
					err = errors.New("got " + got)
				}
				if asked := c.asked.Load() - a0; err == nil && c.mode.session && asked != sessionAsks {
					err = fmt.Errorf("the session's client was asked %d times in a call, not %d", asked, sessionAsks)
				}
				if err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := failed.Load(); err != nil {
		return *err
	}
	s.cpu += srv.cpu(tb) - cpu0
	s.elapsed += elapsed
	s.rates = append(s.rates, float64(n)/elapsed.Seconds())
	all := slices.Concat(lats...)
	slices.Sort(all)
	s.p50s = append(s.p50s, us(all[len(all)/2]))
	s.lat = append(s.lat, all...)
	return nil
}
