package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/annotate"
)

// treePackages is the number of annotated packages of the synthetic trees.
const treePackages = 20

// goRunMcpgen is how the trees' //go:generate lines run mcpgen: go run of
// this module's command, which the go command builds once and then serves
// from its cache, as it does `go tool mcpgen` for a module that pins mcpgen
// as a tool (the spelling docs/tags.md recommends).
const goRunMcpgen = "go run github.com/mcpgen/mcpgen/cmd/mcpgen"

// goRunStringer runs golang.org/x/tools/cmd/stringer the same way, at the
// x/tools version of this module's go.mod: the yardstick of one
// //go:generate line per package.
const goRunStringer = "go run golang.org/x/tools/cmd/stringer"

// treeSetup is which //go:generate lines a tree has.
type treeSetup int

const (
	mcpgenPerPackage   treeSetup = iota // each package: `… mcpgen -type TripN`
	mcpgenRoot                          // the root only: docs/tags.md's `… mcpgen ./...`
	stringerPerPackage                  // each package: `… stringer -type=Level`
)

// writeTree writes a tree of treePackages packages under bench/testdata
// (inside this module, so that the generated files' imports resolve; git
// ignores it), each with one annotated struct of eight fields and one
// integer enum, Level, and removes it when tb ends. setup says where its
// //go:generate lines are. It returns the root.
func writeTree(tb testing.TB, setup treeSetup) string {
	tb.Helper()
	root, write := testdataDir(tb, "tree-")
	doc := "// Package tree holds the synthetic tools of a benchmark.\npackage tree\n"
	if setup == mcpgenRoot {
		doc += "\n//go:generate " + goRunMcpgen + " ./...\n"
	}
	write("doc.go", doc)
	for i := range treePackages {
		directive := ""
		switch setup {
		case mcpgenPerPackage:
			directive = fmt.Sprintf("\n//go:generate %s -type Trip%d\n", goRunMcpgen, i)
		case stringerPerPackage:
			directive = "\n//go:generate " + goRunStringer + " -type=Level\n"
		}
		write(fmt.Sprintf("p%02d/args.go", i), fmt.Sprintf(`package p%02[1]d

import "time"
%[2]s
// Level is how urgent a trip is.
type Level int

// The levels.
const (
	Low Level = iota
	Medium
	High
)

// Window is the part of the day a trip starts in.
type Window string

// The windows; each line comment is the choice's title.
const (
	Morning   Window = "morning"   // Morning
	Afternoon Window = "afternoon" // Afternoon
	Evening   Window = "evening"   // Evening
)

// Trip%[1]d are the arguments of the trip_%[1]d tool.
//
//mcpgen:tool trip_%[1]d Plan trip number %[1]d.
//mcpgen:message When and how should trip %[1]d go?
type Trip%[1]d struct {
	Origin     string    `+"`json:\"origin\"`"+`
	Date       string    `+"`json:\"date,omitempty\" elicit:\"required,format=date,title=Departure date\"`"+`
	Window     *Window   `+"`json:\"window,omitempty\" elicit:\"optional,title=Time of day\"`"+`
	Passengers int       `+"`json:\"passengers,omitempty\" elicit:\"optional,minimum=1,maximum=9,default=1\"`"+`
	Email      string    `+"`json:\"email,omitempty\" elicit:\"optional,format=email,maxLength=254\"`"+`
	Seats      []string  `+"`json:\"seats,omitempty\" elicit:\"optional,enum=a:Aisle|w:Window|m:Middle,maxItems=2\"`"+`
	Agree      *bool     `+"`json:\"agree,omitempty\" elicit:\"title=I agree,default=true\"`"+`
	Return     time.Time `+"`json:\"return\" elicit:\"optional\"`"+`
}
`, i, directive))
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		tb.Fatal(err)
	}
	return abs
}

// command runs name with args in dir and fails tb when it fails.
func command(tb testing.TB, dir, name string, args ...string) {
	tb.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
}

// generated returns the files mcpgen wrote under root.
func generated(tb testing.TB, root string) []string {
	tb.Helper()
	var out []string
	for _, pat := range []string{"*/*_elicit.go", "*/*_handler.go"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

// newestMtime is the latest modification time of files.
func newestMtime(tb testing.TB, files []string) time.Time {
	tb.Helper()
	var t time.Time
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			tb.Fatal(err)
		}
		if fi.ModTime().After(t) {
			t = fi.ModTime()
		}
	}
	return t
}

