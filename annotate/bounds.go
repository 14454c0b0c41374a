package annotate

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

func boundsAllowZero(f *Field) bool {
	return (f.Minimum == nil || *f.Minimum <= 0) && (f.Maximum == nil || *f.Maximum >= 0)
}

// intRange is the range of the field's integer type, exactly.
func intRange(f *Field) (lo, hi *big.Int) { return IntRange(f.Basic) }

// IntRange is the range of the predeclared integer type basic ("int8",
// "uint", …), exactly; int and uint as on 64-bit platforms.
func IntRange(basic string) (lo, hi *big.Int) {
	i := func(x int64) *big.Int { return big.NewInt(x) }
	u := func(x uint64) *big.Int { return new(big.Int).SetUint64(x) }
	switch basic {
	case "int8":
		return i(math.MinInt8), i(math.MaxInt8)
	case "int16":
		return i(math.MinInt16), i(math.MaxInt16)
	case "int32", "rune":
		return i(math.MinInt32), i(math.MaxInt32)
	case "uint8", "byte":
		return i(0), u(math.MaxUint8)
	case "uint16":
		return i(0), u(math.MaxUint16)
	case "uint32":
		return i(0), u(math.MaxUint32)
	case "uint", "uint64":
		return i(0), u(math.MaxUint64)
	}
	return i(math.MinInt64), i(math.MaxInt64)
}

// Why exactInt could not read a literal as an integer.
const (
	isInt     = iota
	notNumber // not a finite number
	notWhole  // a number with a fraction
	inexact   // in float notation beyond 2^53, where float64 rounds
)

// exactInt reads an integer literal exactly: plain digits (with an optional
// sign) of any size, or a whole number in float notation (1e3, 10.0) up to
// 2^53, where float64 is still exact. For inexact it returns the rounded
// value as a suggestion.
func exactInt(s string) (*big.Int, int) {
	if n, ok := new(big.Int).SetString(s, 10); ok {
		return n, isInt
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return nil, notNumber
	}
	if x != math.Trunc(x) {
		return nil, notWhole
	}
	n, _ := new(big.Float).SetFloat64(x).Int(nil)
	if math.Abs(x) > 1<<53 {
		return n, inexact
	}
	return n, isInt
}

// compareBounds compares two bounds of the field as written (MinimumLit,
// MaximumLit): exactly for integers, as float64 for numbers.
func compareBounds(f *Field, a, b string) int {
	if f.Kind == Integer {
		x, _ := new(big.Int).SetString(a, 10)
		y, _ := new(big.Int).SetString(b, 10)
		if x != nil && y != nil {
			return x.Cmp(y)
		}
	}
	x, _ := strconv.ParseFloat(a, 64)
	y, _ := strconv.ParseFloat(b, 64)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// floatLimit is the largest finite magnitude of the field's float type.
func floatLimit(f *Field) float64 {
	if f.Basic == "float32" {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

func fmtLimit(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func widerHint(f *Field) string {
	if f.Basic == "float32" {
		return ", or use float64"
	}
	return ""
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// canonicalNumber writes a number literal the way JSON would: no '+', no
// leading zeros, no trailing ".0".
func canonicalNumber(s string) string {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// boundsMsg checks a default, written as a number literal, against the bounds.
func boundsMsg(f *Field, lit string) string {
	if f.Minimum != nil && compareBounds(f, lit, f.MinimumLit) < 0 {
		return fmt.Sprintf("below minimum=%s; pick a default within the bounds", f.MinimumLit)
	}
	if f.Maximum != nil && compareBounds(f, lit, f.MaximumLit) > 0 {
		return fmt.Sprintf("above maximum=%s; pick a default within the bounds", f.MaximumLit)
	}
	return ""
}
