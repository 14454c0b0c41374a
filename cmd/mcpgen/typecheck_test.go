package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedCodeMustCompile: the package is type-checked with the new
// files before any is written. A package-level name of the user's that
// shadows a predeclared identifier the generated code calls (which no
// identifier check can know) makes the generated code fail to compile: each
// type error is a diagnostic saying so, and nothing is written.
func TestGeneratedCodeMustCompile(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"args.go": goodArgs,
		"mine.go": "package m\n\n// append is mine.\nvar append = 1\n",
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-type", "Args")
	want := "generated code does not compile: invalid operation: cannot call append (variable of type int)"
	if code != 1 || !strings.HasPrefix(stderr, "args_elicit.go:") || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s…", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}

// TestImportNamesTaken: a package-level name of the user's package equal to
// the name of an import of the generated file or of the handler file
// (json in the jsoniter idiom, time, context, jsonschema, …) does not block
// generation: that import is aliased, and the package builds.
func TestImportNamesTaken(t *testing.T) {
	t.Parallel()
	args := strings.Replace(goodArgs, "}\n", "\tAt     time.Time `json:\"at,omitempty\" elicit:\"optional\"`\n"+
		"\tRatio  float32   `json:\"ratio,omitempty\" elicit:\"optional,minimum=0.5\"`\n"+
		"\tTags   []string  `json:\"tags,omitempty\" elicit:\"optional,enum=a|b\"`\n}\n", 1)
	args = strings.Replace(args, "package m\n", "package m\n\nimport stdtime \"time\"\n", 1)
	args = strings.ReplaceAll(args, "time.Time", "stdtime.Time")
	var mine strings.Builder
	mine.WriteString("package m\n\nimport stdjson \"encoding/json\"\n\n// json is the codec this package uses (the jsoniter idiom).\n" +
		"var json = struct{ Marshal func(any) ([]byte, error) }{stdjson.Marshal}\n\n")
	for _, name := range []string{"time", "math", "slices", "strings", "context", "runtime", "impl", "jsonschema"} {
		mine.WriteString("// " + name + " is mine.\nvar " + name + " = 1\n\n")
	}
	dir := newModule(t, map[string]string{"args.go": args, "mine.go": mine.String()})
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	goBuild(t)
	src, err := os.ReadFile(filepath.Join(dir, "args_elicit.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range []string{"jsonschema1 \"github.com/invopop/jsonschema\"", "impl1 \"github.com/mcpgen/mcpgen/runtime/impl\""} {
		if !strings.Contains(string(src), imp) {
			t.Errorf("args_elicit.go does not import %s:\n%s", imp, src)
		}
	}
}

// TestUserTypeErrorsAreReported: mcpgen reads its own output as empty to
// build the model, then type-checks the package with the files built from
// it. A call to what it has not generated yet is then no error; every other
// type error is the user's and is reported as the compiler words it (also
// a field's type that does not resolve: not as a type a form cannot hold),
// and nothing is written. Once the package is current, a new type error is
// still reported (it is type-checked with the files on disk).
func TestUserTypeErrorsAreReported(t *testing.T) {
	t.Parallel()
	args := strings.Replace(goodArgs, "}\n", "\tZone   Unknown `json:\"zone,omitempty\" elicit:\"optional\"`\n}\n", 1)
	dir := newModule(t, map[string]string{
		"args.go": args,
		"use.go": "package m\n\nvar flow = NewArgsFlow(argsHandler{})\n\nfunc check(a *Args) error { return a.Validate() }\n\n" +
			"var _ = check\n\nvar n int = \"three\"\n",
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t)
	want := "args.go:8:9: undefined: Unknown\n" +
		"use.go:9:13: cannot use \"three\" (untyped string constant) as int value in variable declaration\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))

	replaceIn(t, dir, "args.go", "Unknown", "string")
	replaceIn(t, dir, "use.go", "var n int = \"three\"", "var n = \"three\"")
	if code, _, stderr := mcpgen(t); code != 0 {
		t.Fatalf("after the fixes: exit %d\n%s", code, stderr)
	}
	goBuild(t)
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package m\n\nvar _ int = n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, res := execute(moduleOf(t), nil, io.Discard, io.Discard)
	if code != 1 || len(res.Diagnostics) != 1 || res.Diagnostics[0].Format(dir) != "bad.go:3:13: cannot use n (variable of type string) as int value in variable declaration" {
		t.Errorf("a current package with a new type error: exit %d, diagnostics %v", code, res.Diagnostics)
	}
}

// TestFieldOfAGeneratedType: a field whose type only mcpgen's output
// declares cannot be in a model built before that output: reported at the
// field once the package compiles with the output, not as a type error.
func TestFieldOfAGeneratedType(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"args.go": strings.Replace(goodArgs, "}\n", "\tNext   ArgsHandler `json:\"next,omitempty\"`\n}\n", 1),
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t)
	if want := "args.go:8:2: the type of Next names something only mcpgen's output declares"; code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s…", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}

// TestOtherDirectivesStructsBeforeTheirRun: with one directive per type,
// user code may call what the package's other directive generates before
// it has run; the first directive's run type-checks with that output too
// (built in memory, not written).
func TestOtherDirectivesStructsBeforeTheirRun(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"a.go":   tagged("A"),
		"b.go":   strings.Replace(tagged("B"), "package m\n", "package m\n\nvar _ = NewAFlow\n", 1),
		"use.go": "package m\n\nvar _ = NewBFlow\n",
	})
	if code, _, stderr := mcpgen(t, "-type", "A"); code != 0 {
		t.Fatalf("-type A: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "b_elicit.go")); err == nil {
		t.Error("-type A wrote b_elicit.go")
	}
	if code, _, stderr := mcpgen(t, "-type", "B"); code != 0 {
		t.Fatalf("-type B: exit %d\n%s", code, stderr)
	}
	goBuild(t)
}

// TestOtherDirectivesProblemsExplainItsErrors: with -type AArgs, a call
// into what BArgs's own directive generates cannot compile while BArgs has
// a tag problem (its output cannot be built for the type check); the run
// reports that problem beside the type errors it causes, instead of
// "undefined" alone, and writes nothing.
func TestOtherDirectivesProblemsExplainItsErrors(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"a.go": "package m\n\n//mcpgen:tool a_tool Does a.\ntype AArgs struct {\n\tDate string `json:\"date,omitempty\" elicit:\"format=date\"`\n}\n",
		"b.go": "package m\n\n//mcpgen:tool b_tool Does b.\ntype BArgs struct {\n\tDate string `json:\"date,omitempty\" elicit:\"requird,format=date\"`\n}\n\nvar _ = NewBArgsFlow(bArgsHandler{})\n",
	})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-type", "AArgs")
	if code != 1 || !strings.Contains(stderr, "b.go:8:9: undefined: NewBArgsFlow") || !strings.Contains(stderr, `b.go:5:`) || !strings.Contains(stderr, "requird") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, the undefined NewBArgsFlow and BArgs's tag problem (requird)", code, stderr)
	}
	requireSame(t, before, snapshot(t, dir))
}