// BenchmarkGenerateTree times `go generate ./...` on a tree of 20 annotated
// packages, the way a user runs it, against the floor: one packages.Load
// of those packages (annotate.PackagesConfig, in this process) and nothing
// else, and against stringer, one line per package, on the same packages.
// Every iteration times, in turn, on the same machine:
//
//   - floor-ms: packages.Load of the tree's packages (./...);
//   - stringer-ms: go generate ./... with one `go run …/stringer
//     -type=Level` line per package (20 go runs; stringer always rewrites
//     its file): the idiom users copy;
//   - perpkg-ms: go generate ./... with one `go run …/mcpgen -type TripN`
//     line per package (20 go runs), output present and current;
//   - one-ms: go generate ./... with the recommended one line at the root,
//     `go run …/mcpgen ./...` (one go run, one load), output current: what
//     a user's rerun costs;
//   - prebuilt-ms: the same mcpgen, prebuilt, run directly on ./... (no go
//     generate, no go run): mcpgen's own share;
//   - gorun-ms: `go run …/mcpgen -version`, which loads nothing: what go
//     run costs before mcpgen starts (its build served from the cache);
//   - fresh-ms: the recommended setup with the 40 generated files removed
//     first (outside the timing): a first run, which renders, type-checks
//     and writes everything.
//
// mcpgen's reruns must write nothing (modification times are checked); the
// ratios one-x-floor, prebuilt-x-floor, perpkg-x-one, fresh-x-one,
// perpkg-x-stringer and one-x-stringer are of the same iteration.
func BenchmarkGenerateTree(b *testing.B) {
	perPkg, one, str := writeTree(b, mcpgenPerPackage), writeTree(b, mcpgenRoot), writeTree(b, stringerPerPackage)
	bin := filepath.Join(b.TempDir(), "mcpgen")
	command(b, ".", "go", "build", "-o", bin, "github.com/mcpgen/mcpgen/cmd/mcpgen")
	// First generation of the trees; it also warms the build cache (go
	// run's mcpgen and stringer, go list -export of the packages with their
	// output) and, by the second run, mcpgen's memo of current runs.
	for _, root := range []string{perPkg, one} {
		command(b, root, "go", "generate", "./...")
		if n := len(generated(b, root)); n != 2*treePackages {
			b.Fatalf("%s: go generate wrote %d files, want %d", root, n, 2*treePackages)
		}
		command(b, root, "go", "generate", "./...")
	}
	command(b, str, "go", "generate", "./...")
	if m, _ := filepath.Glob(filepath.Join(str, "*", "level_string.go")); len(m) != treePackages {
		b.Fatalf("%s: stringer wrote %d files, want %d", str, len(m), treePackages)
	}
	floor := func() {
		pkgs, err := packages.Load(annotate.PackagesConfig(annotate.Config{Dir: one}), "./...")
		if err != nil || len(pkgs) != treePackages+1 {
			b.Fatalf("packages.Load: %v, %d packages", err, len(pkgs))
		}
	}
	timed := func(f func()) time.Duration {
		t0 := time.Now()
		f()
		return time.Since(t0)
	}
	unchanged := func(what, root string, run func()) time.Duration {
		files := generated(b, root)
		before := newestMtime(b, files)
		d := timed(run)
		if after := newestMtime(b, files); !after.Equal(before) {
			b.Fatalf("%s: a rerun with nothing changed wrote files", what)
		}
		return d
	}
	var tFloor, tStringer, tPerPkg, tOne, tPrebuilt, tGoRun, tFresh time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tFloor += timed(floor)
		tGoRun += timed(func() { command(b, one, "go", strings.Fields(goRunMcpgen + " -version")[1:]...) })
		tStringer += timed(func() { command(b, str, "go", "generate", "./...") })
		tPerPkg += unchanged("per-package directives", perPkg, func() { command(b, perPkg, "go", "generate", "./...") })
		tOne += unchanged("one directive", one, func() { command(b, one, "go", "generate", "./...") })
		tPrebuilt += unchanged("prebuilt mcpgen ./...", one, func() { command(b, one, bin, "./...") })
		b.StopTimer()
		for _, f := range generated(b, one) {
			if err := os.Remove(f); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		tFresh += timed(func() { command(b, one, "go", "generate", "./...") })
		if n := len(generated(b, one)); n != 2*treePackages {
			b.Fatalf("fresh go generate wrote %d files, want %d", n, 2*treePackages)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(b.N) }
	b.ReportMetric(ms(tFloor), "floor-ms")
	b.ReportMetric(ms(tStringer), "stringer-ms")
	b.ReportMetric(ms(tPerPkg), "perpkg-ms")
	b.ReportMetric(ms(tOne), "one-ms")
	b.ReportMetric(ms(tPrebuilt), "prebuilt-ms")
	b.ReportMetric(ms(tGoRun), "gorun-ms")
	b.ReportMetric(ms(tFresh), "fresh-ms")
	b.ReportMetric(float64(tOne)/float64(tFloor), "one-x-floor")
	b.ReportMetric(float64(tPrebuilt)/float64(tFloor), "prebuilt-x-floor")
	b.ReportMetric(float64(tPerPkg)/float64(tOne), "perpkg-x-one")
	b.ReportMetric(float64(tFresh)/float64(tOne), "fresh-x-one")
	b.ReportMetric(float64(tPerPkg)/float64(tStringer), "perpkg-x-stringer")
	b.ReportMetric(float64(tOne)/float64(tStringer), "one-x-stringer")
}
