package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestPerformanceDocIsCurrent: docs/performance.md holds exactly what
// bench/run's renderer writes from the stored results, so the doc never
// drifts from the measurements. After changing a row's text, rewrite it
// (from the repository root):
//
//	go run ./bench/internal/table -doc docs/performance.md bench/results/bench.txt
func TestPerformanceDocIsCurrent(t *testing.T) {
	t.Chdir("../../..")
	want, err := renderDoc("docs/performance.md", "bench/results/bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("docs/performance.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("docs/performance.md differs from what bench/results/bench.txt renders: run go run ./bench/internal/table -doc docs/performance.md bench/results/bench.txt")
	}
}

// TestSectionIsDeterministic: the same results render the same bytes, and
// splicing them in twice changes nothing the second time.
func TestSectionIsDeterministic(t *testing.T) {
	src, err := os.ReadFile("../../results/bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	a, err := section("bench/results/bench.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b, err := section("bench/results/bench.txt", src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatal("two renderings of the same results differ")
		}
	}
	doc := []byte("# Title\n\nprose\n\n" + beginMarker + "\nold\n" + endMarker + "\n\nmore prose\n")
	once, err := splice(doc, a)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := splice(once, a)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(once, twice) {
		t.Error("splicing the same section twice changed the doc")
	}
	if !strings.HasPrefix(string(once), "# Title\n\nprose\n\n"+beginMarker) || !strings.HasSuffix(string(once), endMarker+"\n\nmore prose\n") {
		t.Errorf("splice changed the prose around the markers:\n%s", once)
	}
}

// TestSectionRecordsTheRun: the section says the run's date, machine and
// command from the results file's header, and "not recorded" without one.
func TestSectionRecordsTheRun(t *testing.T) {
	res := "# date: 2026-12-24 10:00 UTC\n# machine: 2 CPUs, a test CPU, go1.26.8 linux/amd64\n# command: bench/run -count 1 -benchtime 1x\n" +
		"BenchmarkValidate/bookflight-2   100   9.0 ns/op   0 B/op   0 allocs/op\n"
	out, err := section("r.txt", []byte(res))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- date: 2026-12-24 10:00 UTC\n", "- machine: 2 CPUs, a test CPU, go1.26.8 linux/amd64\n", "- command: `bench/run -count 1 -benchtime 1x`\n", "| Validate alone, bookflight | 9 ns, 0 allocs |"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
	out, err = section("r.txt", []byte("BenchmarkValidate/bookflight-2 100 9.0 ns/op\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "- date: not recorded\n") {
		t.Errorf("a results file without a header: %s", out)
	}
	if _, err := section("r.txt", []byte("PASS\n")); err == nil {
		t.Error("a results file without results rendered")
	}
	if _, err := splice([]byte("no markers\n"), out); err == nil {
		t.Error("a doc without markers was spliced")
	}
}
