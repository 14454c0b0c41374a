package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/driver"
)

// Size of the synthetic package: structs, spread over files.
const (
	synthStructs = 100
	synthFiles   = 10
)

// testdataDir makes a fresh directory under bench/testdata (inside this
// module, so that generated files' imports resolve; git ignores it), removed
// when tb ends, and returns it with a function that writes a file at a
// slash-separated path below it, making the directories on the way.
func testdataDir(tb testing.TB, prefix string) (string, func(name, src string)) {
	tb.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		tb.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", prefix)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir, func(name, src string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// writeSynthetic writes a package of synthStructs annotated structs (eight
// fields each, every kind the grammar allows) under bench/testdata, inside
// this module so that the generated files' imports resolve, and removes it
// when tb ends. It returns the directory.
func writeSynthetic(tb testing.TB) string {
	tb.Helper()
	dir, write := testdataDir(tb, "synth-")
	write("window.go", `package synth

// Window is the part of the day a trip starts in.
type Window string

// The windows; each line comment is the choice's title.
const (
	Morning   Window = "morning"   // Morning
	Afternoon Window = "afternoon" // Afternoon
	Evening   Window = "evening"   // Evening
)
`)
	per := synthStructs / synthFiles
	for f := range synthFiles {
		var b strings.Builder
		b.WriteString("package synth\n\nimport \"time\"\n")
		for i := f * per; i < (f+1)*per; i++ {
			fmt.Fprintf(&b, `
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
`, i)
		}
		write(fmt.Sprintf("trips%d.go", f), b.String())
	}
	return dir
}

// generate does what the mcpgen command does on dir (its driver): load and
// check, and unless the package is current (this build rendered its files
// for its model before), render; type-check; write (skipping unchanged
// files and existing handler files).
func generate(tb testing.TB, dir string) gen.WriteResult {
	res, err := driver.Run(driver.Options{Dir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		tb.Error(d.Format(dir))
	}
	if len(res.Diagnostics) > 0 || len(res.Packages) != 1 || len(res.Packages[0].Structs) != synthStructs {
		tb.Fatalf("want one package of %d structs, got %d packages and %d diagnostics", synthStructs, len(res.Packages), len(res.Diagnostics))
	}
	w, err := res.Write()
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// BenchmarkGenerate times mcpgen on a synthetic package of 100 annotated
// structs against the floor: the same packages.Load (annotate.PackagesConfig)
// of the same package, and nothing else. Every iteration runs the floor and
// then mcpgen, so that both see the same machine; each reports floor-ms and
// mcpgen-ms (wall time per run) and x-floor (their ratio).
//
//   - rerun: go generate run again, the generated files present and
//     current (the common case; nothing is rendered or written);
//   - fresh: the first run, the generated files removed before each
//     iteration (outside the timings) and written again.
func BenchmarkGenerate(b *testing.B) {
	dir, err := filepath.Abs(writeSynthetic(b))
	if err != nil {
		b.Fatal(err)
	}
	if res := generate(b, dir); len(res.Written) != 2*synthStructs {
		b.Fatalf("first run wrote %d files, want %d", len(res.Written), 2*synthStructs)
	}
	// Warm the build cache: go list -export compiles the package with its
	// generated files once; every timed load after that finds it cached.
	generate(b, dir)
	floor := func(b *testing.B) {
		pkgs, err := packages.Load(annotate.PackagesConfig(annotate.Config{Dir: dir}), ".")
		if err != nil || len(pkgs) != 1 {
			b.Fatalf("packages.Load: %v %v", err, pkgs)
		}
	}
	removeOutput := func(b *testing.B) {
		out, _ := filepath.Glob(filepath.Join(dir, "*_*.go"))
		for _, f := range out {
			if err := os.Remove(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, fresh := range []bool{false, true} {
		name := "rerun"
		if fresh {
			name = "fresh"
		}
		b.Run(name, func(b *testing.B) {
			var floorTime, genTime time.Duration
			for i := 0; i < b.N; i++ {
				if fresh {
					b.StopTimer()
					removeOutput(b)
					b.StartTimer()
				}
				t0 := time.Now()
				floor(b)
				t1 := time.Now()
				res := generate(b, dir)
				genTime += time.Since(t1)
				floorTime += t1.Sub(t0)
				if want := map[bool]int{false: 0, true: 2 * synthStructs}[fresh]; len(res.Written) != want {
					b.Fatalf("wrote %d files, want %d", len(res.Written), want)
				}
			}
			b.ReportMetric(float64(floorTime.Milliseconds())/float64(b.N), "floor-ms")
			b.ReportMetric(float64(genTime.Milliseconds())/float64(b.N), "mcpgen-ms")
			b.ReportMetric(float64(genTime)/float64(floorTime), "x-floor")
		})
	}
}
