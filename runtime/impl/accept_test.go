package impl

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRuneBounds holds MoreRunesThan and FewerRunesThan to counting every
// code point, around the byte lengths where their shortcuts switch on or off.
func TestRuneBounds(t *testing.T) {
	pieces := []string{"", "a", "é", "€", "😀", "\xff", "\xe2\x82", "a😀", "😀😀", "\xf0\x9f\x98"}
	var inputs []string
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				inputs = append(inputs, a+b+c, strings.Repeat(a+b+c, 3))
			}
		}
	}
	for _, s := range inputs {
		runes := utf8.RuneCountInString(s)
		for n := 0; n <= 12; n++ {
			if got, want := MoreRunesThan(s, n), runes > n; got != want {
				t.Errorf("MoreRunesThan(%q, %d) = %v, want %v", s, n, got, want)
			}
			if got, want := FewerRunesThan(s, n), runes < n; got != want {
				t.Errorf("FewerRunesThan(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
}

// TestRuneBoundsLarge holds both to their verdicts for counts near the
// largest int that annotate allows (math.MaxInt32), where 4*n overflows a
// 32-bit int.
func TestRuneBoundsLarge(t *testing.T) {
	for _, s := range []string{"", "abc", strings.Repeat("😀", 100)} {
		runes := utf8.RuneCountInString(s)
		for _, n := range []int{1 << 29, 1<<29 + 1, 1 << 30, math.MaxInt32 - 1, math.MaxInt32} {
			if got := FewerRunesThan(s, n); !got {
				t.Errorf("FewerRunesThan(%d runes, %d) = false, want true", runes, n)
			}
			if got := MoreRunesThan(s, n); got {
				t.Errorf("MoreRunesThan(%d runes, %d) = true, want false", runes, n)
			}
		}
	}
}

func TestAppendStrings(t *testing.T) {
	content := map[string]any{"a": []any{"x", "y"}, "b": []string{"z"}, "c": []any{"w", 1}}
	var buf []string
	a, ok := AppendStrings(&buf, content["a"], content, "b", "c")
	if !ok || len(a) != 2 || a[0] != "x" || a[1] != "y" || cap(a) != 2 {
		t.Fatalf("a = %q (cap %d), %v", a, cap(a), ok)
	}
	if cap(buf) != 5 {
		t.Errorf("the backing array holds %d items, want room for a, b and c (5)", cap(buf))
	}
	b, ok := AppendStrings(&buf, content["b"], content, "c")
	if !ok || len(b) != 1 || b[0] != "z" || cap(b) != 1 {
		t.Fatalf("b = %q (cap %d), %v", b, cap(b), ok)
	}
	if &a[0] != &buf[0] || &b[0] != &buf[2] {
		t.Error("a and b do not share the backing array")
	}
	if a = append(a, "more"); b[0] != "z" || a[2] != "more" {
		t.Error("appending to a wrote over b")
	}
	if _, ok := AppendStrings(&buf, content["c"], content); ok || len(buf) != 3 {
		t.Errorf("c: ok %v, buf %q", ok, buf)
	}
	for _, v := range []any{nil, "x", []int{1}, map[string]any{}} {
		if _, ok := AppendStrings(&buf, v, content); ok {
			t.Errorf("%#v accepted", v)
		}
	}
	type Color string
	var colors []Color
	cs, ok := AppendStrings(&colors, []string{"red"}, nil)
	if !ok || len(cs) != 1 || cs[0] != "red" {
		t.Errorf("typed: %q, %v", cs, ok)
	}
	src := []string{"s"}
	cs2, _ := AppendStrings(&buf, src, nil)
	src[0] = "changed"
	if cs2[0] != "s" {
		t.Error("the result aliases its []string argument")
	}
	if n := testing.AllocsPerRun(100, func() {
		var buf []string
		_, _ = AppendStrings(&buf, content["a"], content, "b")
		_, _ = AppendStrings(&buf, content["b"], content)
	}); n != 1 {
		t.Errorf("two multi selects made %v allocations, want 1", n)
	}
}
