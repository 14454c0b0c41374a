// Command table reads the output of mcpgen's benchmarks (go test -bench
// -benchmem, any -count) on stdin and prints one Markdown table of ratios
// against the baselines measured in the same run, with the goals of issue 7.
// Each figure is the median over the runs (-count) of that benchmark.
// bench/run drives it; it is not meant to be run by hand.
//
// With -doc, it reads a results file instead (bench/run's raw output, whose
// header lines "# date:", "# machine:" and "# command:" say where it was
// measured) and rewrites the part of the Markdown file DOC between its
// markers (beginMarker, endMarker) with that run's date, machine, command
// and table; the rest of DOC is left as it is.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem -count 5 ./bench ./runtime | go run ./bench/internal/table
//	go run ./bench/internal/table -doc docs/performance.md bench/results/bench.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	doc := flag.String("doc", "", "rewrite the generated part of this Markdown file from the results file named as the argument")
	flag.Parse()
	if *doc != "" {
		if flag.NArg() != 1 {
			fmt.Fprintln(os.Stderr, "usage: table -doc DOC RESULTS")
			os.Exit(2)
		}
		if err := writeDoc(*doc, flag.Arg(0)); err != nil {
			fmt.Fprintln(os.Stderr, "table:", err)
			os.Exit(1)
		}
		return
	}
	res, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
	if len(res) == 0 {
		fmt.Fprintln(os.Stderr, "table: no benchmark results on stdin")
		os.Exit(1)
	}
	render(os.Stdout, res)
}

// results maps a benchmark name (without the -GOMAXPROCS suffix) and a unit
// ("ns/op", "allocs/op", "p50-us", …) to the values of every run.
type results map[string]map[string][]float64

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func parse(r io.Reader) (results, error) {
	res := results{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			if res[m[1]] == nil {
				res[m[1]] = map[string][]float64{}
			}
			res[m[1]][f[i+1]] = append(res[m[1]][f[i+1]], v)
		}
	}
	return res, sc.Err()
}

// get returns the median of name's unit over the runs, or NaN when absent.
func (r results) get(name, unit string) float64 {
	return median(slices.Clone(r[name][unit]))
}

// ratio returns the median over runs of f(i) / g(i), where run i of every
// benchmark comes from the same pass of -count, close together in time: on a
// busy machine pairing runs this way is much steadier than dividing medians.
// It is NaN when either side is absent.
func (r results) ratio(f, g func(i int) float64) float64 {
	var vs []float64
	for i := 0; ; i++ {
		a, b := f(i), g(i)
		if math.IsNaN(a) || math.IsNaN(b) {
			break
		}
		vs = append(vs, a/b)
	}
	return median(vs)
}

// median sorts vs in place and returns its median, or NaN when it is empty.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	slices.Sort(vs)
	if n := len(vs); n%2 == 0 {
		return (vs[n/2-1] + vs[n/2]) / 2
	}
	return vs[len(vs)/2]
}

// at returns run i of name's unit, or NaN.
func (r results) at(name, unit string) func(i int) float64 {
	return func(i int) float64 {
		vs := r[name][unit]
		if i >= len(vs) {
			return math.NaN()
		}
		return vs[i]
	}
}

func sum(fs ...func(int) float64) func(int) float64 {
	return func(i int) float64 {
		t := 0.0
		for _, f := range fs {
			t += f(i)
		}
		return t
	}
}

// dur formats nanoseconds.
func dur(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "n/a"
	case ns < 1e3:
		return fmt.Sprintf("%.0f ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	case ns < 1e7:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns < 1e9:
		return fmt.Sprintf("%.0f ms", ns/1e6)
	}
	return fmt.Sprintf("%.2f s", ns/1e9)
}

func num(v float64, format string) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

// goal renders a goal with whether it was met (ok false: missed).
func goal(text string, ok bool, known bool) string {
	switch {
	case !known:
		return text
	case ok:
		return text + " ✓"
	}
	return text + " ✗ missed"
}

type row struct{ what, mcpgen, baseline, ratio, goal string }

