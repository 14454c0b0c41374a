package main

import (
	"fmt"
	"math"
)

// peerRows are the rows of issue 15: mcpgen's generated book_flight against
// the same round served by the official TypeScript server
// (@modelcontextprotocol/server 2.4.0, bench/tsserver), both driven by the
// same go-sdk client in the same run (BenchmarkPeer). The goal is to stay
// ahead: a ratio above 1.0× in mcpgen's favour.
func peerRows(r results) []row {
	const (
		server = "official TypeScript server (@modelcontextprotocol/server 2.4.0)"
		c16    = "c16" // BenchmarkPeer's concurrency-16 sub-benchmark
	)
	// BenchmarkPeer reports both sides in one line per sub-benchmark (kind),
	// the units prefixed with mcpgen- and ts-.
	side := func(kind, who string) string {
		n := "Peer/" + kind
		if _, ok := r[n][who+"-p50-us"]; !ok {
			return "n/a"
		}
		return fmt.Sprintf("p50 %s, p99 %s, %s calls/s, server CPU %s",
			dur(r.get(n, who+"-p50-us")*1e3), dur(r.get(n, who+"-p99-us")*1e3),
			num(r.get(n, who+"-calls/s"), "%.0f"), dur(r.get(n, who+"-server-cpu-us")*1e3))
	}
	// ratio pairs run i of ts and mcpgen; higherBetter flips it so that
	// above 1.0× always means mcpgen is ahead.
	ratio := func(kind, unit string, higherBetter bool) float64 {
		ts, gen := r.at("Peer/"+kind, "ts-"+unit), r.at("Peer/"+kind, "mcpgen-"+unit)
		if higherBetter {
			return r.ratio(gen, ts)
		}
		return r.ratio(ts, gen)
	}
	ahead := func(v float64) string { return goal("ahead (> 1.0×)", v > 1, !math.IsNaN(v)) }
	// both formats a and, after it, b; or says why there is nothing.
	both := func(a float64, fa string, b float64, fb string) string {
		if math.IsNaN(a) {
			return "n/a: BenchmarkPeer skipped (node or bench/tsserver/install missing; why: bench/out/bench.txt)"
		}
		return fmt.Sprintf(fa, a) + num(b, fb)
	}
	lat := ratio("latency", "p50-us", false)
	lat99 := ratio("latency", "p99-us", false)
	thr := ratio(c16, "calls/s", true)
	return []row{
		{"one elicitation round, client-driven, one call at a time: mcpgen vs the " + server + " (latency p50)",
			side("latency", "mcpgen"), side("latency", "ts"),
			both(lat, "%.2f× faster", lat99, " (p99 %.2f×)"), ahead(lat)},
		{"the same round, 16 calls in flight: mcpgen vs the TypeScript server (throughput)",
			side(c16, "mcpgen"), side(c16, "ts"),
			both(thr, "%.2f× the calls/s", ratio(c16, "p50-us", false), " (p50 %.2f× faster)"), ahead(thr)},
		{"the same: server CPU per call, TypeScript over mcpgen (one at a time; 16 in flight)", "", "",
			both(ratio("latency", "server-cpu-us", false), "%.2f×", ratio(c16, "server-cpu-us", false), "; %.2f×"), ""},
	}
}
