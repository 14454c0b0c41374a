package annotate

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus.golden")

// TestCorpus loads the corpus of wrong annotations (testdata/src/corpus) the
// way the mcpgen command does and compares every diagnostic, as
// file:line:col: message, with testdata/corpus.golden.
func TestCorpus(t *testing.T) {
	for _, name := range []string{"corpus", "directives"} {
		t.Run(name, func(t *testing.T) { testCorpus(t, name) })
	}
}

func testCorpus(t *testing.T, name string) {
	dir, err := filepath.Abs(filepath.Join("testdata", "src", name))
	if err != nil {
		t.Fatal(err)
	}
	_, diags := Load(Config{Dir: dir})
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Format(dir) + "\n")
	}
	checkTagColumns(t, dir, diags)
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("diagnostics differ from %s (go test ./annotate -run TestCorpus -update rewrites it):\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}

// checkTagColumns checks that every diagnostic about an elicit tag option
// points inside the tag's value, at the start of an option (after the
// opening quote or a comma) or at a quote inside a value, in raw and
// interpreted string literals alike.
func checkTagColumns(t *testing.T, dir string, diags []Diagnostic) {
	for _, d := range diags {
		if !strings.HasPrefix(d.Message, "elicit tag on ") {
			continue
		}
		src, err := os.ReadFile(d.Pos.Filename)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		line := lines[d.Pos.Line-1]
		col := d.Pos.Column - 1 // byte index
		open, end := `elicit:"`, strings.LastIndex(line, "`")
		if !strings.Contains(line, open) { // an interpreted string literal
			open, end = `elicit:\"`, strings.LastIndex(line, `\""`)
		}
		start := strings.Index(line, open)
		if start < 0 || col <= start+len(open)-1 || col >= end {
			t.Errorf("%s: column %d is not inside the elicit tag value of %q", d.Format(dir), d.Pos.Column, line)
			continue
		}
		if prev := line[col-1]; prev != '"' && prev != ',' && line[col] != '\'' {
			t.Errorf("%s: column %d does not point at an option (%q)", d.Format(dir), d.Pos.Column, line[col:])
		}
	}
}