func render(w io.Writer, r results) {
	var rows []row
	add := func(what, m, b, ratio, g string) { rows = append(rows, row{what, m, b, ratio, g}) }

	// 1. Accepting a form answer.
	renderAccept(r, add)

	// 2. requestState.
	plain := r.get("RoundTrip/mcpgen/plain", "p50-us") * 1e3
	for _, n := range []string{"1", "3", "10"} {
		so := r.get("State/answers="+n+"/seal", "ns/op") + r.get("State/answers="+n+"/open", "ns/op")
		size := r.get("State/answers="+n+"/seal", "state-bytes")
		pct := 100 * r.ratio(sum(r.at("State/answers="+n+"/seal", "ns/op"), r.at("State/answers="+n+"/open", "ns/op")),
			func(i int) float64 { return 1e3 * r.at("RoundTrip/mcpgen/plain", "p50-us")(i) })
		add("requestState seal+open, "+n+" answer(s), vs one plain loopback call (p50)",
			dur(so)+", "+num(size, "%.0f")+" bytes", dur(plain), num(pct, "%.2f %%"),
			goal("< 2 %", pct < 2, !math.IsNaN(pct)))
	}
	bs := r.get("RoundTrip/mcpgen/manual", "state-bytes")
	if math.IsNaN(bs) {
		bs = r.get("FlowCall/first", "state-bytes")
	}
	add("bookflight's requestState after round 1", num(bs, "%.0f bytes"),
		num(r.get("RoundTrip/hand/manual", "state-bytes"), "%.0f bytes (hand-written)"), "",
		goal("< 512 bytes", bs < 512, !math.IsNaN(bs)))

	// 3. Generation (generate.go).
	rows = append(rows, generationRows(r)...)

	// 4. Round trips.
	rt := func(mode string) string {
		n := "RoundTrip/" + mode
		return fmt.Sprintf("p50 %s, p99 %s, %s calls/s, CPU %s server + %s client",
			dur(r.get(n, "p50-us")*1e3), dur(r.get(n, "p99-us")*1e3),
			num(r.get(n, "calls/s"), "%.0f"), dur(r.get(n, "server-cpu-us")*1e3), dur(r.get(n, "client-cpu-us")*1e3))
	}
	ratio := func(a, b, unit string) float64 {
		return r.ratio(r.at("RoundTrip/"+a, unit), r.at("RoundTrip/"+b, unit))
	}
	// The sub-benchmarks of BenchmarkRoundTrip run one after the other, each
	// for all its -count runs, so their ratios carry the machine's drift:
	// they are shown, and the goals are judged on BenchmarkRoundLatency, which
	// alternates the two tools within each run (serverRows).
	lat := ratio("mcpgen/manual", "hand/manual", "p50-us")
	cpu := r.get("RoundLatency", "x-cpu")
	if math.IsNaN(cpu) {
		cpu = ratio("mcpgen/manual", "hand/manual", "server-cpu-us")
	}
	add("one elicitation round, client-driven: mcpgen vs hand-written go-sdk tool (latency p50; the two measured minutes apart, see the alternating row below for the goal)",
		rt("mcpgen/manual"), rt("hand/manual"), num(lat, "%.2f×"), "")
	add("one round, one call at a time, server CPU per round: mcpgen vs hand-written (the two alternating within each run)", "", "",
		num(cpu, "%.2f×"), goal("≤ 1.10×", cpu <= 1.10, !math.IsNaN(cpu)))
	add("one round, SDK's automatic rounds: mcpgen vs hand-written", rt("mcpgen/auto"), rt("hand/auto"),
		num(ratio("mcpgen/auto", "hand/auto", "p50-us"), "%.2f× latency")+", "+num(ratio("mcpgen/auto", "hand/auto", "server-cpu-us"), "%.2f× CPU"), "")
	add("no round (every argument given): mcpgen vs hand-written", rt("mcpgen/plain"), rt("hand/plain"),
		num(ratio("mcpgen/plain", "hand/plain", "p50-us"), "%.2f× latency")+", "+num(ratio("mcpgen/plain", "hand/plain", "server-cpu-us"), "%.2f× CPU"), "")
	for _, who := range []string{"mcpgen", "hand"} {
		for _, how := range []string{"manual", "auto"} {
			add(fmt.Sprintf("one round (%s) vs no round, %s", how, who), "", "",
				num(ratio(who+"/"+how, who+"/plain", "p50-us"), "%.2f× latency")+", "+
					num(ratio(who+"/"+how, who+"/plain", "server-cpu-us"), "%.2f× server CPU")+", "+
					num(ratio(who+"/"+how, who+"/plain", "client-cpu-us"), "%.2f× client CPU"),
				"floor 2.0×")
		}
	}
	own := r.get("FlowCall/first", "ns/op") + r.get("FlowCall/retry", "ns/op")
	add("mcpgen's own work in a round (Flow.Call first + retry, in process) vs the round's server CPU",
		dur(own), dur(r.get("RoundTrip/mcpgen/manual", "server-cpu-us")*1e3),
		num(100*r.ratio(sum(r.at("FlowCall/first", "ns/op"), r.at("FlowCall/retry", "ns/op")),
			func(i int) float64 { return 1e3 * r.at("RoundTrip/mcpgen/manual", "server-cpu-us")(i) }), "%.1f %%"), "")
	serverRows(r, add)

	// 5. At most once across instances: the Redis store vs the in-memory one.
	storeLat := r.ratio(r.at("StoreRound/redis", "ns/op"), r.at("StoreRound/memory", "ns/op"))
	add("one elicitation round over HTTP, completing request claims and records: Redis store vs in-memory store (latency)",
		dur(r.get("StoreRound/redis", "ns/op"))+", "+num(r.get("StoreRound/redis", "redis-round-trips/op"), "%.0f")+" Redis round trips",
		dur(r.get("StoreRound/memory", "ns/op")), num(storeLat, "%.2f×"), goal("≤ 1.15×", storeLat <= 1.15, !math.IsNaN(storeLat)))
	// The worst run, not the median: the goal is none in any run.
	worst := func(unit string) float64 {
		if vs := r["StoreConcurrentRounds"][unit]; len(vs) > 0 {
			return slices.Max(vs)
		}
		return math.NaN()
	}
	falseUnavailable := worst("store-unavailable/op")
	add("2000 rounds at once over HTTP, two instances on one healthy Redis: retries refused as \"flow store unavailable\" (false), worst run",
		num(falseUnavailable, "%.0f")+" of 2000 (other errors "+num(worst("other-errors/op"), "%.0f")+
			", slowest store operation "+num(worst("store-max-ms"), "%.0f")+" ms, the 2000 rounds "+dur(r.get("StoreConcurrentRounds", "ns/op"))+")",
		"", "", goal("0", falseUnavailable == 0, !math.IsNaN(falseUnavailable)))

	// 5b. Beyond one Redis (bench/capacity_test.go): a completed one-question
	// call, one at a time, on a 3-master cluster and on Sentinel (a master, 2
	// replicas, 3 sentinels) vs one Redis, in the same run; the costs the
	// capacity plan (docs/capacity.md) is built on.
	for _, topo := range []string{"cluster", "sentinel"} {
		name := "Capacity/" + topo + "/sequential"
		lat := r.ratio(r.at(name, "ns/op"), r.at("Capacity/single/sequential", "ns/op"))
		add("one completed one-question call (2 requests over HTTP, 3 instances): "+topo+" vs one Redis (latency)",
			dur(r.get(name, "ns/op"))+", "+num(r.get(name, "redis-cmds/op"), "%.1f")+" Redis commands, "+
				num(r.get(name, "redis-in-B/op"), "%.0f")+" B in, record "+num(r.get(name, "record-B"), "%.0f")+" B",
			dur(r.get("Capacity/single/sequential", "ns/op")), num(lat, "%.2f×"), "")
	}

	// 6. The HTTP endpoint: routing 2026-07-28 requests past the sessions of older clients.
	dual := r.ratio(r.at("Endpoint/dual", "ns/op"), r.at("Endpoint/stateless", "ns/op"))
	add("a 2026-07-28 round (2 requests, in process) through NewHTTPHandler (also serves older clients' sessions) vs the stateless one (MaxSessions -1)",
		dur(r.get("Endpoint/dual", "ns/op"))+", "+num(r.get("Endpoint/dual", "allocs/op"), "%.0f")+" allocs",
		dur(r.get("Endpoint/stateless", "ns/op"))+", "+num(r.get("Endpoint/stateless", "allocs/op"), "%.0f")+" allocs",
		num(dual, "%.3f×"), goal("≤ 1.02×", dual <= 1.02, !math.IsNaN(dual)))

	rows = append(rows, peerRows(r)...) // 7. The official TypeScript server, same round (peer.go).

	fmt.Fprintln(w, "| measure | mcpgen | baseline | ratio | goal |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	for _, x := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", x.what, x.mcpgen, x.baseline, x.ratio, x.goal)
	}
}
