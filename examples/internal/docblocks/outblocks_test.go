package docblocks

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Every json block is valid JSON (a block with comments or elisions is
// jsonc, and is not checked).
func TestJSONBlocksAreJSON(t *testing.T) {
	for _, b := range of(all(t), "json") {
		if !json.Valid([]byte(b.Text)) {
			var v any
			err := json.Unmarshal([]byte(b.Text), &v)
			t.Errorf("%s: not valid JSON (write jsonc for an example with comments or elisions): %v", b.Pos(), err)
		}
	}
}

// matcher turns a block line into a pattern: "…" matches any text, the rest
// literally, spaces at either end ignored.
func matcher(line string) *regexp.Regexp {
	parts := strings.Split(strings.TrimSpace(line), "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^\\s*" + strings.Join(parts, ".*") + "\\s*$")
}

// missing returns the first line of want (non-blank lines, in order) that
// no line of got matches after the previous one matched, and its index in
// want; -1 when every line matched.
func missing(want, got string) (string, int) {
	lines := strings.Split(got, "\n")
	next := 0
	for i, w := range strings.Split(want, "\n") {
		if strings.TrimSpace(w) == "" {
			continue
		}
		m := matcher(w)
		j := next
		for j < len(lines) && !m.MatchString(lines[j]) {
			j++
		}
		if j == len(lines) {
			return w, i
		}
		next = j + 1
	}
	return "", -1
}

// A text block with run="COMMAND" shows COMMAND's output: every non-blank
// line of the block matches a line of what COMMAND prints on standard
// output, in order ("…" matches any text).
func TestOutputBlocksMatchTheirCommand(t *testing.T) {
	for _, b := range of(all(t), "text") {
		cmd, ok := b.Attrs["run"]
		if !ok {
			continue
		}
		if cmd == "" {
			t.Errorf("%s: run= names no command", b.Pos())
			continue
		}
		out, stderr, err := run(t, cmd, 5*time.Minute)
		if err != nil {
			t.Errorf("%s: %s: %v\n%s", b.Pos(), cmd, err, stderr)
			continue
		}
		if line, i := missing(b.Text, out); i >= 0 {
			t.Errorf("%s:%d: %s no longer prints %q (in that order); it printed:\n%s", b.File, b.Line+i, cmd, strings.TrimSpace(line), out)
		}
	}
}

func TestMissingMatchesInOrderWithElisions(t *testing.T) {
	got := "a 1\nb 22 c\nd\n"
	for _, c := range []struct {
		want string
		line int
	}{
		{"a 1\nd", -1},
		{"b … c\n\nd", -1},
		{"  a 1  ", -1},
		{"d\na 1", 1},
		{"b 22", 0},
		{"a.1", 0},
	} {
		_, i := missing(c.want, got)
		if i != c.line {
			t.Errorf("missing(%q) = line %d, want %d", c.want, i, c.line)
		}
	}
}
