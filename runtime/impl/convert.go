package impl

import (
	"encoding/json"
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"math"
	"math/big"
	"strconv"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/internal/format"
)

// This file converts the values of a form's content (decoded JSON: string,
// float64 or json.Number, bool, []any; or the same Go types built in-process)
// to the Go types of an argument struct. Generated ApplyContent methods call
// these functions; a false ok (or [ConvWrongType]) means a type error, to be
// reported under the JSON Schema keyword "type" (MCP 2026-07-28,
// client/elicitation: content values are string, number, boolean or array of
// strings).

// AsString returns v as a string; ok is false for any other dynamic type
// (a number, a bool, nil, …), never converting one to a string.
func AsString(v any) (s string, ok bool) {
	s, ok = v.(string)
	return s, ok
}

// AsBool returns v as a bool; ok is false for any other dynamic type (the
// strings "true" and "false" included).
func AsBool(v any) (b bool, ok bool) {
	b, ok = v.(bool)
	return b, ok
}

// asNumber returns v as a float64. It accepts float64, float32, json.Number
// and Go integers. NaN and infinities are not JSON numbers and are rejected.
func asNumber(v any) (f float64, ok bool) {
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(n), 64); err != nil {
			return 0, false
		}
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case int32:
		f = float64(n)
	case uint64:
		f = float64(n)
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Conv is the outcome of converting a JSON value to a Go number type with
// [asInt], [asUint] or [AsFloat64]. Generated code (for a float) and
// [AnswerInt] and [AnswerUint] (for an integer) report [ConvWrongType] under
// the JSON Schema keyword "type" and [ConvOutOfRange] as "range".
type Conv uint8

const (
	// ConvOK: the value is a number of the right kind within the Go type's range.
	ConvOK Conv = iota
	// ConvWrongType: not a number or, for an integer type, a number with a
	// fractional part (JSON Schema "type": "integer" accepts 3.0, not 3.5).
	ConvWrongType
	// ConvOutOfRange: a number the Go type cannot hold (300 for an int8).
	ConvOutOfRange
)

// MaxExactInt is the largest integer that every JSON number read as a
// float64 holds exactly: 2^53−1, the bound of I-JSON's interoperable
// integers (RFC 7493 §2.2). An SDK that decodes a form's content with
// encoding/json into any (go-sdk, mcp-go) hands over float64s, so an integer
// answered beyond ±MaxExactInt may have arrived rounded (9007199254740993
// reads as 9007199254740992): [asInt] and [asUint] refuse such a float64 as
// [ConvOutOfRange] rather than take a number the user did not send, and
// [intRangeMessage] says why. A json.Number is exact at any size.
const MaxExactInt = 1<<53 - 1

// asInt returns v as an int64 within [lo, hi], the range of the Go type that
// will hold it (math.MinInt8, math.MaxInt8 … math.MinInt64, math.MaxInt64).
// JSON numbers with a zero fractional part are integers (JSON Schema 2020-12
// Validation §6.1.1), so 3.0 is 3 and 3.5 is [ConvWrongType]; a json.Number
// or a Go integer is judged on its exact value, a float64 on its value
// within ±[MaxExactInt]. A number outside [lo, hi], or a float64 beyond
// ±MaxExactInt, is [ConvOutOfRange]. The returned number is 0 unless
// [ConvOK].
func asInt(v any, lo, hi int64) (int64, Conv) {
	if f, ok := v.(float64); ok { // what encoding/json decodes numbers into
		return floatInt(f, lo, hi)
	}
	switch n := v.(type) {
	case int:
		return clampInt(int64(n), lo, hi)
	case int64:
		return clampInt(n, lo, hi)
	case int32:
		return clampInt(int64(n), lo, hi)
	case uint64:
		if n > math.MaxInt64 {
			return 0, ConvOutOfRange
		}
		return clampInt(int64(n), lo, hi)
	case json.Number:
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return clampInt(i, lo, hi)
		}
		// Decide integer-ness on the exact decimal, not on its float64
		// rounding: 1e-400 and 3.0000000000000001 are not integers, 1e400 is
		// one (too big for any Go integer).
		r, ok := new(big.Rat).SetString(string(n))
		if !ok {
			return 0, ConvWrongType
		}
		if !r.IsInt() {
			return 0, ConvWrongType
		}
		if !r.Num().IsInt64() {
			return 0, ConvOutOfRange
		}
		return clampInt(r.Num().Int64(), lo, hi)
	}
	f, ok := asNumber(v)
	if !ok {
		return 0, ConvWrongType
	}
	return floatInt(f, lo, hi)
}

