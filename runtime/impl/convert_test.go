package impl

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// TestFloat64FastPaths holds the float64 fast paths of asInt, asUint and
// AsFloat64 (what encoding/json decodes numbers into) to the verdicts the
// same numbers get as json.Number written out exactly, which take the exact path, at the edges:
// fractions, NaN and infinities, the int64 and int8 limits, ±(2^53−1) and 2^63.
// Beyond ±MaxExactInt an integer that arrived as a float64 may have been
// rounded on its way, so it is refused (ConvOutOfRange) where the exact
// decimal would be taken.
func TestFloat64FastPaths(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 3, 3.5, -3.5, 127, 128, -128, -129, 1e18, -1e18,
		MaxExactInt, -MaxExactInt, MaxExactInt + 1, -MaxExactInt - 1,
		1 << 63, -(1 << 63), 1 << 64, 1e300, -1e300, 5e-324, math.MaxFloat64} {
		n := json.Number(new(big.Float).SetFloat64(f).Text('f', 1100)) // exact
		beyond := math.Abs(f) > MaxExactInt
		for _, r := range [][2]int64{{math.MinInt64, math.MaxInt64}, {math.MinInt8, math.MaxInt8}, {0, 100}} {
			gi, gs := asInt(f, r[0], r[1])
			wi, ws := asInt(n, r[0], r[1])
			if beyond && ws == ConvOK {
				wi, ws = 0, ConvOutOfRange
			}
			if gi != wi || gs != ws {
				t.Errorf("asInt(%v, %d, %d) = %d, %d; as json.Number %s: %d, %d", f, r[0], r[1], gi, gs, n, wi, ws)
			}
		}
		gu, gs := asUint(f, math.MaxUint64)
		wu, ws := asUint(n, math.MaxUint64)
		if beyond && ws == ConvOK {
			wu, ws = 0, ConvOutOfRange
		}
		if gu != wu || gs != ws {
			t.Errorf("asUint(%v) = %d, %d; as json.Number %s: %d, %d", f, gu, gs, n, wu, ws)
		}
		gf, gs := AsFloat64(f)
		wf, ws := AsFloat64(n)
		if gf != wf || gs != ws {
			t.Errorf("AsFloat64(%v) = %v, %d; as json.Number %s: %v, %d", f, gf, gs, n, wf, ws)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, st := asInt(f, math.MinInt64, math.MaxInt64); st != ConvWrongType {
			t.Errorf("asInt(%v) = %d, want ConvWrongType", f, st)
		}
		if _, st := asUint(f, math.MaxUint64); st != ConvWrongType {
			t.Errorf("asUint(%v) = %d, want ConvWrongType", f, st)
		}
		if _, st := AsFloat64(f); st != ConvWrongType {
			t.Errorf("AsFloat64(%v) = %d, want ConvWrongType", f, st)
		}
	}
}

