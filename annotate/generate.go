package annotate

import (
	"go/ast"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// GenerateType is a -type name of a //go:generate directive that runs
// mcpgen, positioned at the name within the comment.
type GenerateType struct {
	Name string
	Pos  token.Pos
}

// word is a word of a //go:generate directive, as go generate splits it,
// and the byte offset in the comment of its text (after the opening quote
// of a quoted word).
type word struct {
	s   string
	off int
}

// GenerateTypes returns the -type names of every //go:generate directive
// whose program is mcpgen (see mcpgenArgs), positioned at the name within
// the comment. A file's `//go:generate -command NAME …` aliases apply to
// its later directives, as in go generate. It is the one parser of
// mcpgen's directives: the analyzer checks the names, and the loader reads
// the tools of a package that names its structs with -type
// (Package.Tools).
func GenerateTypes(files []*ast.File) []GenerateType {
	var out []GenerateType
	for _, f := range files {
		aliases := map[string][]word{}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, "//go:generate ")
				if !ok {
					continue
				}
				words, ok := splitGenerate(text, len(c.Text)-len(text))
				if !ok || len(words) == 0 {
					continue
				}
				if words[0].s == "-command" {
					if len(words) > 2 {
						aliases[words[1].s] = words[2:]
					}
					continue
				}
				if a, ok := aliases[words[0].s]; ok {
					words = append(append([]word(nil), a...), words[1:]...)
				}
				args, ok := mcpgenArgs(words)
				if !ok {
					continue
				}
				for _, tv := range typeValues(args) {
					off := tv.off
					for _, name := range strings.Split(tv.s, ",") {
						if name != "" {
							out = append(out, GenerateType{name, c.Pos() + token.Pos(off)})
						}
						off += len(name) + 1
					}
				}
			}
		}
	}
	return out
}

// splitGenerate splits the text of a //go:generate directive (after
// "//go:generate "), which starts at byte offset base of the comment, into
// words as go generate does (cmd/go/internal/generate, Generator.split):
// words are separated by spaces and tabs, and a word starting with a double
// quote is a Go string literal, unquoted. ok is false where go generate
// fails: a quoted word that does not end, is not a valid literal, or is not
// followed by a space. Environment variables ($GOFILE, …) are not expanded.
func splitGenerate(text string, base int) (words []word, ok bool) {
	text = strings.TrimSuffix(text, "\r")
	i := 0
	for {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i == len(text) {
			return words, true
		}
		if text[i] == '"' {
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return nil, false
			}
			s, err := strconv.Unquote(text[i : j+1])
			if err != nil || (j+1 < len(text) && text[j+1] != ' ' && text[j+1] != '\t') {
				return nil, false
			}
			words = append(words, word{s, base + i + 1})
			i = j + 1
			continue
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		words = append(words, word{text[i:j], base + i})
		i = j
	}
}

// goRunValueFlags are the build flags of go run that take their value as
// the next word (go help build), so that the word after them is not the
// package run.
var goRunValueFlags = map[string]bool{
	"-C": true, "-p": true, "-covermode": true, "-coverpkg": true, "-asmflags": true,
	"-buildmode": true, "-compiler": true, "-gccgoflags": true, "-gcflags": true,
	"-installsuffix": true, "-ldflags": true, "-mod": true, "-modfile": true,
	"-overlay": true, "-pgo": true, "-pkgdir": true, "-tags": true, "-toolexec": true,
	"-exec": true,
}

// mcpgenArgs returns the arguments of a //go:generate directive's words
// after its program, when that program is mcpgen: a command named mcpgen
// (mcpgen, a path ending in /mcpgen, mcpgen.exe), `go tool mcpgen` (or the
// tool's package path), or `go run PKG` with PKG a package path ending in
// /mcpgen, with an optional @version. ok is false for any other program,
// whatever its arguments say (stringer -output=x_mcpgen.go).
func mcpgenArgs(words []word) (args []word, ok bool) {
	if len(words) >= 2 && words[0].s == "go" && (words[1].s == "run" || words[1].s == "tool") {
		run := words[1].s == "run"
		for i := 2; i < len(words); i++ {
			w := words[i].s
			if strings.HasPrefix(w, "-") {
				flag, _, hasVal := strings.Cut(strings.TrimPrefix(w, "-"), "=")
				if run && !hasVal && goRunValueFlags["-"+flag] {
					i++
				}
				continue
			}
			if run {
				w, _, _ = strings.Cut(w, "@")
			}
			return words[i+1:], isMcpgen(w)
		}
		return nil, false
	}
	if len(words) == 0 {
		return nil, false
	}
	return words[1:], isMcpgen(strings.TrimSuffix(words[0].s, ".exe"))
}

// isMcpgen reports whether a program or package path names mcpgen: its last
// element (after / or \) is mcpgen.
func isMcpgen(p string) bool {
	return path.Base(strings.ReplaceAll(p, `\`, "/")) == "mcpgen"
}

// typeValues returns the values of the -type flags (-type T, -type=T, and
// with two dashes) among mcpgen's arguments.
func typeValues(args []word) []word {
	var out []word
	for i, a := range args {
		switch {
		case a.s == "-type" || a.s == "--type":
			if i+1 < len(args) {
				out = append(out, args[i+1])
			}
		case strings.HasPrefix(a.s, "-type="), strings.HasPrefix(a.s, "--type="):
			eq := strings.IndexByte(a.s, '=') + 1
			out = append(out, word{a.s[eq:], a.off + eq})
		}
	}
	return out
}
