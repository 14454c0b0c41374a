package impl

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/clip"
	"github.com/mcpgen/mcpgen/runtime/internal/exact"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonscan"
)

// This file decodes a tool's arguments (MCP 2026-07-28, server/tools:
// tools/call params.arguments, a JSON object) into the argument struct, once
// and by exact JSON name: generated _mcpgenDecode methods loop over
// [Arguments], switch on each member's key as written, and decode its value
// into the field with the Decode functions below, each of which reports
// whether the value decoded. A key that is not a field's
// exact JSON name fills nothing (encoding/json would fill a field from a key
// that differs only in case). Each Decode function adds a "type" error to
// *ve naming the key when the value is of another JSON type than the field's
// JSON Schema type (null included: the tool's input schema does not allow
// it), or a "range" error when the number does not fit in the Go type.

// Arguments iterates the members of a JSON arguments object, in order. Keys
// are compared as written after JSON unescaping; a repeated key yields each
// member, so the last one wins, as in encoding/json.
type Arguments struct {
	fast   jsonscan.Scanner
	dec    *json.Decoder // nil on the fast path
	key    []byte
	val    []byte
	err    error
	done   bool
	opened bool
}

// ReadArguments returns an iterator over the members of raw. Absent
// arguments (empty or null) have no members; anything but a JSON object is
// an error from Err.
func ReadArguments(raw []byte) Arguments {
	a := Arguments{fast: jsonscan.Scanner{B: raw}}
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		a.done = true
		return a
	}
	if t[0] != '{' {
		a.done, a.err = true, errors.New("arguments must be a JSON object")
		return a
	}
	probe := jsonscan.Scanner{B: raw}
	if !probe.Skip(0) || func() bool { probe.Space(); return probe.I != len(raw) }() {
		// Escaped or non-ASCII strings, deep nesting, or not JSON at all:
		// encoding/json's tokens read it.
		a.dec = json.NewDecoder(bytes.NewReader(raw))
		a.dec.UseNumber()
	}
	return a
}

// Next moves to the next member, reporting false at the end or on an error.
func (a *Arguments) Next() bool {
	if a.done {
		return false
	}
	if a.dec != nil {
		return a.nextGeneral()
	}
	s := &a.fast
	s.Space()
	if !a.opened {
		a.opened = true
		s.I++ // '{' (checked by the probe in ReadArguments)
		s.Space()
		if s.B[s.I] == '}' {
			a.done = true
			return false
		}
	} else {
		s.Space()
		if s.B[s.I] == '}' {
			a.done = true
			return false
		}
		s.I++ // ','
		s.Space()
	}
	key, _ := s.Str()
	a.key = key[1 : len(key)-1]
	s.Space()
	s.I++ // ':'
	s.Space()
	start := s.I
	s.Skip(1)
	a.val = s.B[start:s.I]
	return true
}

func (a *Arguments) nextGeneral() bool {
	if !a.opened {
		a.opened = true
		if tok, err := a.dec.Token(); err != nil || tok != json.Delim('{') {
			a.done, a.err = true, errors.New("arguments must be a JSON object")
			return false
		}
	}
	if !a.dec.More() {
		a.done = true
		if _, err := a.dec.Token(); err != nil {
			a.err = errors.New("arguments are not valid JSON: " + err.Error())
		} else if _, err := a.dec.Token(); err != io.EOF {
			a.err = errors.New("arguments are not one JSON object: more follows it")
		}
		return false
	}
	tok, err := a.dec.Token()
	key, ok := tok.(string)
	if err != nil || !ok {
		a.done, a.err = true, errors.New("arguments are not valid JSON")
		return false
	}
	var v json.RawMessage
	if err := a.dec.Decode(&v); err != nil {
		a.done, a.err = true, errors.New("arguments are not valid JSON: "+err.Error())
		return false
	}
	a.key, a.val = []byte(key), v
	return true
}

// Key returns the current member's key, unescaped. Compare it with
// string(a.Key()), which does not allocate.
func (a *Arguments) Key() []byte { return a.key }

// Value returns the current member's value as raw JSON.
func (a *Arguments) Value() []byte { return a.val }

// Err returns why the iteration stopped early, or nil.
func (a *Arguments) Err() error { return a.err }

// IsNull reports whether the raw JSON value v is null.
func IsNull(v []byte) bool { return string(v) == "null" }

// Ptr returns *p, first setting it to a new T when it is nil: the target of
// a pointer field's Decode.
func Ptr[T any](p **T) *T {
	if *p == nil {
		*p = new(T)
	}
	return *p
}

// jsonType names the JSON type of raw value v as JSON Schema does (JSON
// Schema Validation 2020-12, section 6.1.1).
func jsonType(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch c := v[0]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	}
	return "number"
}

func typeError(ve **engine.ValidationError, key, want string, v []byte) {
	AddFieldError(ve, key, "type", "must be "+want+", got "+jsonType(v))
}

