package impl

import (
	"encoding/json"
	"math"
	"math/big"
	"testing"
)

// TestFloat64FastPaths holds the float64 fast paths of AsInt, AsUint and
// AsFloat64 (what encoding/json decodes numbers into) to the verdicts the
// same numbers get as json.Number written out exactly, which take the exact path, at the edges:
// fractions, NaN and infinities, the int64 and int8 limits, and 2^63.
func TestFloat64FastPaths(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 3, 3.5, -3.5, 127, 128, -128, -129, 1e18, -1e18,
		1 << 63, -(1 << 63), 1 << 64, 1e300, -1e300, 5e-324, math.MaxFloat64} {
		n := json.Number(new(big.Float).SetFloat64(f).Text('f', 1100)) // exact
		for _, r := range [][2]int64{{math.MinInt64, math.MaxInt64}, {math.MinInt8, math.MaxInt8}, {0, 100}} {
			gi, gs := AsInt(f, r[0], r[1])
			wi, ws := AsInt(n, r[0], r[1])
			if gi != wi || gs != ws {
				t.Errorf("AsInt(%v, %d, %d) = %d, %d; as json.Number %s: %d, %d", f, r[0], r[1], gi, gs, n, wi, ws)
			}
		}
		gu, gs := AsUint(f, math.MaxUint64)
		wu, ws := AsUint(n, math.MaxUint64)
		if gu != wu || gs != ws {
			t.Errorf("AsUint(%v) = %d, %d; as json.Number %s: %d, %d", f, gu, gs, n, wu, ws)
		}
		gf, gs := AsFloat64(f)
		wf, ws := AsFloat64(n)
		if gf != wf || gs != ws {
			t.Errorf("AsFloat64(%v) = %v, %d; as json.Number %s: %v, %d", f, gf, gs, n, wf, ws)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, st := AsInt(f, math.MinInt64, math.MaxInt64); st != ConvWrongType {
			t.Errorf("AsInt(%v) = %d, want ConvWrongType", f, st)
		}
		if _, st := AsUint(f, math.MaxUint64); st != ConvWrongType {
			t.Errorf("AsUint(%v) = %d, want ConvWrongType", f, st)
		}
		if _, st := AsFloat64(f); st != ConvWrongType {
			t.Errorf("AsFloat64(%v) = %d, want ConvWrongType", f, st)
		}
	}
}
