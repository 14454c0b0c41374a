package impl

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/runtime"
)

type level int8

// TestAnswerIntBounds holds impl.AnswerInt and AnswerUint, which a generated
// _mcpgenApply calls for an integer field, to the range of the field's own
// Go type, named as the generated code wrote it: the bounds are kept, one
// past them is a "range" error and leaves the value as it was, a fraction or
// a string a "type" error; an int64 answer past 2^53 as a float64 says it
// may have been rounded.
func TestAnswerIntBounds(t *testing.T) {
	type answer struct {
		raw     any
		ok      bool
		keyword string
		message string
	}
	check := func(t *testing.T, name string, a answer, call func(ve **runtime.ValidationError) (bool, string)) {
		t.Helper()
		var ve *runtime.ValidationError
		ok, got := call(&ve)
		assert.Equal(t, a.ok, ok, "%s %#v", name, a.raw)
		if a.ok {
			assert.Nil(t, ve, "%s %#v", name, a.raw)
			assert.Equal(t, strconv.Quote(fmtAny(a.raw)), strconv.Quote(got), "%s %#v", name, a.raw)
			return
		}
		assert.Equal(t, "7", got, "%s %#v: the value changed on an error", name, a.raw)
		if assert.NotNil(t, ve, "%s %#v", name, a.raw) && assert.Len(t, ve.Errors, 1) {
			assert.Equal(t, "f", ve.Errors[0].Field)
			assert.Equal(t, a.keyword, ve.Errors[0].Keyword, "%s %#v", name, a.raw)
			assert.Contains(t, ve.Errors[0].Message, a.message, "%s %#v", name, a.raw)
		}
	}
	for _, a := range []answer{
		{float64(127), true, "", ""},
		{float64(-128), true, "", ""},
		{float64(128), false, "range", "does not fit in level"},
		{json.Number("-129"), false, "range", "does not fit in level"},
		{1.5, false, "type", "must be an integer, got number"},
		{"1", false, "type", "must be an integer, got string"},
	} {
		check(t, "level", a, func(ve **runtime.ValidationError) (bool, string) {
			v := level(7)
			ok := AnswerInt(ve, "f", a.raw, "level", &v)
			return ok, strconv.Itoa(int(v))
		})
	}
	for _, a := range []answer{
		{float64(math.MaxInt32), true, "", ""},
		{float64(math.MaxInt32 + 1), false, "range", "does not fit in int32"},
	} {
		check(t, "int32", a, func(ve **runtime.ValidationError) (bool, string) {
			v := int32(7)
			ok := AnswerInt(ve, "f", a.raw, "int32", &v)
			return ok, strconv.Itoa(int(v))
		})
	}
	for _, a := range []answer{
		{json.Number("9223372036854775807"), true, "", ""},
		{json.Number("9223372036854775808"), false, "range", "does not fit in int64"},
		{float64(1 << 60), false, "range", "may have lost digits"},
	} {
		check(t, "int64", a, func(ve **runtime.ValidationError) (bool, string) {
			v := int64(7)
			ok := AnswerInt(ve, "f", a.raw, "int64", &v)
			return ok, strconv.FormatInt(v, 10)
		})
	}
	for _, a := range []answer{
		{float64(255), true, "", ""},
		{float64(256), false, "range", "does not fit in uint8"},
		{float64(-1), false, "range", "does not fit in uint8"},
		{true, false, "type", "must be an integer, got boolean"},
	} {
		check(t, "uint8", a, func(ve **runtime.ValidationError) (bool, string) {
			v := uint8(7)
			ok := AnswerUint(ve, "f", a.raw, "uint8", &v)
			return ok, strconv.Itoa(int(v))
		})
	}
	for _, a := range []answer{
		{json.Number("18446744073709551615"), true, "", ""},
		{json.Number("18446744073709551616"), false, "range", "does not fit in uint64"},
	} {
		check(t, "uint64", a, func(ve **runtime.ValidationError) (bool, string) {
			v := uint64(7)
			ok := AnswerUint(ve, "f", a.raw, "uint64", &v)
			return ok, strconv.FormatUint(v, 10)
		})
	}
}

// fmtAny writes an accepted answer as the integer it is.
func fmtAny(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		return string(v)
	}
	return ""
}
