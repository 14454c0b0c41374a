package exact

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type exactInner struct {
	Label string `json:"label"`
}

type exactEmbedded struct {
	Zone string `json:"zone"`
}

type exactNode struct {
	Name string       `json:"name"`
	Kids []*exactNode `json:"kids,omitempty"`
}

type exactArgs struct {
	exactEmbedded
	Account string                `json:"account"`
	Plain   int                   // named by its Go name
	Skip    string                `json:"-"`
	Inner   exactInner            `json:"inner"`
	List    []exactInner          `json:"list"`
	ByKey   map[string]exactInner `json:"by_key"`
	Tree    *exactNode            `json:"tree"`
	When    time.Time             `json:"when"`
	Free    map[string]any        `json:"free"`
}

// Arguments keeps exactly what encoding/json decodes by exact name, at
// every depth where the Go type is a struct, and nothing it would fold.
func TestExactArgumentsDropsFoldedKeysAtEveryDepth(t *testing.T) {
	in := `{"Account":"x","account":"a","ZONE":"z","zone":"eu","plain":1,"Plain":2,"Skip":"s",
		"inner":{"Label":"bad","label":"ok"},"list":[{"LABEL":"bad"},{"label":"ok"}],
		"by_key":{"k":{"labeL":"bad","label":"ok"}},"tree":{"name":"r","kids":[{"Name":"bad","name":"kid"}]},
		"when":"2026-07-28","free":{"Account":"kept: a map's keys are data"}}`
	out := Arguments(json.RawMessage(in), reflect.TypeFor[*exactArgs](), []string{"when"})
	var got exactArgs
	require.NoError(t, json.Unmarshal(out, &got))
	want := exactArgs{
		exactEmbedded: exactEmbedded{Zone: "eu"},
		Account:       "a", Plain: 2,
		Inner: exactInner{Label: "ok"}, List: []exactInner{{}, {Label: "ok"}},
		ByKey: map[string]exactInner{"k": {Label: "ok"}},
		Tree:  &exactNode{Name: "r", Kids: []*exactNode{{Name: "kid"}}},
		When:  time.Date(2026, 7, 28, 0, 0, 0, 0, time.UTC),
		Free:  map[string]any{"Account": "kept: a map's keys are data"},
	}
	assert.Equal(t, want, got)

	// The folded keys alone fill nothing.
	out = Arguments(json.RawMessage(`{"ACCOUNT":"x","Zone":"z","plain":1,"Inner":{"label":"x"}}`), reflect.TypeFor[exactArgs](), nil)
	got = exactArgs{}
	require.NoError(t, json.Unmarshal(out, &got))
	assert.Equal(t, exactArgs{}, got)
}

// Arguments that need no change come back as the same bytes, unparsed ones
// too (json.Unmarshal judges them).
func TestExactArgumentsLeavesExactArgumentsAlone(t *testing.T) {
	for _, in := range []string{`{"account":"a","inner":{"label":"x"}}`, `null`, ``, `[1]`, `{"account":`} {
		out := Arguments(json.RawMessage(in), reflect.TypeFor[exactArgs](), nil)
		assert.Equal(t, in, string(out))
	}
}

// A name that two embedded structs give at one depth is no field's, as in
// encoding/json; the shallower field wins over an embedded one.
func TestJSONFieldsResolvesLikeEncodingJSON(t *testing.T) {
	type a struct{ X, Y string }
	type b struct {
		X string
		Y string `json:"Y"`
	}
	type c struct {
		a
		b
		Z string
	}
	type d struct {
		c
		Z int `json:"Z"`
	}
	names := func(t reflect.Type) []string {
		var out []string
		for n := range jsonFields(t) {
			out = append(out, n)
		}
		return out
	}
	assert.ElementsMatch(t, []string{"Y", "Z"}, names(reflect.TypeFor[c]()))
	assert.Equal(t, reflect.TypeFor[int](), jsonFields(reflect.TypeFor[d]())["Z"])
}

// exactAlready (the allocation-free reading of the common case) never says
// "unchanged" where exactValue would change something, and neither panics.
func FuzzExactAlready(f *testing.F) {
	for _, s := range []string{`{"account":"a","Plain":1}`, `{"ACCOUNT":"x"}`, `{"inner":{"Label":"x"}}`,
		`{"when":"2026-07-28"}`, `{"account":"a\u00e9"}`, `{}`, ` { "account" : [1,{"a":[]}] } `, `{"account":1,}`, `[]`} {
		f.Add(s)
	}
	typ := reflect.TypeFor[exactArgs]()
	f.Fuzz(func(t *testing.T, raw string) {
		shape := keyShapeOf(typ)
		if exactAlready([]byte(raw), shape, []string{"when"}) {
			if _, changed := exactValue(json.RawMessage(raw), shape, []string{"when"}); changed {
				t.Fatalf("exactAlready said unchanged, exactValue changed %s", raw)
			}
			if !json.Valid([]byte(raw)) {
				t.Fatalf("exactAlready accepted invalid JSON %s", raw)
			}
		}
	})
}

// The common arguments cost no allocation on their way through.
func TestExactArgumentsCommonCaseAllocatesNothing(t *testing.T) {
	raw := json.RawMessage(`{"account":"a","Plain":12.5,"free":{"x":[1,2,{"y":null}]},"when":"2026-07-28T10:00:00Z"}`)
	typ := reflect.TypeFor[exactArgs]()
	Arguments(raw, typ, nil)
	assert.Zero(t, testing.AllocsPerRun(100, func() { Arguments(raw, typ, nil) }))
}

type recNode struct {
	Size int        `json:"size,omitempty"`
	Kids []*recNode `json:"kids,omitempty"`
}

type recEntry struct {
	Name string     `json:"name"`
	Sub  *recFolder `json:"sub,omitempty"`
}

type recFolder []recEntry

// Recursive types through pointers keep their whole shape: a folded key is
// dropped at any depth, and reading them never panics.
func TestArgumentsRecursiveTypes(t *testing.T) {
	type treeArgs struct {
		Tree *recNode `json:"tree"`
	}
	out := Arguments(json.RawMessage(`{"tree":{"kids":[{"Size":999,"kids":[{"SIZE":7,"size":1}]}]}}`), reflect.TypeFor[*treeArgs](), nil)
	var tree treeArgs
	require.NoError(t, json.Unmarshal(out, &tree))
	require.Len(t, tree.Tree.Kids, 1)
	assert.Zero(t, tree.Tree.Kids[0].Size, "%s", out)
	assert.Equal(t, 1, tree.Tree.Kids[0].Kids[0].Size, "%s", out)

	type folderArgs struct {
		Root recFolder `json:"root"`
	}
	var root folderArgs
	require.NotPanics(t, func() {
		out = Arguments(json.RawMessage(`{"root":[{"name":"a","sub":[{"name":"b","sub":[{"NAME":"x","name":"c"}]}]}]}`), reflect.TypeFor[*folderArgs](), nil)
	})
	require.NoError(t, json.Unmarshal(out, &root))
	assert.Equal(t, "c", (*(*root.Root[0].Sub)[0].Sub)[0].Name)
}
