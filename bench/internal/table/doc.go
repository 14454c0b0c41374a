package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// The markers around the part of docs/performance.md this program writes;
// everything outside them is hand-written.
const (
	beginMarker = "<!-- bench/run: begin (written by go run ./bench/internal/table -doc; do not edit) -->"
	endMarker   = "<!-- bench/run: end -->"
)

// meta is what bench/run records about a run in the header of its results
// file, as lines "# date: …", "# machine: …" and "# command: …".
type meta struct{ date, machine, command string }

// readMeta returns the header of a results file; a missing line reads "not recorded".
func readMeta(r io.Reader) (meta, error) {
	m := meta{date: "not recorded", machine: "not recorded", command: "not recorded"}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, val, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "# "), ": ")
		if !ok || !strings.HasPrefix(sc.Text(), "# ") {
			continue
		}
		switch key {
		case "date":
			m.date = val
		case "machine":
			m.machine = val
		case "command":
			m.command = val
		}
	}
	return m, sc.Err()
}

// section renders the generated part of the performance doc, markers
// included, from the raw results in src (named path in the text).
func section(path string, src []byte) ([]byte, error) {
	m, err := readMeta(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	res, err := parse(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s holds no benchmark results", path)
	}
	var b bytes.Buffer
	fmt.Fprintln(&b, beginMarker)
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "The run below is `%s`, rendered from its raw output, [`%s`](../%s):\n\n", m.command, path, path)
	fmt.Fprintf(&b, "- date: %s\n- machine: %s\n- command: `%s`\n\n", m.date, m.machine, m.command)
	fmt.Fprintln(&b, "Each figure is the median over the runs; a ratio is the median of run-by-run ratios; a ✓ or ✗ says")
	fmt.Fprintln(&b, "whether the goal was met in this run; n/a: the run has no result for it.")
	fmt.Fprintln(&b)
	render(&b, res)
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, endMarker)
	return b.Bytes(), nil
}

// splice returns doc with the part between the markers (markers included)
// replaced by gen; doc must hold each marker once, begin before end.
func splice(doc, gen []byte) ([]byte, error) {
	i := bytes.Index(doc, []byte(beginMarker))
	j := bytes.Index(doc, []byte(endMarker))
	if i < 0 || j < i || bytes.Count(doc, []byte(beginMarker)) != 1 || bytes.Count(doc, []byte(endMarker)) != 1 {
		return nil, fmt.Errorf("the doc must hold the line %q once, and after it the line %q once", beginMarker, endMarker)
	}
	j += len(endMarker)
	if j < len(doc) && doc[j] == '\n' {
		j++
	}
	out := append([]byte{}, doc[:i]...)
	out = append(out, gen...)
	return append(out, doc[j:]...), nil
}

// writeDoc rewrites the generated part of the doc at docPath from the results
// file at resultsPath (both relative to the working directory, the
// repository root when bench/run calls it).
func writeDoc(docPath, resultsPath string) error {
	want, err := renderDoc(docPath, resultsPath)
	if err != nil {
		return err
	}
	return os.WriteFile(docPath, want, 0o644)
}

// renderDoc returns the doc at docPath as writeDoc would write it.
func renderDoc(docPath, resultsPath string) ([]byte, error) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(resultsPath)
	if err != nil {
		return nil, err
	}
	gen, err := section(resultsPath, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", resultsPath, err)
	}
	out, err := splice(doc, gen)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", docPath, err)
	}
	return out, nil
}
