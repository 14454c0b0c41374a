package main

import (
	"testing"
)

// TestGeneratedNamesCollide: two generated identifiers with one name are a
// diagnostic at the later one's field, naming both, with the other's field
// as its related site; nothing is written.
func TestGeneratedNamesCollide(t *testing.T) {
	dir := newModule(t, map[string]string{"args.go": "package m\n\n" +
		"// Inner is embedded.\ntype Inner struct {\n\tDate string `json:\"date,omitempty\" elicit:\"optional,format=date\"`\n}\n\n" +
		"// Args collides twice.\ntype Args struct {\n\tInner\n" +
		"\tInner_Date  string  `json:\"inner_date,omitempty\" elicit:\"optional,format=date\"`\n" +
		"\tPrice       float32 `json:\"price,omitempty\" elicit:\"optional,minimum=1\"`\n" +
		"\tPriceStored string  `json:\"price_stored,omitempty\" elicit:\"optional,maxLength=3\"`\n}\n"})
	before := snapshot(t, dir)
	code, _, stderr := mcpgen(t, "-type", "Args")
	want := "args.go:11:2: generated function argsCheckInner_Date (for field Inner_Date of Args) collides with generated function argsCheckInner_Date (for field Inner.Date of Args)\n" +
		"\targs.go:5:2: the other declaration: generated function argsCheckInner_Date (for field Inner.Date of Args)\n" +
		"args.go:13:2: generated function argsCheckPriceStored (for field PriceStored of Args) collides with generated function argsCheckPriceStored (for field Price of Args)\n" +
		"\targs.go:12:2: the other declaration: generated function argsCheckPriceStored (for field Price of Args)\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	requireSame(t, before, snapshot(t, dir))
}

// TestUserNamesCollide: a declaration of the user's named like a generated
// identifier is a diagnostic at that declaration, with the struct or field
// the generated one is for as its related site; nothing is written.
func TestUserNamesCollide(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package m\n\nfunc argsCheckDate(string) bool { return true }\n",
			"mine.go:3:6: func argsCheckDate collides with generated function argsCheckDate (for field Date of Args) in args_elicit.go; rename yours\n\targs.go:6:2: the other declaration: generated function argsCheckDate (for field Date of Args)\n"},
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
