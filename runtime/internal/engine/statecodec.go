package engine

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	segjson "github.com/segmentio/encoding/json"
)

// A state's plaintext, before it is sealed, is binary: the byte
// stateBinary, then every field of [state] in a fixed order, each integer a
// varint (encoding/binary), each string and byte string its length as a
// uvarint then its bytes, each list its length then its items, each map its
// length then its entries (Replies and Kept in key order). An answer's value
// is a tag byte then its bytes (see stateWriter.value); the data a handler
// keeps (Kept, an Exchange's Carry) is JSON inside it. Against the JSON the
// state used to be, bookflight's round-1 state is 32 % smaller sealed
// (443 → 302 characters), and writing and reading a state 3.5–5× quicker
// (BenchmarkStateCodec; decoding the state's JSON was the largest part of a
// retry's own cost in bench/, FlowCall).
const stateBinary = 0x01

// errStateCodec is why a plaintext that opened under the key ring is not a
// state this version can read.
var errStateCodec = errors.New("not a state this version of mcpgen wrote")

// encodeState returns st's plaintext (see [stateBinary]).
func encodeState(st *state) ([]byte, error) {
	w := stateWriter{b: make([]byte, 0, 256)}
	w.b = append(w.b, stateBinary)
	w.str(st.Tool)
	w.str(st.Method)
	w.bytes(st.Args)
	w.str(st.Principal)
	w.int(st.IssuedAt)
	w.int(st.Expires)
	w.str(st.Epoch)
	w.str(st.Kind)
	w.bytes(st.FlowID)
	w.int(int64(st.Round))
	w.int(int64(st.Waits))
	w.int(int64(st.Empty))
	w.str(st.Trace)
	w.uint(len(st.Asked))
	for i := range st.Asked {
		a := &st.Asked[i]
		w.str(a.Key)
		w.str(a.Method)
		w.bytes(a.Question)
		w.strs(a.Fields)
		w.str(a.Name)
		w.str(a.Page)
		w.content(a.Content)
	}
	w.bytes(st.Carry)
	w.uint(len(st.Replies))
	for _, name := range sortedKeys(st.Replies) {
		rep := st.Replies[name]
		w.str(name)
		w.bytes(rep.Question)
		w.str(string(rep.Action))
		w.content(rep.Content)
		w.strs(rep.Fields)
		w.str(rep.Page)
	}
	w.uint(len(st.Kept))
	for _, name := range sortedKeys(st.Kept) {
		w.str(name)
		w.bytes(st.Kept[name])
	}
	return w.b, w.err
}

// sortedKeys returns m's keys in order (nil for an empty m, without
// allocating).
func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

// decodeState reads a plaintext that opened under the key ring into st: the
// binary form encodeState writes. Every byte must be read; anything else is
// [errStateCodec].
func decodeState(b []byte, st *state) error {
	if len(b) == 0 || b[0] != stateBinary {
		return errStateCodec
	}
	r := stateReader{b: b[1:], s: string(b[1:])}
	st.Tool = r.str()
	st.Method = r.str()
	st.Args = r.bytes()
	st.Principal = r.str()
	st.IssuedAt = r.int()
	st.Expires = r.int()
	st.Epoch = r.str()
	st.Kind = r.str()
	st.FlowID = r.bytes()
	st.Round = int(r.int())
	st.Waits = int(r.int())
	st.Empty = int(r.int())
	st.Trace = r.str()
	if n := r.count(); n > 0 {
		st.Asked = make([]asked, n)
		for i := range st.Asked {
			a := &st.Asked[i]
			a.Key = r.str()
			a.Method = r.str()
			a.Question = r.bytes()
			a.Fields = r.strs()
			a.Name = r.str()
			a.Page = r.str()
			a.Content = r.content()
		}
	}
	if c := r.bytes(); c != nil {
		st.Carry = json.RawMessage(c)
	}
	if n := r.count(); n > 0 {
		st.Replies = make(map[string]reply, n)
		for range n {
			name := r.str()
			var rep reply
			rep.Question = r.bytes()
			rep.Action = Action(r.str())
			rep.Content = r.content()
			rep.Fields = r.strs()
			rep.Page = r.str()
			st.Replies[name] = rep
		}
	}
	if n := r.count(); n > 0 {
		st.Kept = make(map[string]json.RawMessage, n)
		for range n {
			name := r.str()
			st.Kept[name] = json.RawMessage(r.bytes())
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = errStateCodec
	}
	return r.err
}

// stateWriter appends a state's fields to b; err is the first failure
// (only a kept answer that does not encode as JSON can fail).
type stateWriter struct {
	b   []byte
	err error
}

func (w *stateWriter) uint(n int)  { w.b = binary.AppendUvarint(w.b, uint64(n)) }
func (w *stateWriter) int(n int64) { w.b = binary.AppendVarint(w.b, n) }

func (w *stateWriter) str(s string) {
	w.uint(len(s))
	w.b = append(w.b, s...)
}

func (w *stateWriter) bytes(p []byte) {
	w.uint(len(p))
	w.b = append(w.b, p...)
}

func (w *stateWriter) strs(s []string) {
	w.uint(len(s))
	for _, x := range s {
		w.str(x)
	}
}

// content writes answers: their count, then each name and value (see
// value); none is a count of 0.
func (w *stateWriter) content(m map[string]any) {
	w.uint(len(m))
	for k, v := range m {
		w.str(k)
		w.value(v, 0)
	}
}

// The tags of an answer's value in a state.
const (
	valueNull   = iota // JSON null (a Go nil)
	valueString        // a string
	valueNumber        // a float64, its 8 bytes (IEEE 754, little-endian)
	valueTrue
	valueFalse
	valueArray // []any: its length, then each item
	valueJSON  // any other Go value: its JSON, read back as encoding/json would
)

// value writes one answer. What clients send decodes into nil, string,
// float64, bool and []any, each written in its own form; any other value
// (one a handler gave, such as a run-time default of Go type int) is
// written as its JSON, as it was when the whole state was JSON.
func (w *stateWriter) value(v any, depth int) {
	if depth > maxValueDepth {
		if w.err == nil {
			w.err = fmt.Errorf("an answer kept in the state nests arrays deeper than %d", maxValueDepth)
		}
		return
	}
	switch x := v.(type) {
	case nil:
		w.b = append(w.b, valueNull)
	case string:
		w.b = append(w.b, valueString)
		w.str(x)
	case float64:
		w.b = append(w.b, valueNumber)
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(x))
	case bool:
		if x {
			w.b = append(w.b, valueTrue)
		} else {
			w.b = append(w.b, valueFalse)
		}
	case []any:
		w.b = append(w.b, valueArray)
		w.uint(len(x))
		for _, item := range x {
			w.value(item, depth+1)
		}
	default:
		j, err := segjson.Marshal(x)
		if err != nil && w.err == nil {
			w.err = err
		}
		w.b = append(w.b, valueJSON)
		w.bytes(j)
	}
}

