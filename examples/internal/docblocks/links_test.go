package docblocks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// maxREADMELines is the README's length limit: what a newcomer reads first
// fits on a few screens; the rest lives in docs/, by reader.
const maxREADMELines = 300

// parsed is one Markdown file's links (destination and line) and the
// anchors GitHub gives its headings.
type parsed struct {
	links   []link
	anchors map[string]bool
}

type link struct {
	dest string
	line int
}

// parseLinks reads rel (relative to root) with goldmark.
func parseLinks(t *testing.T, rel string) parsed {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return parseMarkdown(t, src)
}

// parseMarkdown reads the Markdown src with goldmark.
func parseMarkdown(t *testing.T, src []byte) parsed {
	t.Helper()
	p := parsed{anchors: map[string]bool{}}
	seen := map[string]int{}
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	lineAt := func(n ast.Node) int {
		for ; n != nil; n = n.Parent() {
			if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
				return strings.Count(string(src[:n.Lines().At(0).Start]), "\n") + 1
			}
		}
		return 0
	}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			p.links = append(p.links, link{string(n.Destination), lineAt(n)})
		case *ast.Image:
			p.links = append(p.links, link{string(n.Destination), lineAt(n)})
		case *ast.Heading:
			slug := slugOf(headingText(n, src))
			if k := seen[slug]; k > 0 {
				p.anchors[fmt.Sprintf("%s-%d", slug, k)] = true
			} else {
				p.anchors[slug] = true
			}
			seen[slug]++
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// An HTML anchor (<a id="x"></a>, which GitHub keeps) is a target too.
	for _, m := range htmlAnchor.FindAllSubmatch(src, -1) {
		p.anchors[string(m[1])] = true
	}
	return p
}

// htmlAnchor matches the id of an HTML anchor in Markdown.
var htmlAnchor = regexp.MustCompile(`<a id="([^"]+)"></a>`)

// headingText is a heading's text, code spans included without their
// backticks.
func headingText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slugOf is GitHub's anchor for a heading's text: lower-cased, every
// character but letters, digits, spaces, '-' and '_' dropped, spaces made
// '-' (repeats get "-1", "-2"… in parseLinks).
func slugOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Every relative link in the documentation names a file of the repository
// and, with #anchor, a heading of that file (of the same file for a bare
// #anchor).
func TestRelativeLinksResolve(t *testing.T) {
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	cache := map[string]parsed{}
	get := func(rel string) parsed {
		if p, ok := cache[rel]; ok {
			return p
		}
		cache[rel] = parseLinks(t, rel)
		return cache[rel]
	}
	n := 0
	for _, file := range files {
		for _, l := range get(file).links {
			if strings.Contains(l.dest, "://") || strings.HasPrefix(l.dest, "mailto:") {
				continue
			}
			n++
			path, anchor, _ := strings.Cut(l.dest, "#")
			resolved := file
			if path != "" {
				resolved = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
				if _, err := os.Stat(filepath.Join(root, resolved)); err != nil {
					t.Errorf("%s:%d: link %s: no file %s", file, l.line, l.dest, resolved)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s:%d: link %s: an anchor into a file that is not Markdown", file, l.line, l.dest)
				continue
			}
			if !get(resolved).anchors[anchor] {
				t.Errorf("%s:%d: link %s: %s has no heading with the anchor #%s", file, l.line, l.dest, resolved, anchor)
			}
		}
	}
	if n == 0 {
		t.Error("no relative links found: the documentation's location changed?")
	}
}

// The README stays short; what does not fit goes to docs/.
func TestREADMEFits(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(b), "\n"); lines > maxREADMELines {
		t.Errorf("README.md has %d lines, over the limit of %d: move the detail into docs/", lines, maxREADMELines)
	}
}

// The slug rule on headings the docs link to, and a "heading" in a code
// block is none.
func TestAnchors(t *testing.T) {
	md := "# A\n## What a form's answer must be\n## Secrets: URL mode\n## In `go vet` and editors\n## Fuzzing\n```\n# not a heading\n```\n## Fuzzing\n"
	got := parseMarkdown(t, []byte(md)).anchors
	for _, want := range []string{"a", "what-a-forms-answer-must-be", "secrets-url-mode", "in-go-vet-and-editors", "fuzzing", "fuzzing-1"} {
		if !got[want] {
			t.Errorf("anchors: no %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("anchors: a line in a code block counted as a heading")
	}
}
