package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// fullState has every field of state set, in every list and map more than
// one entry, answers of every JSON kind.
func fullState() *state {
	return &state{
		binding: binding{Tool: "book_flight", Method: "tools/call", Args: []byte{1, 2, 3, 0, 255},
			Principal: "alice@example.com", IssuedAt: 1796210430, Expires: -5, Epoch: "SeY_d7smdQV12hMEU31raA"},
		Kind: "exchange", FlowID: []byte("0123456789abcdef"), Round: 7, Waits: 2,
		Trace: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		Asked: []asked{
			{Key: "book_flight", Question: []byte{9, 9}, Fields: []string{"date", "window", "passengers"}},
			{Key: "q2", Method: "sampling/createMessage", Name: "confirm", Page: "pg-1",
				Content: map[string]any{"n": 2.5, "s": "é\x00\"", "b": true, "l": []any{"a", "b"}, "z": nil}},
		},
		Carry: json.RawMessage(`{"k":[1,2]}`),
		Replies: map[string]reply{
			"":        {Question: []byte{1}, Action: Accept, Content: map[string]any{"date": "2026-12-24"}},
			"confirm": {Action: Decline, Fields: []string{"ok"}, Page: "p"},
		},
		Kept: map[string]json.RawMessage{"a": json.RawMessage(`"x"`), "b": json.RawMessage(`{"y":1}`)},
	}
}

// TestStateCodecRoundTrip: what encodeState writes, decodeState reads back
// whole, for the full state and for a first round's.
func TestStateCodecRoundTrip(t *testing.T) {
	for name, st := range map[string]*state{
		"full":  fullState(),
		"round": {binding: binding{Tool: "t", Method: "tools/call"}, FlowID: []byte{1}, Round: 1, Asked: []asked{{Key: "t"}}},
		"empty": {},
	} {
		b, err := encodeState(st)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got state
		if err := decodeState(b, &got); err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		if !reflect.DeepEqual(&got, st) {
			t.Errorf("%s: round trip changed the state:\ngot  %+v\nwant %+v", name, got, *st)
		}
	}
}

// TestStateCodecRefusesJSON: a plaintext that is a state's JSON (the form
// of no released version) is not a state: decodeState refuses it.
func TestStateCodecRefusesJSON(t *testing.T) {
	b, err := json.Marshal(fullState())
	if err != nil {
		t.Fatal(err)
	}
	var got state
	if err := decodeState(b, &got); !errors.Is(err, errStateCodec) {
		t.Errorf("decodeState(JSON) = %v, want errStateCodec", err)
	}
}

// TestStateCodecRefusesDamage: every strict prefix of an encoding, the
// encoding with a byte after it, and plaintexts of other shapes are refused
// without a panic.
func TestStateCodecRefusesDamage(t *testing.T) {
	b, err := encodeState(fullState())
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(b) {
		var st state
		if decodeState(b[:n], &st) == nil {
			t.Errorf("a prefix of %d of %d bytes decoded", n, len(b))
		}
	}
	for _, bad := range [][]byte{append(b[:len(b):len(b)], 0), nil, {0}, {2}, []byte("not a state"), {stateBinary, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		var st state
		if decodeState(bad, &st) == nil {
			t.Errorf("decoded %q", bad)
		}
	}
}

// FuzzDecodeState: decodeState never panics, and what it reads is written
// back the same way.
func FuzzDecodeState(f *testing.F) {
	for _, st := range []*state{fullState(), {}} {
		b, err := encodeState(st)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"t":"x","q":[{"k":"a"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var st state
		if decodeState(b, &st) != nil || len(b) == 0 || b[0] != stateBinary {
			return
		}
		again, err := encodeState(&st)
		if err != nil {
			t.Fatalf("re-encoding a decoded state: %v", err)
		}
		var st2 state
		if err := decodeState(again, &st2); err != nil || !reflect.DeepEqual(st, st2) {
			t.Fatalf("a decoded state does not survive its own round trip: %v", err)
		}
	})
}

// TestStateCodecOtherValues: an answer of a Go type no client sends (a
// handler's run-time default of type int, a json.Number) reads back as it
// would have from the JSON state: as encoding/json decodes its JSON.
func TestStateCodecOtherValues(t *testing.T) {
	st := &state{Asked: []asked{{Key: "k", Content: map[string]any{
		"i": 3, "n": json.Number("12.50"), "s": []string{"a", "b"}, "m": map[string]any{"x": 1},
		"deep": []any{[]any{[]any{"x"}}},
	}}}}
	b, err := encodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	var got state
	if err := decodeState(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"i": 3.0, "n": 12.5, "s": []any{"a", "b"}, "m": map[string]any{"x": 1.0},
		"deep": []any{[]any{[]any{"x"}}}}
	if !reflect.DeepEqual(got.Asked[0].Content, want) {
		t.Errorf("content read back as %#v, want %#v", got.Asked[0].Content, want)
	}
}

// TestStateCodecDepth: what the writer writes, the reader reads: an answer
// nested deeper than the reader takes is refused when the state is written.
func TestStateCodecDepth(t *testing.T) {
	nest := func(n int) any {
		var v any = "x"
		for range n {
			v = []any{v}
		}
		return v
	}
	ok := &state{Asked: []asked{{Key: "k", Content: map[string]any{"a": nest(maxValueDepth)}}}}
	b, err := encodeState(ok)
	if err != nil {
		t.Fatal(err)
	}
	var got state
	if err := decodeState(b, &got); err != nil {
		t.Fatalf("a state the writer wrote does not read: %v", err)
	}
	deep := &state{Asked: []asked{{Key: "k", Content: map[string]any{"a": nest(maxValueDepth + 1)}}}}
	if _, err := encodeState(deep); err == nil {
		t.Error("an answer nested deeper than the reader takes was written")
	}
}