// stateReader reads what stateWriter wrote from b; s holds the same bytes
// as a string, which its strings are cut from (one copy for all of them).
// After the first failure (err set) every read returns the zero value.
type stateReader struct {
	b   []byte
	s   string
	off int // how much of s was read: len(s) - len(b)
	err error
}

func (r *stateReader) fail() { r.err, r.b, r.s, r.off = errStateCodec, nil, "", 0 }

// uint reads a uvarint no larger than what is left to read: every length
// and count is followed by at least that many bytes.
func (r *stateReader) uint() int {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > uint64(len(r.b)-k) {
		r.fail()
		return 0
	}
	r.b, r.off = r.b[k:], r.off+k
	return int(n)
}

func (r *stateReader) int() int64 {
	n, k := binary.Varint(r.b)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b, r.off = r.b[k:], r.off+k
	return n
}

// count reads the length of a list or a map.
func (r *stateReader) count() int { return r.uint() }

// bytes returns the next byte string, nil when it is empty. It copies
// nothing: the state owns the plaintext it was read from.
func (r *stateReader) bytes() []byte {
	n := r.uint()
	if n == 0 || r.err != nil {
		return nil
	}
	p := r.b[:n:n]
	r.b, r.off = r.b[n:], r.off+n
	return p
}

func (r *stateReader) str() string {
	n := r.uint()
	if n == 0 || r.err != nil {
		return ""
	}
	s := r.s[r.off : r.off+n]
	r.b, r.off = r.b[n:], r.off+n
	return s
}

func (r *stateReader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		s[i] = r.str()
	}
	return s
}

// content reads answers written by stateWriter.content (nil for none).
func (r *stateReader) content() map[string]any {
	n := r.count()
	if n == 0 {
		return nil
	}
	m := make(map[string]any, n)
	for range n {
		k := r.str()
		m[k] = r.value(0)
	}
	if r.err != nil {
		return nil
	}
	return m
}

// maxValueDepth bounds how deep arrays nest in an answer a state keeps: the
// writer refuses deeper ones, the reader too.
const maxValueDepth = 32

// value reads one answer written by stateWriter.value, depth arrays deep.
func (r *stateReader) value(depth int) any {
	if r.err != nil || len(r.b) == 0 || depth > maxValueDepth {
		r.fail()
		return nil
	}
	tag := r.b[0]
	r.b, r.off = r.b[1:], r.off+1
	switch tag {
	case valueNull:
		return nil
	case valueString:
		return r.str()
	case valueNumber:
		if len(r.b) < 8 {
			r.fail()
			return nil
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b, r.off = r.b[8:], r.off+8
		return f
	case valueTrue:
		return true
	case valueFalse:
		return false
	case valueArray:
		n := r.count()
		a := make([]any, n)
		for i := range a {
			a[i] = r.value(depth + 1)
		}
		return a
	case valueJSON:
		var v any
		if err := json.Unmarshal(r.bytes(), &v); err != nil {
			r.fail()
		}
		return v
	}
	r.fail()
	return nil
}
