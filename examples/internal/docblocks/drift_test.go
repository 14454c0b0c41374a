package docblocks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// doc is one documentation file's text.
type doc struct {
	file string
	text string
}

func docs(t *testing.T) []doc {
	t.Helper()
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []doc
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, doc{f, string(b)})
	}
	return out
}

// lineOf returns the 1-based line of offset i in text.
func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// each calls f for every match of re in the documentation, with the
// position "FILE:LINE" and the submatches.
func each(t *testing.T, re *regexp.Regexp, f func(pos string, m []string)) int {
	n := 0
	for _, d := range docs(t) {
		for _, loc := range re.FindAllStringSubmatchIndex(d.text, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = d.text[loc[2*i]:loc[2*i+1]]
				}
			}
			f(fmt.Sprintf("%s:%d", d.file, lineOf(d.text, loc[0])), m)
			n++
		}
	}
	return n
}

// The guard lines a generated file starts with are quoted for the impl
// version generated files are written for, wherever a version is quoted.
func TestDocsQuoteTheImplVersion(t *testing.T) {
	want := fmt.Sprint(gen.ImplVersion)
	n := each(t, regexp.MustCompile(`impl(?:/impl)? version (\d+)|EnforceVersion\(impl\.MaxVersion - (\d+)\)|EnforceVersion\((\d+) - impl\.MinVersion\)`), func(pos string, m []string) {
		if got := m[1] + m[2] + m[3]; got != want {
			t.Errorf("%s: quotes impl version %s; generated files are written for %s (gen.ImplVersion)", pos, got, want)
		}
	})
	if n < 3 {
		t.Errorf("the documentation quotes the generated guard lines %d times; want the three lines a generated file starts with", n)
	}
}

// Module versions quoted in the documentation are go.mod's: "PATH vX.Y.Z",
// "PATH@vX.Y.Z", and the SDKs by their short names (go-sdk, mcp-go). The Go
// the README asks for is go.mod's go line.
func TestDocsQuoteGoModVersions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]string{}
	for _, r := range mf.Require {
		versions[r.Mod.Path] = r.Mod.Version
	}
	short := map[string]string{
		"go-sdk": "github.com/modelcontextprotocol/go-sdk",
		"mcp-go": "github.com/mark3labs/mcp-go",
	}
	for name, path := range short {
		if versions[path] == "" {
			t.Fatalf("go.mod requires no %s", path)
		}
		versions[name] = versions[path]
	}
	each(t, regexp.MustCompile(`([\w./-]+)[ @](v\d+\.\d+\.\d+[\w.+-]*)`), func(pos string, m []string) {
		want, ok := versions[m[1]]
		if !ok {
			want, ok = versions[strings.TrimSuffix(m[1], "/...")]
		}
		if ok && m[2] != want {
			t.Errorf("%s: quotes %s %s; go.mod has %s", pos, m[1], m[2], want)
		}
	})
	goLine := mf.Go.Version
	if i := strings.Index(goLine[strings.Index(goLine, ".")+1:], "."); i >= 0 {
		goLine = goLine[:strings.Index(goLine, ".")+1+i]
	}
	n := each(t, regexp.MustCompile(`machine with Go (1\.\d+)`), func(pos string, m []string) {
		if m[1] != goLine {
			t.Errorf("%s: asks for Go %s; go.mod's go line is %s", pos, m[1], mf.Go.Version)
		}
	})
	if n == 0 {
		t.Error("the README no longer says which Go it needs (\"a machine with Go 1.N\")")
	}
}

// Every MCP version the documentation names is one the runtime serves.
func TestDocsNameServedProtocolVersions(t *testing.T) {
	served := map[string]bool{protocol.VersionMRTR: true, protocol.Version20251125: true, protocol.Version20250618: true}
	each(t, regexp.MustCompile(`MCP (\d{4}-\d{2}-\d{2})`), func(pos string, m []string) {
		if !served[m[1]] {
			t.Errorf("%s: names MCP %s, which runtime/protocol does not serve", pos, m[1])
		}
	})
}

// The TypeScript client's version the documentation quotes is the one its
// test scripts install (readonly VERSION=… in each tsclient/run).
func TestDocsQuoteTheTypeScriptClientVersion(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(root, "*", "*", "tsclient", "run"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no tsclient/run scripts found: %v", err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "*", "tsclient", "run"))
	scripts = append(scripts, more...)
	pin := regexp.MustCompile(`(?m)^readonly VERSION=(\S+)$`)
	want := ""
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		m := pin.FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s pins no VERSION", s)
		}
		if want != "" && string(m[1]) != want {
			t.Fatalf("%s installs %s, another script %s", s, m[1], want)
		}
		want = string(m[1])
	}
	each(t, regexp.MustCompile(`(?:@modelcontextprotocol/(?:client|server|core)|TypeScript (?:client|server|SDK)) v?(\d+\.\d+\.\d+)`), func(pos string, m []string) {
		if m[1] != want {
			t.Errorf("%s: quotes the TypeScript SDK %s; the tests install %s", pos, m[1], want)
		}
	})
}
