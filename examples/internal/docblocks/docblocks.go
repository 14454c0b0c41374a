// Package docblocks reads the fenced code blocks of the project's Markdown
// documentation (README.md, docs/, examples' READMEs) so that its tests can
// compile, check or run every one of them: a snippet that no longer builds, a
// flag that was renamed, a path that moved or an output that changed fails
// the tests instead of misleading a reader.
//
// A block's info string (CommonMark 0.31, "Fenced code blocks") says what is
// done with it: its first word is the language, and words of the form
// key=value or key="a value" that follow are attributes.
//
//   - go: compiled (go vet) in a package of its own. A block that starts
//     with a package clause is a whole file; any other is declarations, or,
//     when it does not parse as declarations, statements (placed in a
//     function; the variables they declare count as used). The packages
//     such a fragment names are imported by name: this module's
//     (runtime, mcpsdk, …), the SDKs' (mcp, auth) and the standard library.
//     Blocks of one Markdown file with the same pkg=NAME attribute are one
//     package, in order. A package holding an elicit tag or a //mcpgen:
//     directive is run through mcpgen first and compiles with what it
//     generates. Errors name the Markdown file and line.
//   - sh: every command is parsed (mvdan.cc/sh); the paths it names in this
//     repository exist, and the flags it gives mcpgen or an example program
//     are ones that program defines (read from its -h). With the attribute
//     run, the block is also run from the repository root and must exit 0.
//   - json: must be valid JSON. jsonc (JSON with comments or elisions) is
//     not checked.
//   - text with run="COMMAND": COMMAND (a shell command, from the
//     repository root) is run, and every non-blank line of the block must
//     match a line of its standard output, in order (other output lines may
//     come between); "…" in a block line matches any text.
//
// Other languages (text without run, html, …) are shown as they are.
package docblocks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"mvdan.cc/sh/v3/shell"
)

// Block is one fenced code block.
type Block struct {
	File  string            // the Markdown file, relative to the root it was read from
	Line  int               // the 1-based line of the block's first content line
	Lang  string            // the first word of the info string ("go", "sh", …); "" when none
	Attrs map[string]string // the key=value words after it; a bare word maps to ""
	Text  string            // the block's content, each line ending in "\n"
}

// Pos is the block's position, "FILE:LINE", for messages.
func (b Block) Pos() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// Files returns the Markdown files whose blocks are checked, relative to
// root: README.md, every .md file under docs/, and the README.md of each
// directory under examples/ (node_modules excluded), sorted.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	for _, dir := range []string{"docs", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".md") || (dir == "examples" && d.Name() != "README.md") {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
			return err
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	return files, nil
}

// Read returns the fenced code blocks of the Markdown file rel under root,
// in order. Indented code blocks are not returned (the documentation uses
// fences only). It fails when the file cannot be read or an info string is
// malformed (an unterminated quote), naming the file and line.
func Read(root, rel string) ([]Block, error) {
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var blocks []Block
	var bad error
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		b := Block{File: rel, Attrs: map[string]string{}}
		lines := fb.Lines()
		var body bytes.Buffer
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			body.Write(seg.Value(src))
		}
		b.Text = body.String()
		switch {
		case lines.Len() > 0:
			b.Line = bytes.Count(src[:lines.At(0).Start], []byte("\n")) + 1
		case fb.Info != nil:
			b.Line = bytes.Count(src[:fb.Info.Segment.Start], []byte("\n")) + 2
		}
		if fb.Info != nil {
			// Quoted as a shell word is: key="a value".
			words, err := shell.Fields(string(fb.Info.Segment.Value(src)), func(string) string { return "" })
			if err != nil && bad == nil {
				bad = fmt.Errorf("%s:%d: info string: %w", rel, b.Line-1, err)
			}
			for i, w := range words {
				if i == 0 {
					b.Lang = w
					continue
				}
				k, v, _ := strings.Cut(w, "=")
				b.Attrs[k] = v
			}
		}
		blocks = append(blocks, b)
		return ast.WalkSkipChildren, nil
	})
	if err == nil {
		err = bad
	}
	return blocks, err
}
