package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzCanonicalArgs holds canonicalFast to the general path: wherever it
// answers, the digest is the general path's, which accepts the arguments.
func FuzzCanonicalArgs(f *testing.F) {
	for _, s := range []string{
		`{"origin":"CDG","destination":"JFK"}`,
		` { "b" : [1, -2.5e+3, 0, true, false, null, {"z":{}, "a":[]}] , "a" : "x y" } `,
		`{"ab":1,"ab!":2,"ab ":3,"a":4}`,
		`{"a":1,"A":2}`, `{"a":1,"a":2}`, `{"k":1,"K":2}`,
		`{"a":"<b>"}`, `{"a":"\u00e9"}`, `{"a":"é"}`, `{"a":"\n"}`, `{"a":"x\\"}`,
		`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":.5}`, `{"a":1e}`, `{"a":-0.0E-0}`,
		`{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `[1]`, `"a"`, `null`, ` null `, ``, `{`, `{}`, `{} {}`, `{}x`,
		`{"a":[1,]}`, `{"a":[,1]}`, `{"a":{"b":}}`, `{"a" 1}`, `{"a":1,}`, `{,}`,
		`{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, ok := canonicalFast(raw)
		if !ok {
			return
		}
		slow, err := canonicalArgsSlow(raw)
		if err != nil {
			t.Fatalf("%q: fast path answered %q, the general path refuses: %v", raw, out, err)
		}
		fast, _, _ := canonicalArgs(raw)
		if !bytes.Equal(fast, slow) {
			t.Fatalf("%q: fast canonical form %q differs from the general path's", raw, out)
		}
	})
}

// TestCanonicalFastAnswers checks that canonicalFast answers for ordinary
// arguments, so that they skip json.Decoder.
func TestCanonicalFastAnswers(t *testing.T) {
	for _, s := range []string{
		`{"origin":"CDG","destination":"JFK"}`,
		`{"origin":"CDG","destination":"JFK","date":"2026-12-24","window":"morning","passengers":2}`,
		`{"a":{"b":[1,2,{"c":null}]},"d":true}`,
		`{}`,
	} {
		if _, ok := canonicalFast([]byte(s)); !ok {
			t.Errorf("%s: no answer", s)
		}
	}
}

// Arguments nested deeper than MaxArgumentsDepth are refused at once, before
// any reading whose cost grows with depth; nesting up to it is read, and
// brackets inside strings do not count.
func TestArgumentsDepth(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(strings.Repeat(`{"k":`, n) + `"é"` + strings.Repeat(`}`, n))
	}
	_, _, err := canonicalArgs(deep(MaxArgumentsDepth + 1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nested deeper than 64")
	_, _, err = canonicalArgs(deep(10_000))
	require.Error(t, err)
	_, _, err = canonicalArgs(deep(MaxArgumentsDepth))
	require.NoError(t, err)
	_, _, err = canonicalArgs([]byte(`{"s":"` + strings.Repeat(`[{\"`, 100) + `é"}`))
	require.NoError(t, err, "brackets in strings")
}
