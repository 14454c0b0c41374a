// Package bench holds mcpgen's benchmarks; it has no code of its own.
//
// The benchmarks compare what mcpgen generates or does against a baseline
// measured in the same run:
//
//   - BenchmarkAccept: a form answer accepted by the generated ApplyContent
//     and Validate, against github.com/santhosh-tekuri/jsonschema/v6 checking
//     the same content against the same RequestedSchema, and against
//     encoding/json decoding it into the struct.
//   - BenchmarkGenerate: mcpgen on a synthetic package of 100 annotated
//     structs, against the packages.Load of that package alone.
//   - BenchmarkGenerateTree: go generate ./... on a tree of 20 annotated
//     packages, with one //go:generate line per package and with the
//     one root line docs/tags.md recommends, against the packages.Load of those
//     packages alone.
//   - BenchmarkRoundTrip: one tools/call over loopback stateless HTTP with
//     one elicitation round, against the same call with every argument and
//     against a hand-written go-sdk tool doing the same round.
//   - BenchmarkRoundLatency, BenchmarkThroughput and their Once and Noise
//     variants: the same round, the two tools alternating within each run,
//     one call at a time and 16 clients at once, against the hand-written
//     tool, against one that also completes each flow at most once
//     (book_flight_hand_once), and the hand-written tool against itself.
//   - BenchmarkSessionLatency, BenchmarkSessionThroughput and
//     BenchmarkSessionLatencyNoise: a multi-round call of a 2025-11-25
//     client on a session (one tools/call, two elicitation/create: a bad
//     date, then a good one), against a hand-written go-sdk tool asking the
//     same questions with ServerSession.Elicit in a loop
//     (book_flight_hand_session; TestSessionToolsAgree holds the two alike).
//   - BenchmarkPeer: the same round, client-driven, against the official
//     TypeScript server (@modelcontextprotocol/server 2.4.0,
//     bench/tsserver), one call at a time and 16 in flight; it skips when
//     node or bench/tsserver/install is missing.
//
// The requestState benchmarks live beside the code, in package runtime
// (BenchmarkState). Run them all and print the table of ratios with
// bench/run; they run only with -bench, never in a plain go test.
package bench
