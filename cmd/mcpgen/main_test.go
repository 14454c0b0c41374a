package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/header"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// repoRoot is the module root of mcpgen, for the replace directive of the
// test modules.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// modules maps each test to the module newModule wrote for it, where
// mcpgen and commandIn work: tests run in parallel, so none
// changes the working directory (the go command's environment for every
// test is set once, by TestMain).
var modules sync.Map // *testing.T → string

// moduleOf is the module newModule wrote for t.
func moduleOf(t *testing.T) string {
	t.Helper()
	dir, ok := modules.Load(t)
	if !ok {
		t.Fatal("no module: call newModule first")
	}
	return dir.(string)
}

// newModule writes a module that uses mcpgen (through a replace directive)
// with the given files, where mcpgen and commandIn run for t, and returns its
// directory.
func newModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	root := repoRoot(t)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// mcpgen's own requirements, so that the go command never needs to
	// add any (a changed go.mod would hide a file mcpgen changed).
	reqs := string(mod[strings.Index(string(mod), "require"):])
	if i := strings.Index(reqs, "\ntool"); i >= 0 {
		reqs = reqs[:i]
	}
	all := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\n" + reqs + "\nreplace github.com/mcpgen/mcpgen => " + root + "\n",
		"go.sum": string(sum),
	}
	for k, v := range files {
		all[k] = v
	}
	for name, content := range all {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modules.Store(t, dir)
	t.Cleanup(func() { modules.Delete(t) })
	return dir
}

// testEnv is the environment of every test's go command, mcpgen's and the
// ones the tests start (TestMain sets it): go.mod may gain requirements,
// no go.work applies, packages build as this binary was built
// (racebuild.Flags), and mcpgen's memo (gen/memo) is the test binary's own
// (its slots are per directory, so tests do not share one).
func testEnv() (restore func(), err error) {
	cache, err := os.MkdirTemp("", "mcpgen-cache-")
	if err != nil {
		return nil, err
	}
	for k, v := range map[string]string{"GOFLAGS": racebuild.Flags("-mod=mod"), "GOWORK": "off", "MCPGEN_CACHE": cache} {
		os.Setenv(k, v)
	}
	return func() { os.RemoveAll(cache) }, nil
}

// inRepository is the environment of a go command run in this
// repository (its go.work, no -mod flag), undoing what TestMain sets for
// the test modules.
func inRepository() []string {
	return append(os.Environ(), "GOFLAGS="+racebuild.Flags(""), "GOWORK=")
}

// mcpgen runs the command in t's module (if newModule wrote one, else in
// the current directory).
func mcpgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	dir, _ := modules.Load(t)
	wd, _ := dir.(string)
	code, _ = execute(wd, args, &o, &e)
	return code, o.String(), e.String()
}

// commandIn is the command name with args, to run in t's module.
func commandIn(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = moduleOf(t)
	return cmd
}

const goodArgs = `package m

// Args are the arguments of a tool.
type Args struct {
	City   string ` + "`" + `json:"city"` + "`" + `
	Date   string ` + "`" + `json:"date,omitempty" elicit:"format=date"` + "`" + `
	Nights *int   ` + "`" + `json:"nights,omitempty" elicit:"optional,minimum=1,maximum=9,default=1"` + "`" + `
}
`

// fileState is a file's content and modification time.
type fileState struct {
	content string
	mtime   time.Time
}

