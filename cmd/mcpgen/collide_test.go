package main

import (
	"testing"
)

// TestGeneratedNamesCollide: two generated identifiers with one name are a
// diagnostic at the later one's field, naming both, with the other's field
// as its related site; nothing is written. A check function and a float32's
// stored-value check no longer share a spelling (_Args_check_PriceStored,
// _Args_checkStored_Price).
func TestGeneratedNamesCollide(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{"args.go": "package m\n\n" +
		"// Inner is embedded.\ntype Inner struct {\n\tDate string `json:\"date,omitempty\" elicit:\"optional,format=date\"`\n}\n\n" +
		"// Args collides once.\ntype Args struct {\n\tInner\n" +
		"\tInner_Date  string  `json:\"inner_date,omitempty\" elicit:\"optional,format=date\"`\n" +
		"\tPrice       float32 `json:\"price,omitempty\" elicit:\"optional,minimum=1\"`\n" +
		"\tPriceStored string  `json:\"price_stored,omitempty\" elicit:\"optional,maxLength=3\"`\n}\n"})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-type", "Args")
	want := "args.go:11:2: generated function _Args_check_Inner_Date (for field Inner_Date of Args) collides with generated function _Args_check_Inner_Date (for field Inner.Date of Args)\n" +
		"\targs.go:5:2: the other declaration: generated function _Args_check_Inner_Date (for field Inner.Date of Args)\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}

// TestUserNamesCollide: a declaration of the user's named like a generated
// identifier the user calls or implements (the flow constructor, the
// handler interface, the methods the runtime requires, a field named like
// one) is a diagnostic at that declaration; nothing is written.
func TestUserNamesCollide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"package m\n\nfunc NewArgsFlow() {}\n",
			"mine.go:3:6: func NewArgsFlow collides with generated function NewArgsFlow (for Args) in args_elicit.go; rename yours\n\targs.go:4:6: the other declaration: generated function NewArgsFlow (for Args)\n"},
		{"package m\n\nfunc (a *Args) MissingFields() []string { return nil }\n",
			"mine.go:3:16: method Args.MissingFields collides with generated method Args.MissingFields (for Args) in args_elicit.go; rename yours\n\targs.go:4:6: the other declaration: generated method Args.MissingFields (for Args)\n"},
		{"package m\n\n// ArgsHandler is mine.\ntype ArgsHandler int\n",
			"mine.go:4:6: type ArgsHandler collides with generated interface ArgsHandler (for Args) in args_elicit.go; rename yours\n\targs.go:4:6: the other declaration: generated interface ArgsHandler (for Args)\n"},
	} {
		dir := newModule(t, map[string]string{"args.go": goodArgs, "mine.go": tc.src})
		before := snapshot(t, dir)
		code, _, stderr := mcpgen(t, "-type", "Args")
		if code != 1 || stderr != tc.want {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", tc.src, code, stderr, tc.want)
		}
		requireSame(t, before, snapshot(t, dir))
	}
}

// TestHelperNamesCannotCollide: the helpers only generated code calls are
// spelled _T_name, so a package may declare what mcpgen once called them
// (argsCheckDate, applyContent, decodeArguments) and generate cleanly; the
// output type-checks with them (mcpgen checks it before writing).
func TestHelperNamesCannotCollide(t *testing.T) {
	t.Parallel()
	newModule(t, map[string]string{"args.go": goodArgs, "mine.go": "package m\n\n" +
		"func argsCheckDate(string) bool { return true }\n\n" +
		"func (a *Args) applyContent(map[string]any, bool) error { return nil }\n\n" +
		"func (a *Args) decodeArguments([]byte) error { return nil }\n\n" +
		"var _, _ = (*Args).applyContent, (*Args).decodeArguments\nvar _ = argsCheckDate\n"})
	if code, _, stderr := mcpgen(t, "-type", "Args"); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
}