// floatInt is asInt for a float64 (or a float32 read as one).
func floatInt(f float64, lo, hi int64) (int64, Conv) {
	if f != math.Trunc(f) || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, ConvWrongType
	}
	if f < -MaxExactInt || f > MaxExactInt {
		return 0, ConvOutOfRange
	}
	return clampInt(int64(f), lo, hi)
}

// intRangeMessage is the message of a [ConvOutOfRange] from [asInt] or
// [asUint] for v, an answer to a field of Go type goType holding [lo, hi]:
// "does not fit in goType", or, for a float64 beyond ±[MaxExactInt] that
// the type could hold, that the number may have been rounded on its way and
// which integers can be sent.
func intRangeMessage(v any, goType string, lo int64, hi uint64) string {
	if f, ok := v.(float64); ok && (f > MaxExactInt || f < -MaxExactInt) && f >= float64(lo) && f <= float64(hi) {
		const why = ": a larger integer may have lost digits when read as a 64-bit float (RFC 7493 §2.2)"
		if lo >= 0 {
			return "must be at most 9007199254740991" + why
		}
		return "must be between -9007199254740991 and 9007199254740991" + why
	}
	return "does not fit in " + goType
}

func clampInt(i, lo, hi int64) (int64, Conv) {
	if i < lo || i > hi {
		return 0, ConvOutOfRange
	}
	return i, ConvOK
}

// asUint returns v as a uint64 no greater than hi, the largest value of the Go
// type that will hold it (math.MaxUint8 … math.MaxUint64). Integer-ness and
// the float64 bound are judged as in [asInt]; negative values and values
// above hi are [ConvOutOfRange], and the returned number is then 0.
func asUint(v any, hi uint64) (uint64, Conv) {
	switch n := v.(type) {
	case uint64:
		if n > hi {
			return 0, ConvOutOfRange
		}
		return n, ConvOK
	case json.Number:
		if u, err := strconv.ParseUint(string(n), 10, 64); err == nil {
			if u > hi {
				return 0, ConvOutOfRange
			}
			return u, ConvOK
		}
		r, ok := new(big.Rat).SetString(string(n))
		if !ok || !r.IsInt() {
			return 0, ConvWrongType
		}
		if !r.Num().IsUint64() || r.Num().Uint64() > hi {
			return 0, ConvOutOfRange
		}
		return r.Num().Uint64(), ConvOK
	}
	i, st := asInt(v, math.MinInt64, math.MaxInt64)
	switch {
	case st != ConvOK:
		return 0, st
	case i < 0 || uint64(i) > hi:
		return 0, ConvOutOfRange
	}
	return uint64(i), ConvOK
}

// AsFloat64 returns v as a float64: [ConvWrongType] when v is not a number
// (NaN and infinities are not JSON numbers, RFC 8259 §6), [ConvOutOfRange]
// for a JSON number beyond ±math.MaxFloat64 (1e400), which is a valid JSON
// number that no float64 can hold. A json.Number is rounded to the nearest
// float64. The returned number is 0 unless [ConvOK].
func AsFloat64(v any) (float64, Conv) {
	if f, ok := v.(float64); ok { // what encoding/json decodes numbers into
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, ConvWrongType
		}
		return f, ConvOK
	}
	if n, ok := v.(json.Number); ok {
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && math.IsInf(f, 0) {
				return 0, ConvOutOfRange
			}
			return 0, ConvWrongType
		}
		return f, ConvOK
	}
	f, ok := asNumber(v)
	if !ok {
		return 0, ConvWrongType
	}
	return f, ConvOK
}