// TestPlatformIntBounds holds asInt and asUint, called with the bounds that
// generated code passes for an int or uint field (math.MinInt, math.MaxInt,
// math.MaxUint), to the platform's int size: on 386 and arm (32 bits)
// 4294967297 does not fit in an int nor 4294967296 in a uint, and is
// refused; on amd64 and arm64 both are held exactly. Every value is tried as
// a float64 (what encoding/json decodes), a json.Number and a Go int64.
func TestPlatformIntBounds(t *testing.T) {
	if strconv.IntSize != 32 && strconv.IntSize != 64 {
		t.Fatalf("strconv.IntSize = %d", strconv.IntSize)
	}
	wide := strconv.IntSize == 64
	forms := func(i int64) []any {
		return []any{float64(i), json.Number(strconv.FormatInt(i, 10)), i}
	}
	for _, tc := range []struct {
		n    int64
		fits bool
	}{
		{0, true},
		{-1, true},
		{math.MaxInt32, true},
		{math.MinInt32, true},
		{math.MaxInt32 + 1, wide},
		{math.MinInt32 - 1, wide},
		{1<<32 + 1, wide}, // 4294967297: wrapped to 1 in an int on 386
		{-(1<<32 + 1), wide},
		{1 << 52, wide},
	} {
		for _, v := range forms(tc.n) {
			got, st := asInt(v, math.MinInt, math.MaxInt)
			if tc.fits && (st != ConvOK || got != tc.n || int64(int(got)) != tc.n) {
				t.Errorf("asInt(%T %v, MinInt, MaxInt) = %d, %d; want %d, ConvOK (%d-bit int)", v, v, got, st, tc.n, strconv.IntSize)
			}
			if !tc.fits && (st != ConvOutOfRange || got != 0) {
				t.Errorf("asInt(%T %v, MinInt, MaxInt) = %d, %d; want 0, ConvOutOfRange (%d-bit int)", v, v, got, st, strconv.IntSize)
			}
		}
	}
	for _, tc := range []struct {
		n    uint64
		fits bool
	}{
		{0, true},
		{math.MaxUint32, true},
		{1 << 32, wide}, // 4294967296: wrapped to 0 in a uint on 386
		{1<<32 + 1, wide},
		{1 << 52, wide},
	} {
		for _, v := range []any{float64(tc.n), json.Number(strconv.FormatUint(tc.n, 10)), tc.n} {
			got, st := asUint(v, math.MaxUint)
			if tc.fits && (st != ConvOK || got != tc.n || uint64(uint(got)) != tc.n) {
				t.Errorf("asUint(%T %v, MaxUint) = %d, %d; want %d, ConvOK (%d-bit uint)", v, v, got, st, tc.n, strconv.IntSize)
			}
			if !tc.fits && (st != ConvOutOfRange || got != 0) {
				t.Errorf("asUint(%T %v, MaxUint) = %d, %d; want 0, ConvOutOfRange (%d-bit uint)", v, v, got, st, strconv.IntSize)
			}
		}
	}
	// The platform's own limits are held, one past them refused.
	if got, st := asInt(json.Number(strconv.FormatInt(math.MaxInt, 10)), math.MinInt, math.MaxInt); st != ConvOK || got != math.MaxInt {
		t.Errorf("asInt(MaxInt) = %d, %d", got, st)
	}
	if got, st := asInt(json.Number(strconv.FormatInt(math.MinInt, 10)), math.MinInt, math.MaxInt); st != ConvOK || got != math.MinInt {
		t.Errorf("asInt(MinInt) = %d, %d", got, st)
	}
	past := new(big.Int).Add(big.NewInt(math.MaxInt), big.NewInt(1))
	if _, st := asInt(json.Number(past.String()), math.MinInt, math.MaxInt); st != ConvOutOfRange {
		t.Errorf("asInt(MaxInt+1 = %s) = %d, want ConvOutOfRange", past, st)
	}
	if got, st := asUint(json.Number(strconv.FormatUint(math.MaxUint, 10)), math.MaxUint); st != ConvOK || got != math.MaxUint {
		t.Errorf("asUint(MaxUint) = %d, %d", got, st)
	}
	past = new(big.Int).Add(new(big.Int).SetUint64(math.MaxUint), big.NewInt(1))
	if _, st := asUint(json.Number(past.String()), math.MaxUint); st != ConvOutOfRange {
		t.Errorf("asUint(MaxUint+1 = %s) = %d, want ConvOutOfRange", past, st)
	}
}

// An integer beyond ±(2^53−1) that arrives as a float64 is refused with a
// message that says why, never taken rounded: 9007199254740993 decodes to
// 9007199254740992. As a json.Number, or a Go integer, it is exact.
func TestInexactFloatIntegers(t *testing.T) {
	var decoded any
	if err := json.Unmarshal([]byte(`9007199254740993`), &decoded); err != nil {
		t.Fatal(err)
	}
	if x, st := asInt(decoded, math.MinInt64, math.MaxInt64); st != ConvOutOfRange {
		t.Errorf("asInt(float64 of 2^53+1) = %d, %d; want ConvOutOfRange", x, st)
	}
	if x, st := asUint(decoded, math.MaxUint64); st != ConvOutOfRange {
		t.Errorf("asUint(float64 of 2^53+1) = %d, %d; want ConvOutOfRange", x, st)
	}
	if msg := intRangeMessage(decoded, "int64", math.MinInt64, math.MaxInt64); !strings.Contains(msg, "lost digits") {
		t.Errorf("intRangeMessage(2^53+1 for int64) = %q", msg)
	}
	if msg := intRangeMessage(decoded, "int32", math.MinInt32, math.MaxInt32); msg != "does not fit in int32" {
		t.Errorf("intRangeMessage(2^53+1 for int32) = %q", msg)
	}
	if msg := intRangeMessage(float64(300), "int8", math.MinInt8, math.MaxInt8); msg != "does not fit in int8" {
		t.Errorf("intRangeMessage(300 for int8) = %q", msg)
	}
	for _, v := range []any{json.Number("9007199254740993"), int64(9007199254740993), uint64(9007199254740993)} {
		if x, st := asInt(v, math.MinInt64, math.MaxInt64); st != ConvOK || x != 9007199254740993 {
			t.Errorf("asInt(%T 2^53+1) = %d, %d", v, x, st)
		}
		if x, st := asUint(v, math.MaxUint64); st != ConvOK || x != 9007199254740993 {
			t.Errorf("asUint(%T 2^53+1) = %d, %d", v, x, st)
		}
	}
	if x, st := asInt(float64(MaxExactInt), math.MinInt64, math.MaxInt64); st != ConvOK || x != MaxExactInt {
		t.Errorf("asInt(2^53-1) = %d, %d", x, st)
	}
}
