// Package docs holds the tests of the repository's Markdown: README.md and
// docs/*.md. It has no code of its own.
package docs

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// maxREADMELines is the README's length limit (issue 24: a README that fits;
// the rest lives in docs/ by reader).
const maxREADMELines = 300

// markdownFiles returns README.md and every docs/*.md, relative to the
// repository root, which is the test's working directory's parent.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		files[i] = filepath.Join("docs", f)
	}
	return append([]string{"README.md"}, files...)
}

// read returns the file at path, relative to the repository root.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// block is a fenced code block: its info string, first line (1-based) and body.
type block struct {
	info string
	line int
	body []string
}

// parse splits a Markdown file into the lines outside fenced code blocks
// (inside ones are blank, so line numbers hold) and its fenced blocks, as
// CommonMark fences them with backticks at the start of a line.
func parse(src string) (prose []string, blocks []block) {
	var cur *block
	for i, line := range strings.Split(src, "\n") {
		// An opening fence's info string holds no backtick (CommonMark 4.5):
		// "```` ```go ```` blocks" at a line's start is a code span.
		fence := strings.HasPrefix(line, "```") && !strings.Contains(strings.TrimLeft(line, "`"), "`")
		switch {
		case cur == nil && fence:
			cur = &block{info: strings.TrimSpace(strings.TrimPrefix(line, "```")), line: i + 1}
			prose = append(prose, "")
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
			prose = append(prose, "")
		case cur != nil:
			cur.body = append(cur.body, line)
			prose = append(prose, "")
		default:
			prose = append(prose, line)
		}
	}
	return prose, blocks
}

var (
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	link     = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
)

// anchors returns the anchors GitHub gives the headings of a Markdown file:
// the text lower-cased, every character but letters, digits, spaces, '-' and
// '_' dropped, spaces made '-', and "-1", "-2"… appended to repeats.
func anchors(src string) map[string]bool {
	prose, _ := parse(src)
	seen := map[string]int{}
	out := map[string]bool{}
	for _, line := range prose {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := strings.ReplaceAll(m[1], "`", "")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// TestRelativeLinksResolve: every relative link in README.md and docs/*.md
// names a file of the repository and, with #anchor, a heading of that file
// (of the same file for a bare #anchor).
func TestRelativeLinksResolve(t *testing.T) {
	for _, file := range markdownFiles(t) {
		src := read(t, file)
		prose, _ := parse(src)
		for i, line := range prose {
			line = codeSpan.ReplaceAllString(line, "")
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				resolved := file
				if path != "" {
					resolved = filepath.Join(filepath.Dir(file), path)
					if _, err := os.Stat(filepath.Join("..", resolved)); err != nil {
						t.Errorf("%s:%d: link %s: no file %s", file, i+1, target, resolved)
						continue
					}
				}
				if anchor == "" {
					continue
				}
				if !strings.HasSuffix(resolved, ".md") {
					t.Errorf("%s:%d: link %s: an anchor into a file that is not Markdown", file, i+1, target)
					continue
				}
				if !anchors(read(t, resolved))[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading with the anchor #%s", file, i+1, target, resolved, anchor)
				}
			}
		}
	}
}

// TestExcerptsMatchTheirFiles: a block fenced as ```go excerpt:PATH quotes
// the file PATH (relative to the repository root): its non-blank lines are
// lines of PATH, in PATH's order (lines of PATH in between may be left out).
// Such a block is not a whole program; a test that compiles the docs' Go
// blocks skips it.
func TestExcerptsMatchTheirFiles(t *testing.T) {
	n := 0
	for _, file := range markdownFiles(t) {
		_, blocks := parse(read(t, file))
		for _, b := range blocks {
			lang, rest, _ := strings.Cut(b.info, " ")
			path, ok := strings.CutPrefix(strings.TrimSpace(rest), "excerpt:")
			if !ok {
				continue
			}
			n++
			if lang != "go" {
				t.Errorf("%s:%d: an excerpt block must be fenced ```go excerpt:PATH, not %q", file, b.line, b.info)
			}
			if err := isExcerpt(b.body, read(t, path)); err != nil {
				t.Errorf("%s:%d: the block is no excerpt of %s: %v", file, b.line, path, err)
			}
		}
	}
	if n == 0 {
		t.Error("no ```go excerpt:PATH block found: the parser or the docs changed")
	}
}

// isExcerpt reports whether the non-blank lines of body are lines of src, in
// order, compared without trailing white space.
func isExcerpt(body []string, src string) error {
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for _, want := range body {
		want = strings.TrimRightFunc(want, unicode.IsSpace)
		if want == "" {
			continue
		}
		found := false
		for sc.Scan() {
			if strings.TrimRightFunc(sc.Text(), unicode.IsSpace) == want {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("line %q is not in it (after the lines before it)", want)
		}
	}
	return sc.Err()
}

// TestGoBlocksAreFiles: every ```go block that is no excerpt is a whole Go
// file (it starts with its package clause and parses), so that a test can
// compile it as it stands. (A package main without func main, as the README's
// first struct, is type-checked, not linked: mcpgen init writes its main.)
func TestGoBlocksAreFiles(t *testing.T) {
	for _, file := range markdownFiles(t) {
		_, blocks := parse(read(t, file))
		for _, b := range blocks {
			lang, rest, _ := strings.Cut(b.info, " ")
			if lang != "go" || strings.HasPrefix(strings.TrimSpace(rest), "excerpt:") {
				continue
			}
			src := strings.Join(b.body, "\n")
			if _, err := parser.ParseFile(token.NewFileSet(), fmt.Sprintf("%s:%d", file, b.line), src, parser.PackageClauseOnly); err != nil {
				t.Errorf("%s:%d: a ```go block must be a whole file, starting with its package clause, or ```go excerpt:PATH: %v", file, b.line, err)
				continue
			}
			if _, err := parser.ParseFile(token.NewFileSet(), fmt.Sprintf("%s:%d", file, b.line), src, parser.ParseComments); err != nil {
				t.Errorf("%s:%d: the Go block does not parse: %v", file, b.line, err)
			}
		}
	}
}

// TestREADMEFits: the README stays short; what does not fit goes to docs/.
func TestREADMEFits(t *testing.T) {
	lines := strings.Count(read(t, "README.md"), "\n")
	if lines > maxREADMELines {
		t.Errorf("README.md has %d lines, over the limit of %d: move the detail into docs/", lines, maxREADMELines)
	}
}

// TestAnchors pins the slug rule on headings the docs link to.
func TestAnchors(t *testing.T) {
	got := anchors("# A\n## What a form's answer must be\n## Secrets: URL mode\n## In `go vet` and editors\n## Fuzzing\n```\n# not a heading\n```\n## Fuzzing\n")
	for _, want := range []string{"a", "what-a-forms-answer-must-be", "secrets-url-mode", "in-go-vet-and-editors", "fuzzing", "fuzzing-1"} {
		if !got[want] {
			t.Errorf("anchors: no %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("anchors: a line in a code block counted as a heading")
	}
}