// ParseDateTime parses an RFC 3339 date-time (format "date-time") that
// [IsDateTime] accepts, reading s once: the time is built from the fields the
// check read, with the location time.Parse(time.RFC3339Nano, s) would give
// (UTC for "Z"; time.Local when the offset is Local's at that instant;
// otherwise an unnamed time.FixedZone). It fails where time.Parse cannot
// represent a valid RFC 3339 value, such as a leap second (23:59:60): one of
// the two disagreements with the JSON Schema validator that mcpgen allows.
//
// The rare spellings that time.Parse reads its own way (lower-case "t" or
// "z", which RFC 3339 §5.6 allows and are upper-cased first; a '+' or "-0"
// in a two-digit field, which the validator accepts; a fraction of more
// than nine digits) go through time.Parse as they always did. The common
// spelling (ASCII digits, upper-case T and Z, no leap second) is read by a
// fast path, held to the general one by TestPlainDateTimeFastPath.
func ParseDateTime(s string) (time.Time, bool) {
	if t, ok := parsePlainDateTime(s); ok {
		return t, true
	}
	return parseDateTimeFields(s)
}

// parseDateTimeFields is ParseDateTime for every spelling: the fields
// format.ParseDateTime read, put together by time.Date.
func parseDateTimeFields(s string) (time.Time, bool) {
	d, ok := format.ParseDateTime(s)
	if !ok {
		return time.Time{}, false
	}
	if !d.Plain || d.Second == 60 {
		return parseDateTimeSlow(s)
	}
	t := time.Date(d.Year, time.Month(d.Month), d.Day, d.Hour, d.Minute, d.Second, d.Nanosecond, time.UTC)
	if d.Z {
		return t, true
	}
	t = t.Add(-time.Duration(d.Offset) * time.Second)
	if _, off := t.In(time.Local).Zone(); off == d.Offset {
		return t.In(time.Local), true
	}
	return t.In(time.FixedZone("", d.Offset)), true
}

// parsePlainDateTime is ParseDateTime for the spelling nearly every
// date-time has, "YYYY-MM-DDTHH:MM:SS[.F]Z" or "…[.F]±HH:MM" with ASCII
// digits, at most nine fraction digits and no leap second: it reads the
// fields in place and builds the time from its Unix seconds, without
// time.Date's normalisation. It never rejects: ok false means "not that
// spelling or not valid", and the general path decides.
func parsePlainDateTime(s string) (time.Time, bool) {
	n := len(s)
	if n < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	var v [14]byte // the 14 digits of YYYYMMDDHHMMSS
	for i, at := range [14]int{0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18} {
		c := s[at] - '0'
		if c > 9 {
			return time.Time{}, false
		}
		v[i] = c
	}
	year := int(v[0])*1000 + int(v[1])*100 + int(v[2])*10 + int(v[3])
	month := int(v[4])*10 + int(v[5])
	day := int(v[6])*10 + int(v[7])
	hour := int(v[8])*10 + int(v[9])
	minute := int(v[10])*10 + int(v[11])
	sec := int(v[12])*10 + int(v[13])
	if month < 1 || month > 12 || day < 1 || day > format.DaysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	i, nsec := 19, 0
	if s[i] == '.' {
		i++
		for i < n && i <= 29 && '0' <= s[i] && s[i] <= '9' {
			nsec = nsec*10 + int(s[i]-'0')
			i++
		}
		if i == 20 || i == 30 {
			return time.Time{}, false // no digit, or more than nine: the general path
		}
		for k := i; k < 29; k++ {
			nsec *= 10
		}
	}
	offset := 0
	switch {
	case n == i+1 && s[i] == 'Z':
	case n == i+6 && (s[i] == '+' || s[i] == '-') && s[i+3] == ':':
		h1, h2, m1, m2 := s[i+1]-'0', s[i+2]-'0', s[i+4]-'0', s[i+5]-'0'
		if h1 > 9 || h2 > 9 || m1 > 9 || m2 > 9 {
			return time.Time{}, false
		}
		zh, zm := int(h1)*10+int(h2), int(m1)*10+int(m2)
		if zh > 23 || zm > 59 {
			return time.Time{}, false
		}
		offset = (zh*60 + zm) * 60
		if s[i] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	unix := unixDays(year, month, day)*86400 + int64(hour*3600+minute*60+sec-offset)
	t := time.Unix(unix, int64(nsec)) // in time.Local
	if n == i+1 {
		return t.UTC(), true
	}
	if _, off := t.Zone(); off == offset {
		return t, true
	}
	return t.In(time.FixedZone("", offset)), true
}

// unixDays is the number of days from 1970-01-01 to year-month-day in the
// proleptic Gregorian calendar (negative before 1970), by the civil-to-days
// algorithm of Howard Hinnant's "chrono-Compatible Low-Level Date
// Algorithms" (days_from_civil).
func unixDays(year, month, day int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era-- // floor division
	}
	yoe := y - era*400 // [0, 399]
	mp := int64(month+9) % 12
	doy := (153*mp+2)/5 + int64(day) - 1   // [0, 365]
	doe := yoe*365 + yoe/4 - yoe/100 + doy // [0, 146096]
	return era*146097 + doe - 719468
}