// snapshot returns every regular file under dir (go.sum aside) with its content and mtime.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fileState{string(b), fi.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func names(m map[string]fileState) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ageFiles sets every file's mtime an hour back, so that a rewrite shows.
func ageFiles(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	for name := range snapshot(t, dir) {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
}

func requireSame(t *testing.T, before, after map[string]fileState) {
	t.Helper()
	if strings.Join(names(before), " ") != strings.Join(names(after), " ") {
		t.Fatalf("files changed:\nbefore %v\nafter  %v", names(before), names(after))
	}
	for name, b := range before {
		a := after[name]
		if a.content != b.content {
			t.Errorf("%s: content changed", name)
		}
		if !a.mtime.Equal(b.mtime) {
			t.Errorf("%s: modification time changed from %v to %v", name, b.mtime, a.mtime)
		}
	}
}

func TestGenerateThenFailedRunChangesNothing(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": goodArgs})
	code, _, stderr := mcpgen(t, "-v", "-type", "Args")
	if code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{"args_elicit.go", "args_handler.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("first run did not write %s: %v", f, err)
		}
	}
	if !strings.Contains(stderr, "mcpgen: wrote args_elicit.go") {
		t.Errorf("stderr lacks the relative path of the written file:\n%s", stderr)
	}

	// Break two tags: both are reported, sorted, and nothing is written.
	bad := strings.Replace(goodArgs, `elicit:"format=date"`, `elicit:"format=phone"`, 1)
	bad = strings.Replace(bad, `default=1"`, `default=1,minLenght=2"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "args.go"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	ageFiles(t, dir)
	before := snapshot(t, dir)
	code, stdout, stderr := mcpgen(t, "-type", "Args")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout = %q, want nothing", stdout)
	}
	want := "args.go:6:47: elicit tag on Date: format=phone is not a format of the form grammar, which knows only email, uri, date and date-time; remove it and check the value in your handler\n" +
		"args.go:7:88: elicit tag on Nights: unknown option \"minLenght\"; did you mean \"minLength\"?\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}

func TestUnchangedFilesAreNotRewrittenAndHandlerIsKept(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": goodArgs})
	if code, _, stderr := mcpgen(t, "-q"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	ageFiles(t, dir)
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-v")
	if code != 0 {
		t.Fatalf("second run: exit %d\n%s", code, stderr)
	}
	if strings.Contains(stderr, "wrote") {
		t.Errorf("second run wrote files:\n%s", stderr)
	}
	requireSame(t, before, snapshot(t, dir))

	// The handler is the user's: a changed struct regenerates the elicit
	// file but never the handler.
	handler := filepath.Join(dir, "args_handler.go")
	mine := before["args_handler.go"].content + "\n// my change\n"
	if err := os.WriteFile(handler, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(goodArgs, "maximum=9", "maximum=8", 1)
	if err := os.WriteFile(filepath.Join(dir, "args.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("third run: exit %d\n%s", code, stderr)
	}
	after := snapshot(t, dir)
	if after["args_handler.go"].content != mine {
		t.Error("the handler file was overwritten")
	}
	if after["args_elicit.go"].content == before["args_elicit.go"].content || !strings.Contains(after["args_elicit.go"].content, "8") {
		t.Error("the elicit file was not regenerated")
	}
}

func TestStaleGeneratedFileAndEarlyCallsAreTolerated(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"args.go": goodArgs,
		// A stale generated file that no longer compiles.
		"args_elicit.go": "// Code generated by mcpgen (devel); DO NOT EDIT.\n\npackage m\n\nfunc (t *Args) Gone() int { return t.Removed }\n",
		// User code calling what mcpgen has not generated yet.
		"use.go": `package m

import "context"

var flow = NewArgsFlow(argsHandler{})

func check(a *Args) error { _ = context.Background(); return a.Validate() }

var _ = check
`,
	})
	code, _, stderr := mcpgen(t, "-type", "Args")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "args_elicit.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "Gone") || !strings.Contains(string(b), "func NewArgsFlow(") {
		t.Errorf("the stale file was not replaced:\n%s", b)
	}
}

func TestPackageThatDoesNotCompile(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"args.go": goodArgs,
		"bad.go":  "package m\n\nvar n int = \"three\"\n\nvar _ = undefinedThing\n",
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-type", "Args")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, re := range []string{
		`(?m)^bad\.go:3:13: cannot use "three" \(untyped string constant\) as int value in variable declaration$`,
		`(?m)^bad\.go:5:9: undefined: undefinedThing$`,
	} {
		if !regexp.MustCompile(re).MatchString(stderr) {
			t.Errorf("stderr lacks %s:\n%s", re, stderr)
		}
	}
	requireSame(t, before, snapshot(t, dir))
}

func TestTypeFlagErrors(t *testing.T) {
	t.Parallel()
	newModule(t, map[string]string{"args.go": goodArgs + "\n// Name is not a struct.\ntype Name string\n"})
	code, _, stderr := mcpgen(t, "-type", "Args,Missing,Name")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{
		"args.go:11:6: -type Name: Name is not a struct type",
		"-type Missing: no type Missing in .; name a struct type declared there",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(moduleOf(t), "args_elicit.go")); err == nil {
		t.Error("args_elicit.go written despite diagnostics")
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	newModule(t, map[string]string{"args.go": goodArgs})
	for _, args := range [][]string{
		{"-nosuchflag"},
		{"-type", "1Bad"},
		{"-type", "a-b"},
		{"-type", "func"}, // a keyword names no type
		{"keygen", "extra"},
	} {
		code, _, stderr := mcpgen(t, args...)
		if code != 2 {
			t.Errorf("mcpgen %v: exit %d, want 2\n%s", args, code, stderr)
		}
		if stderr == "" {
			t.Errorf("mcpgen %v: no message", args)
		}
	}
	if _, err := os.Stat(filepath.Join(moduleOf(t), "args_elicit.go")); err == nil {
		t.Error("a usage error wrote files")
	}
	// A removed flag says what replaces it.
	for _, flag := range []string{"-legacy-enum-names", "--legacy-enum-names=true"} {
		code, _, stderr := mcpgen(t, "-type", "Args", flag, ".")
		if code != 2 || !strings.Contains(stderr, "-legacy-enum-names was removed") || !strings.Contains(stderr, "//mcpgen:enumnames") {
			t.Errorf("mcpgen %s: exit %d, stderr:\n%s\nwant exit 2 naming //mcpgen:enumnames", flag, code, stderr)
		}
	}
}

// TestVersionIsTheHeaders: -version prints the version generated headers
// name.
func TestVersionIsTheHeaders(t *testing.T) {
	t.Parallel()
	code, stdout, _ := mcpgen(t, "-version")
	if want := "mcpgen " + gen.Version() + "\n"; code != 0 || stdout != want {
		t.Errorf("-version: exit %d, %q; want %q", code, stdout, want)
	}
	if !strings.HasPrefix(gen.Header(), header.Prefix+" "+gen.Version()+";") {
		t.Errorf("the header %q does not name %s", gen.Header(), gen.Version())
	}
}

func TestDiagnosticsAcrossPackagesAreRelativeAndSorted(t *testing.T) {
	t.Parallel()
	bad := `package sub

type B struct {
	Z string ` + "`" + `json:"z" elicit:"maxLength=x"` + "`" + `
	A bool   ` + "`" + `json:"a" elicit:"required"` + "`" + `
}
`
	dir := newModule(t, map[string]string{
		"args.go":     goodArgs,
		"sub/b.go":    bad,
		"sub/a.go":    "package sub\n\n// A is fine.\ntype A struct {\n\tX *int `json:\"x\" elicit:\"minimum=abc\"`\n}\n",
		"other/ok.go": "package other\n",
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	want := "sub/a.go:5:27: elicit tag on X: minimum=abc is not a number; write a finite decimal number, e.g. minimum=1 or minimum=0.5\n" +
		"sub/b.go:4:29: elicit tag on Z: maxLength=x is not a whole number ≥ 0; write a length in characters, e.g. maxLength=100\n" +
		"sub/b.go:5:2: A is a required bool, but false is a real answer and would read as missing: declare it as *bool (nil means missing), or mark it optional\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}

// tagged returns a tagged struct type T with a //go:generate line of its own.
func tagged(name string) string {
	return "package m\n\n//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type " + name + "\n\n// " + name + " are the arguments of a tool.\ntype " + name + " struct {\n\tCity string `json:\"city\" elicit:\"required\"`\n}\n"
}

// goBuild builds the package in the working directory, as the user would.
func goBuild(t *testing.T) {
	t.Helper()
	if out, err := commandIn(t, "go", "build", "./...").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

func TestOneDirectivePerTypeRegenerates(t *testing.T) {
	t.Parallel()
	newModule(t, map[string]string{
		"a.go": tagged("A"),
		"b.go": tagged("B"),
		// No elicit tag: generated only because -type names it.
		"p.go": "package m\n\n// P has no tags.\ntype P struct {\n\tName string `json:\"name\"`\n}\n",
		// User code calling B's generated code.
		"use.go": "package m\n\nvar _ = NewBFlow(bHandler{})\n",
	})
	// The first runs (as go generate runs them: one per directive), then
	// every run again: each type-checks the others' handler files.
	for round := 1; round <= 2; round++ {
		for _, typ := range []string{"A", "B", "P"} {
			if code, _, stderr := mcpgen(t, "-type", typ); code != 0 {
				t.Fatalf("round %d, -type %s: exit %d\n%s", round, typ, code, stderr)
			}
		}
	}
	// A run without -type tolerates P's output although P has no tag.
	code, _, stderr := mcpgen(t)
	if code != 0 {
		t.Fatalf("untyped run: exit %d\n%s", code, stderr)
	}
	if strings.Contains(stderr, "p_elicit.go") {
		t.Errorf("untyped run touched P's output:\n%s", stderr)
	}
	goBuild(t)

	// A typo'd -type says only that.
	code, _, stderr = mcpgen(t, "-type", "Nope")
	if want := "-type Nope: no type Nope in .; name a struct type declared there\n"; code != 1 || stderr != want {
		t.Errorf("-type Nope: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
}

func TestTypoTypeBeforeFirstGeneration(t *testing.T) {
	t.Parallel()
	newModule(t, map[string]string{
		"q.go":   tagged("Q"),
		"use.go": "package m\n\nvar _ = NewQFlow(nil)\n",
	})
	code, _, stderr := mcpgen(t, "-type", "Nope")
	if want := "-type Nope: no type Nope in .; name a struct type declared there\n"; code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
}

func TestMovedHandlerFileIsNotWrittenAgain(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": goodArgs})
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if err := os.Rename(filepath.Join(dir, "args_handler.go"), filepath.Join(dir, "myhandler.go")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := mcpgen(t)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "args_handler.go")); err == nil {
		t.Fatalf("a new args_handler.go was written beside myhandler.go:\n%s", stderr)
	}
	goBuild(t)
}

func TestStaleElicitFileOfRenamedTypeIsRemoved(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"deploy.go": tagged("DeployArgs")})
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// The user renames the struct and follows it in the handler file.
	for _, f := range []string{"deploy.go", "deployargs_handler.go"} {
		p := filepath.Join(dir, f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.ReplaceAll(b, []byte("DeployArgs"), []byte("ReleaseArgs"))
		b = bytes.ReplaceAll(b, []byte("deployArgs"), []byte("releaseArgs"))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A file of the user's with methods on the old type too: not mcpgen's, kept.
	mine := "package m\n\nfunc (DeployArgs) Old() {}\n"

	// With a diagnostic, nothing is removed.
	bad := strings.Replace(tagged("ReleaseArgs"), `elicit:"required"`, `elicit:"requird"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "deploy.go"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	if code, _, stderr := mcpgen(t); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	requireSame(t, before, snapshot(t, dir))

	if err := os.WriteFile(filepath.Join(dir, "deploy.go"), []byte(tagged("ReleaseArgs")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := mcpgen(t, "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "mcpgen: removed stale deployargs_elicit.go (type DeployArgs no longer exists)\n") {
		t.Errorf("stderr lacks the removal:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "deployargs_elicit.go")); err == nil {
		t.Error("deployargs_elicit.go is still there")
	}
	if _, err := os.Stat(filepath.Join(dir, "deployargs_handler.go")); err != nil {
		t.Error("the user's handler file was removed")
	}
	if _, err := os.Stat(filepath.Join(dir, "releaseargs_handler.go")); err == nil {
		t.Error("a second handler was written beside the user's renamed one")
	}
	goBuild(t)

	// mcpgen's header is what makes a file its own: a user's file with
	// methods on a type that is gone stays (and is reported by the compiler).
	if err := os.WriteFile(filepath.Join(dir, "old.go"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = mcpgen(t)
	if code != 1 || !strings.Contains(stderr, "old.go:3:7: undefined: DeployArgs") {
		t.Errorf("exit %d, want 1 and old.go's error:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.go")); err != nil {
		t.Error("the user's old.go was removed")
	}
}

func TestSyntaxErrorsOncePositioned(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		line string // regexp of the diagnostic's line
		args []string
	}{
		{"package m\n\nfunc broken( {\n}\n", "3", []string{"-type", "Args"}},
		{"package m\n\nfunc (\n", `\d+`, nil},
		{"package m\n\nfunc (\n\nvar x = 1\n", `\d+`, nil},
		{"package m func (\n", `\d+`, nil},
		{"package m\nfunc (x", `\d+`, nil},
	} {
		dir := newModule(t, map[string]string{"args.go": goodArgs, "bad.go": tc.src})
		before := snapshot(t, dir)
		code, _, stderr := mcpgen(t, tc.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 1 || len(lines) != 1 || !regexp.MustCompile(`^bad\.go:`+tc.line+`:\d+: .+`).MatchString(lines[0]) {
			t.Errorf("%q %v: exit %d, want 1 and one positioned diagnostic in bad.go, got:\n%s", tc.src, tc.args, code, stderr)
		}
		requireSame(t, before, snapshot(t, dir))
	}
}

// A file produced from another source (a //line comment names it, as
// goyacc's and the docs' tests' files do) gets its generated files beside
// itself, not beside the source it names; diagnostics still name that source.
func TestLineDirectivesDoNotMoveOutput(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"p/args.go": strings.Replace(goodArgs, "package m\n", "//line ../elsewhere/args.tmpl:1\npackage m\n", 1),
	})
	code, _, stderr := mcpgen(t, "./p")
	require.Equal(t, 0, code, stderr)
	assert.FileExists(t, filepath.Join(dir, "p", "args_elicit.go"))
	assert.FileExists(t, filepath.Join(dir, "p", "args_handler.go"))
	assert.NoDirExists(t, filepath.Join(dir, "elsewhere"))
	assert.NoFileExists(t, filepath.Join(dir, "args_elicit.go"))
	goBuild(t)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "p", "bad.go"),
		[]byte("//line ../elsewhere/bad.tmpl:7\npackage m\n\ntype Bad struct {\n\tX string `json:\"x\" elicit:\"minimum=x\"`\n}\n"), 0o644))
	code, _, stderr = mcpgen(t, "./p")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "bad.tmpl:", "a diagnostic names the source the //line comment gives")
}

// Two structs declaring one tool name is an error even when a -type
// directive names only one of them (each file has its own go:generate line).
func TestSecondToolOfOneNameIsRefusedUnderType(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"a.go": "package m\n\n//mcpgen:tool ping Answers.\ntype A struct {\n\tX string `json:\"x\" elicit:\"optional\"`\n}\n",
		"b.go": "package m\n\n//mcpgen:tool ping Answers too.\ntype B struct {\n\tX string `json:\"x\" elicit:\"optional\"`\n}\n",
	})
	code, _, stderr := mcpgen(t, "-type", "B")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "b.go:4:6: B declares the tool ping, which another struct of this package declares first")
	assert.NoFileExists(t, filepath.Join(dir, "b_elicit.go"))
}

