package docblocks

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// modulePath is this repository's module path: a package named by it (go
// get, go install) is a directory here.
const modulePath = "github.com/mcpgen/mcpgen"

// topDirs are the repository's top-level directories: a word that starts
// with one of them is a path that must exist.
func topDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".git") {
			dirs = append(dirs, e.Name()+"/")
		}
	}
	return dirs
}

// command is one simple command of a block: its words, literal where they
// are (a word with an expansion is ""), and the block it is in.
type command struct {
	words []string
	block Block
	line  int // the line in the Markdown file
}

// commands parses a sh block into its simple commands (those inside &&,
// pipes, subshells and $(…) included).
func commands(b Block) ([]command, error) {
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(b.Text), b.Pos())
	if err != nil {
		return nil, err
	}
	var out []command
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		c := command{block: b, line: b.Line + int(call.Pos().Line()) - 1}
		for _, w := range call.Args {
			c.words = append(c.words, literal(w))
		}
		out = append(out, c)
		return true
	})
	return out, nil
}

// literal returns w's value when it has no expansion (quotes removed), or "".
func literal(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

// program is a Go program a command runs: its package in this repository
// and the arguments it is given.
type program struct {
	pkg  string
	args []string
}

// programOf returns the Go program c runs, if it runs one of this
// repository's: go run ./PKG, go tool mcpgen (or mcpgen-call, mcpgen-vet),
// mcpgen, mcpgen-call, mcpgen-vet.
func programOf(c command) (program, bool) {
	w := c.words
	switch {
	case len(w) >= 3 && w[0] == "go" && w[1] == "run":
		i := 2
		for i < len(w) && strings.HasPrefix(w[i], "-") {
			i++
		}
		if i < len(w) && strings.HasPrefix(w[i], "./") && !strings.HasSuffix(w[i], ".go") {
			return program{pkg: strings.TrimPrefix(w[i], "./"), args: w[i+1:]}, true
		}
	case len(w) >= 3 && w[0] == "go" && w[1] == "tool" && repoCommands[path.Base(w[2])] != "":
		return program{pkg: repoCommands[path.Base(w[2])], args: w[3:]}, true
	case repoCommands[w[0]] != "":
		return program{pkg: repoCommands[w[0]], args: w[1:]}, true
	}
	return program{}, false
}

var flagLine = regexp.MustCompile(`(?m)^\s+-{1,2}([A-Za-z0-9][\w.-]*)`)

// repoCommands maps each command of this repository to its package's
// directory.
var repoCommands = map[string]string{"mcpgen": "cmd/mcpgen", "mcpgen-call": "mcpgen-call", "mcpgen-vet": "cmd/mcpgen-vet"}

// subcommands are mcpgen's; each has flags of its own.
var subcommands = map[string]bool{"init": true, "keygen": true, "preview": true}

// flagsOf returns the flags the program defines, read from its -h output
// (the flag package's usage: "  -name value").
func flagsOf(t *testing.T, p program, sub string) map[string]bool {
	t.Helper()
	args := []string{"-h"}
	if sub != "" {
		args = []string{sub, "-h"}
	}
	cmd := exec.Command(binary(t, p.pkg), args...)
	cmd.Dir = root
	cmd.WaitDelay = 5 * time.Second
	out, _ := cmd.CombinedOutput() // -h exits 0 or 2
	flags := map[string]bool{"h": true, "help": true}
	for _, m := range flagLine.FindAllStringSubmatch(string(out), -1) {
		flags[m[1]] = true
	}
	if len(flags) == 2 {
		t.Fatalf("%s %s printed no flags:\n%s", p.pkg, strings.Join(args, " "), out)
	}
	return flags
}

// checkCommand checks one command: the repository paths it names exist, and
// the flags it gives one of this repository's programs are that program's
// (a command after "--", as mcpgen-call runs one, is checked the same way).
func checkCommand(t *testing.T, c command, dirs []string, flags map[string]map[string]bool) {
	t.Helper()
	for _, w := range c.words {
		if p, ok := repoPath(w, dirs); ok {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s:%d: %s does not exist in this repository", c.block.File, c.line, p)
			}
		}
	}
	p, ok := programOf(c)
	if !ok {
		return
	}
	sub := ""
	if p.pkg == "cmd/mcpgen" && len(p.args) > 0 && subcommands[p.args[0]] {
		sub, p.args = p.args[0], p.args[1:]
	}
	key := p.pkg + " " + sub
	if flags[key] == nil {
		flags[key] = flagsOf(t, p, sub)
	}
	for i, a := range p.args {
		if a == "--" {
			rest := command{words: p.args[i+1:], block: c.block, line: c.line}
			if len(rest.words) > 0 {
				checkCommand(t, rest, dirs, flags)
			}
			return
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !flags[key][name] {
			t.Errorf("%s:%d: %s has no flag -%s", c.block.File, c.line, strings.TrimSpace(p.pkg+" "+sub), name)
		}
	}
}

// repoPath returns the repository-relative path a word names, if it names
// one: ./x, a top-level directory's path, or a package of this module (a
// version, a /... pattern and a :line suffix removed).
func repoPath(w string, dirs []string) (string, bool) {
	if w == "" || strings.Contains(w, "://") {
		return "", false
	}
	w, _, _ = strings.Cut(w, "@")
	w, _, _ = strings.Cut(w, "=") // go mod edit -replace OLD=NEW: OLD, a module path
	if rest, ok := strings.CutPrefix(w, modulePath+"/"); ok {
		w = rest
	} else if w == modulePath {
		return ".", true
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, "/..."), "...")
	if w, ok := strings.CutPrefix(w, "./"); ok {
		w, _, _ = strings.Cut(w, ":")
		return w, true
	}
	for _, d := range dirs {
		if strings.HasPrefix(w, d) || w+"/" == d {
			w, _, _ = strings.Cut(w, ":")
			return w, true
		}
	}
	return "", false
}

// Every shell block parses; the repository paths its commands name exist;
// the flags they give mcpgen or an example program exist. A block marked
// run is run from the repository root and must succeed.
func TestShellBlocks(t *testing.T) {
	blocks := of(all(t), "sh")
	dirs := topDirs(t)
	flags := map[string]map[string]bool{}
	n := 0
	for _, b := range blocks {
		cmds, err := commands(b)
		if err != nil {
			t.Errorf("%s: not a shell command: %v", b.Pos(), err)
			continue
		}
		for _, c := range cmds {
			checkCommand(t, c, dirs, flags)
			n++
		}
		if _, ok := b.Attrs["run"]; ok {
			if out, stderr, err := run(t, b.Text, 5*time.Minute); err != nil {
				t.Errorf("%s: the block failed: %v\n%s%s", b.Pos(), err, out, stderr)
			}
		}
	}
	t.Logf("%d commands in %d shell blocks checked", n, len(blocks))
}