// parseDateTimeSlow is ParseDateTime through time.Parse, for a date-time
// that IsDateTime accepted.
func parseDateTimeSlow(s string) (time.Time, bool) {
	if s[10] == 't' || s[len(s)-1] == 'z' {
		b := []byte(s)
		b[10] = 'T'
		if b[len(b)-1] == 'z' {
			b[len(b)-1] = 'Z'
		}
		s = string(b)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// ParseDate parses an RFC 3339 §5.6 full-date ("YYYY-MM-DD", JSON Schema
// format "date") into midnight UTC of that day; ok is false when [IsDate]
// rejects s.
func ParseDate(s string) (time.Time, bool) {
	if !IsDate(s) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

// TypeName names the JSON type (RFC 8259 §3) of a decoded value for error
// messages: "string", "number" (any Go number type or json.Number),
// "boolean", "array" ([]any or []string), "object" (map[string]any) or
// "null" (nil); "unknown" for any other Go type. Like [AddFieldError] it
// is never inlined: generated code calls it only to word a refusal.
//
//go:noinline
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, float32, json.Number, int, int64, int32, uint64:
		return "number"
	case []any, []string:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// MustTime returns t, or the zero time.Time when ok is false; it takes the two
// results of [ParseDate] or [ParseDateTime] directly. Generated code uses it
// for time defaults that mcpgen already checked at generation time, so ok is
// always true there.
func MustTime(t time.Time, ok bool) time.Time {
	if !ok {
		return time.Time{}
	}
	return t
}

// AnswerInt converts raw, the answer a form's content (MCP 2026-07-28,
// client/elicitation: ElicitResult.content) holds for field key, to *p,
// within the range of T ([asInt]). A value that is no integer is a "type"
// error, one beyond T's range a "range" error ([intRangeMessage], naming
// goType, the field's Go type as written), added to *ve; *p is then left
// as it was. It reports whether *p was set.
func AnswerInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](ve **engine.ValidationError, key string, raw any, goType string, p *T) bool {
	shift := 64 - 8*unsafe.Sizeof(T(0))
	lo, hi := int64(math.MinInt64)>>shift, int64(math.MaxInt64)>>shift
	x, st := asInt(raw, lo, hi)
	return setAnswer(ve, key, raw, goType, st, lo, uint64(hi), p, T(x))
}

// AnswerUint is [AnswerInt] for an unsigned T ([asUint]): a negative answer
// is a "range" error.
func AnswerUint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](ve **engine.ValidationError, key string, raw any, goType string, p *T) bool {
	hi := uint64(math.MaxUint64) >> (64 - 8*unsafe.Sizeof(T(0)))
	x, st := asUint(raw, hi)
	return setAnswer(ve, key, raw, goType, st, 0, hi, p, T(x))
}

// setAnswer sets *p to x when st is ConvOK, else adds the error of st for
// raw, the answer of field key, whose Go type goType holds [lo, hi].
func setAnswer[T any](ve **engine.ValidationError, key string, raw any, goType string, st Conv, lo int64, hi uint64, p *T, x T) bool {
	switch st {
	case ConvWrongType:
		AddFieldError(ve, key, "type", "must be an integer, got "+TypeName(raw))
		return false
	case ConvOutOfRange:
		AddFieldError(ve, key, "range", intRangeMessage(raw, goType, lo, hi))
		return false
	}
	*p = x
	return true
}