// A generated file with a comment above its header (a licence line) is
// still mcpgen's, as Go's convention has it: it is regenerated, not refused
// as someone else's code nor read as colliding declarations.
func TestLicenceAboveTheHeaderIsStillGenerated(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": goodArgs})
	code, _, stderr := mcpgen(t)
	require.Equal(t, 0, code, stderr)
	file := filepath.Join(dir, "args_elicit.go")
	gen, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, append([]byte("// Copyright 2026 Acme Inc.\n\n"), gen...), 0o644))

	code, _, stderr = mcpgen(t)
	require.Equal(t, 0, code, stderr)
	again, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(gen), string(again), "regenerated as mcpgen writes it")
	goBuild(t)
}

// A misspelt subcommand or a URL as the first argument is a usage error that
// says what was meant, not the package loader's "package int is not in std";
// a package directory of that name, a path, the go command's patterns and
// the main module's path are left to the loader.
func TestMisspeltCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.Mkdir("cal", 0o755))
	var stderr strings.Builder
	for arg, want := range map[string]string{
		"int":           `mcpgen: unknown command "int": did you mean mcpgen init?`,
		"kegen":         `mcpgen: unknown command "kegen": did you mean mcpgen keygen?`,
		"https://x/mcp": "mcpgen: https://x/mcp is a URL: to call its tools, run go tool mcpgen-call https://x/mcp",
		"call":          "mcpgen: call is a command of its own: run go tool mcpgen-call (go get -tool github.com/mcpgen/mcpgen/mcpgen-call)\n",
	} {
		stderr.Reset()
		assert.Equal(t, 2, run([]string{arg}, io.Discard, &stderr), arg)
		assert.Contains(t, stderr.String(), want)
	}
	require.NoError(t, os.WriteFile("go.mod", []byte("module calc\n\ngo 1.26\n"), 0o644))
	for _, arg := range []string{"cal", "./int", "all", "calc", "calc/sub"} {
		stderr.Reset()
		run([]string{arg}, io.Discard, &stderr)
		assert.NotContains(t, stderr.String(), "unknown command", arg)
	}
}