// DecodeString decodes a JSON string into *p.
func DecodeString[T ~string](ve **engine.ValidationError, key string, v []byte, p *T) bool {
	if len(v) < 2 || v[0] != '"' {
		typeError(ve, key, "a string", v)
		return false
	}
	body := v[1 : len(v)-1]
	plain := true
	for _, c := range body {
		if c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		*p = T(body)
		return true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		typeError(ve, key, "a string", v)
		return false
	}
	*p = T(s)
	return true
}

// DecodeBool decodes a JSON boolean into *p.
func DecodeBool[T ~bool](ve **engine.ValidationError, key string, v []byte, p *T) bool {
	switch string(v) {
	case "true":
		*p = true
	case "false":
		*p = false
	default:
		typeError(ve, key, "a boolean", v)
		return false
	}
	return true
}

// integerText checks that v is a JSON number written as an integer (no
// fraction, no exponent: what encoding/json decodes into a Go integer),
// adding the "type" error naming key when it is not.
func integerText(ve **engine.ValidationError, key string, v []byte) bool {
	if jsonType(v) != "number" {
		typeError(ve, key, "an integer", v)
		return false
	}
	if bytes.ContainsAny(v, ".eE") {
		AddFieldError(ve, key, "type", "must be an integer, got "+clip.Text(string(v)))
		return false
	}
	return true
}

// DecodeInt decodes a JSON integer into *p; a number with a fraction or an
// exponent is a "type" error, one beyond the Go type's range a "range"
// error naming the type (as encoding/json refuses both).
func DecodeInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](ve **engine.ValidationError, key string, v []byte, p *T) bool {
	if !integerText(ve, key, v) {
		return false
	}
	x, err := strconv.ParseInt(string(v), 10, 64)
	return setInteger(ve, key, p, x, err == nil && int64(T(x)) == x)
}

// DecodeUint decodes a JSON integer into *p, as DecodeInt does; a negative
// one is a "range" error.
func DecodeUint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](ve **engine.ValidationError, key string, v []byte, p *T) bool {
	if !integerText(ve, key, v) {
		return false
	}
	x, err := strconv.ParseUint(string(v), 10, 64)
	return setInteger(ve, key, p, x, err == nil && uint64(T(x)) == x)
}

// setInteger stores x in *p when fits, else adds the "range" error.
func setInteger[T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64, X int64 | uint64](ve **engine.ValidationError, key string, p *T, x X, fits bool) bool {
	if !fits {
		AddFieldError(ve, key, "range", "does not fit in "+goTypeName[T]())
		return false
	}
	*p = T(x)
	return true
}

// DecodeFloat decodes a JSON number into *p; one beyond the Go type's range
// (1e400, or 1e39 for a float32) is a "range" error.
func DecodeFloat[T ~float32 | ~float64](ve **engine.ValidationError, key string, v []byte, p *T) bool {
	if jsonType(v) != "number" {
		typeError(ve, key, "a number", v)
		return false
	}
	var z T
	bits := 64
	if unsafe.Sizeof(z) == 4 {
		bits = 32
	}
	x, err := strconv.ParseFloat(string(v), bits)
	if err != nil || math.IsInf(x, 0) {
		AddFieldError(ve, key, "range", "does not fit in "+goTypeName[T]())
		return false
	}
	*p = T(x)
	return true
}

// DecodeTime decodes a JSON string holding an RFC 3339 date-time into *p,
// checked as the "date-time" format is ([ParseDateTime]); with date, it must
// hold an RFC 3339 full-date instead ("2026-07-28", what the input schema
// announces for format "date"), read as midnight UTC.
func DecodeTime(ve **engine.ValidationError, key string, v []byte, p *time.Time, date bool) bool {
	var s string
	if !DecodeString(ve, key, v, &s) {
		return false
	}
	var t time.Time
	var ok bool
	want := "a date-time (RFC 3339)"
	if date {
		t, ok = ParseDate(s)
		want = "a date as YYYY-MM-DD (RFC 3339 full-date)"
	} else {
		t, ok = ParseDateTime(s)
	}
	if !ok {
		AddFieldError(ve, key, "format", "must be "+want)
		return false
	}
	*p = t
	return true
}

// DecodeJSON decodes any JSON value into p (a pointer to the field) with
// encoding/json, by exact JSON name at every depth (see package
// runtime/internal/exact); with nullOK false, null is a "type" error.
func DecodeJSON(ve **engine.ValidationError, key string, v []byte, p any, nullOK bool) bool {
	if IsNull(v) && !nullOK {
		AddFieldError(ve, key, "type", "must not be null")
		return false
	}
	err := json.Unmarshal(exact.Arguments(v, reflect.TypeOf(p), nil), p)
	if err == nil {
		return true
	}
	field, msg, ok := strings.Cut(exact.ErrorText(err, reflect.TypeOf(p), key), ": ")
	if !ok {
		field, msg = key, err.Error()
	}
	AddFieldError(ve, field, "type", msg)
	return false
}

// goTypeName names T for a "does not fit in" message: its own name, or the
// predeclared type it is.
func goTypeName[T any]() string {
	t := reflect.TypeFor[T]()
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}

// Strings returns the items of a multi select as []string, as form content
// holds them.
func Strings[T ~string](s []T) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}
