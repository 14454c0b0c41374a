package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	invopop "github.com/invopop/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
)

// The differential test: for every golden struct, at least answersPerStruct
// generated form answers (valid and invalid), in states where different
// fields are already set. ApplyContent must accept exactly when
// santhosh-tekuri/jsonschema/v6, with format assertions on, accepts the same
// content against the same RequestedSchema; the only disagreements allowed
// are the ones docs/tags.md lists under "What a form's answer must be" (see allowedDisagreement), each also pinned by
// TestAllowedDisagreements.
const answersPerStruct = 10_000

// answers is answersPerStruct, or a fifth of it under -short: the GOARCH=386
// run under qemu-i386 (.ci/386), where each answer costs many times more,
// runs with -test.short.
func answers() int {
	if testing.Short() {
		return answersPerStruct / 5
	}
	return answersPerStruct
}

// compileSchema compiles an invopop schema with santhosh-tekuri/jsonschema/v6
// (draft 2020-12, the default when $schema is absent), format assertions on.
func compileSchema(t testing.TB, s *invopop.Schema) *jsonschema.Schema {
	t.Helper()
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	doc := decodeForValidator(t, raw)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource("mem:///schema.json", doc))
	v, err := c.Compile("mem:///schema.json")
	require.NoError(t, err, "%s", raw)
	return v
}

// decodeForValidator decodes JSON the way the validator wants it (numbers as
// json.Number, exact).
func decodeForValidator(t testing.TB, raw []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err, "%s", raw)
	return v
}

// decodeContent decodes a form's content the way an SDK adapter hands it to
// ApplyContent: numbers as float64 (encoding/json's default, what go-sdk's
// ElicitResult.Content holds) or, with useNumber, as json.Number.
func decodeContent(raw []byte, useNumber bool) (map[string]any, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	if useNumber {
		d.UseNumber()
	}
	err := d.Decode(&m)
	return m, err
}

func clone(a runtime.Args) runtime.Args {
	v := reflect.ValueOf(a).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return c.Interface().(runtime.Args)
}

// fieldType returns the Go type of the field whose JSON name is name
// (encoding/json's visible fields), dereferenced.
func fieldType(a runtime.Args, name string) (reflect.Type, bool) {
	f, ok := jsonField(reflect.TypeOf(a).Elem(), name)
	if !ok {
		return nil, false
	}
	best := f.Type
	ptr := best.Kind() == reflect.Pointer
	if ptr {
		best = best.Elem()
	}
	return best, ptr
}

// jsonFields caches jsonField's answers by struct type and JSON name: the
// differential tests ask them for every answer, and reflect.VisibleFields
// is most of their cost.
var jsonFields sync.Map // jsonFieldKey → jsonFieldAnswer

type jsonFieldKey struct {
	t    reflect.Type
	name string
}

type jsonFieldAnswer struct {
	f  reflect.StructField
	ok bool
}

// jsonField is the field of struct type st that encoding/json reads the
// JSON name from: among the visible fields named so (by tag, or by Go name
// without one), the shallowest; an embedded struct without a json tag is
// not a field of its own.
func jsonField(st reflect.Type, name string) (reflect.StructField, bool) {
	key := jsonFieldKey{st, name}
	if a, ok := jsonFields.Load(key); ok {
		return a.(jsonFieldAnswer).f, a.(jsonFieldAnswer).ok
	}
	var best reflect.StructField
	found := false
	for _, f := range reflect.VisibleFields(st) {
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			continue
		}
		jn, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if jn == "" {
			jn = f.Name
		}
		if jn == name && (!found || len(f.Index) < len(best.Index)) {
			best, found = f, true
		}
	}
	jsonFields.Store(key, jsonFieldAnswer{best, found})
	return best, found
}

var timeType = reflect.TypeOf(time.Time{})

// cannotHold reports, independently of the generated code, whether the JSON
// number text cannot be held by a Go numeric kind: an integer outside the
// kind's range, or a float beyond the float type's largest finite value.
func cannotHold(k reflect.Kind, text string) bool {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return false
	}
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := map[reflect.Kind]uint{reflect.Int: strconv.IntSize, reflect.Int8: 8, reflect.Int16: 16, reflect.Int32: 32, reflect.Int64: 64}[k]
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), bits-1))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits-1), big.NewInt(1))
		return r.IsInt() && (r.Num().Cmp(lo) < 0 || r.Num().Cmp(hi) > 0)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := map[reflect.Kind]uint{reflect.Uint: strconv.IntSize, reflect.Uint8: 8, reflect.Uint16: 16, reflect.Uint32: 32, reflect.Uint64: 64}[k]
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
		return r.IsInt() && (r.Num().Sign() < 0 || r.Num().Cmp(hi) > 0)
	case reflect.Float32:
		f, _ := new(big.Float).SetRat(r).Float32()
		return math.IsInf(float64(f), 0)
	case reflect.Float64:
		f, _ := new(big.Float).SetRat(r).Float64()
		return math.IsInf(f, 0)
	}
	return false
}

// beyondExactInt reports whether text, read as a float64 as an SDK does, is
// an integer beyond ±impl.MaxExactInt for a field of integer kind k: one
// that may have been rounded on its way, which mcpgen refuses.
func beyondExactInt(k reflect.Kind, text string) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
	default:
		return false
	}
	f, err := strconv.ParseFloat(text, 64)
	return err == nil && f == math.Trunc(f) && math.Abs(f) > impl.MaxExactInt
}

// roundingMatters reports whether holding the JSON number text as a float64
// (as SDKs decode form content, and as mcpgen compares number bounds) can
// change a verdict of the property p: whether it is an integer, which side
// of a bound it falls on, or whether an integer kind can hold it.
func roundingMatters(text string, p map[string]any, kind reflect.Kind) bool {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return false
	}
	f, exact := r.Float64()
	if exact || math.IsInf(f, 0) {
		return false
	}
	fr := new(big.Rat).SetFloat64(f)
	if r.IsInt() != fr.IsInt() {
		return true
	}
	for _, k := range []string{"minimum", "maximum"} {
		b, ok := p[k].(json.Number)
		if !ok {
			continue
		}
		br, _ := new(big.Rat).SetString(string(b))
		bf, _ := strconv.ParseFloat(string(b), 64)
		if r.Cmp(br) != big.NewRat(int64(cmpFloat(f, bf)), 1).Sign() {
			return true
		}
	}
	return cannotHold(kind, text) != cannotHold(kind, fr.RatString())
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// allowedDisagreement says why a disagreement is one docs/tags.md allows, or ""
// when it is a bug. theirs is the validator's verdict, err ApplyContent's;
// float says the content went through float64 decoding.
func allowedDisagreement(a runtime.Args, props map[string]map[string]any, content map[string]json.RawMessage, required []string, err error, theirs, float bool) string {
	for name, raw := range content {
		typ, _ := fieldType(a, name)
		if typ == nil {
			continue
		}
		isFloat := typ.Kind() == reflect.Float32 || typ.Kind() == reflect.Float64
		if !float && !isFloat {
			continue
		}
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			continue
		}
		{
			if roundingMatters(string(n), props[name], typ.Kind()) {
				if float {
					return "float64 decoding changed a number"
				}
				return "value the Go type cannot hold (the number rounds in float64)"
			}
		}
	}
	if !theirs {
		return ""
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	reasons := map[string]bool{}
	for _, fe := range ve.Errors {
		raw := content[fe.Field]
		typ, ptr := fieldType(a, fe.Field)
		switch {
		case fe.Keyword == "range" && typ != nil && typ != timeType && cannotHold(typ.Kind(), string(raw)):
			reasons["value the Go type cannot hold"] = true
		case fe.Keyword == "range" && float && typ != nil && beyondExactInt(typ.Kind(), string(raw)):
			reasons["an integer beyond ±(2^53−1) read as a float64 (it may have been rounded)"] = true
		case fe.Keyword == "format" && typ == timeType && !timeParses(raw):
			reasons["time.Parse cannot read it"] = true
		case fe.Keyword == "range" && typ == timeType && !ptr && slices.Contains(required, fe.Field) && zeroTime(raw):
			reasons["the zero time.Time reads as no answer"] = true
		default:
			return ""
		}
	}
	var out []string
	for r := range reasons {
		out = append(out, r)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func timeParses(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return true
	}
	// Lower-case t and z are upper-cased first, as impl.ParseDateTime
	// does: only what time.Parse cannot read even then is admitted.
	if len(s) > 10 {
		s = s[:10] + strings.ToUpper(s[10:11]) + s[11:]
	}
	if _, err := time.Parse(time.RFC3339Nano, strings.TrimSuffix(s, "z")+map[bool]string{true: "Z"}[strings.HasSuffix(s, "z")]); err == nil {
		return true
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func zeroTime(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return false
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if tm, err := time.Parse(layout, strings.ToUpper(s)); err == nil {
			return tm.IsZero()
		}
	}
	return false
}

// property is one property of a requestedSchema, decoded.
type property struct {
	name     string
	p        map[string]any
	required bool
}

func properties(t testing.TB, s *invopop.Schema) []property {
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	var top struct {
		Required []string `json:"required"`
	}
	require.NoError(t, json.Unmarshal(raw, &top))
	var out []property
	for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
		b, err := json.Marshal(pair.Value)
		require.NoError(t, err)
		var p map[string]any
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		require.NoError(t, d.Decode(&p))
		out = append(out, property{pair.Key, p, slices.Contains(top.Required, pair.Key)})
	}
	return out
}

// newRand is the fixed-seed generator of the differential test.
func newRand(stream uint64) *rand.Rand { return rand.New(rand.NewPCG(20260728, stream)) }

// answerGen generates form content for a requestedSchema from the schema
// alone, with a fixed-seed math/rand/v2 source.
type answerGen struct{ r *rand.Rand }

func (g *answerGen) pick(list ...string) string { return list[g.r.IntN(len(list))] }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (g *answerGen) choices(p map[string]any) []string {
	if items, ok := p["items"].(map[string]any); ok {
		p = items
	}
	var out []string
	if e, ok := p["enum"].([]any); ok {
		for _, x := range e {
			out = append(out, x.(string))
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if list, ok := p[k].([]any); ok {
			for _, x := range list {
				out = append(out, x.(map[string]any)["const"].(string))
			}
		}
	}
	return out
}

func num(p map[string]any, k string) (float64, bool) {
	n, ok := p[k].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

const alphabet = "abcXYZ019 -_.@é日😀\u0301\"\\/\n\t"

func (g *answerGen) randString(n int) string {
	rs := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(rs[g.r.IntN(len(rs))])
	}
	return b.String()
}

func (g *answerGen) date() string {
	y := g.r.IntN(10000)
	if g.r.IntN(2) == 0 {
		y = 1990 + g.r.IntN(60)
	}
	m := 1 + g.r.IntN(12)
	days := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return fmt.Sprintf("%04d-%02d-%02d", y, m, 1+g.r.IntN(days))
}

func (g *answerGen) dateTime() string {
	var b strings.Builder
	b.WriteString(g.date())
	b.WriteString(g.pick("T", "T", "t"))
	fmt.Fprintf(&b, "%02d:%02d:%02d", g.r.IntN(24), g.r.IntN(60), g.r.IntN(60))
	if g.r.IntN(3) == 0 {
		b.WriteString("." + fmt.Sprintf("%09d", g.r.IntN(1000000000))[:1+g.r.IntN(9)])
	}
	switch g.r.IntN(4) {
	case 0:
		b.WriteString("z")
	case 1:
		fmt.Fprintf(&b, "%s%02d:%02d", g.pick("+", "-"), g.r.IntN(24), g.r.IntN(60))
	default:
		b.WriteString("Z")
	}
	return b.String()
}

var (
	validEmails = []string{"a@example.com", "first.last@sub.example.org", "x+tag@a-b.io", "\"john doe\"@example.com",
		"o'hara@example.ie", "user@[192.168.0.1]", "user@[IPv6:2001:db8::1]", "a!#$%&'*+/=?^_`{|}~-@x.y", "1@2.3.4.com", "A@B.CO"}
	badEmails = []string{"plain", "a@", "@b.com", "a..b@c.com", ".a@b.com", "a.@b.com", "a b@c.com", "a@-b.com", "a@b_c.com",
		"é@x.com", "a@[300.1.1.1]", strings.Repeat("x", 65) + "@a.com", "a@b@c.com", "\"a\"b\"@c.com", "a@" + strings.Repeat("x", 64) + ".com",
		"a@.com", "a@b..com", "", " a@b.com", "a@b.com "}
	validURIs = []string{"https://example.com/", "http://a.b/c?d=e#f", "mailto:x@y.z", "urn:isbn:0451450523", "ftp://[::1]:21/x",
		"foo:bar", "https://example.com:8080/path/to?q=1", "file:///etc/hosts", "x-y+z.w:rest", "HTTPS://EXAMPLE.COM"}
	badURIs = []string{"example.com", "/relative", "//host/path", "http://[::1", "http://a b.com", "://x", "", "1http://x",
		"http://[1.2.3.4]/", "%zz", "http://example.com/%zz", "?q", "#f", "a/b:c", "http://[::1]:port/"}
	badDates = []string{"2026-02-29", "2026-13-01", "2026-00-10", "2026-7-8", "20260728", "2026-07-28T00:00:00Z", "2026-07-32",
		"0000-00-00", "2026/07/28", "26-07-28", "2026-07-28 ", "２０２６-07-28", "2026-06-31", "2100-02-29"}
	badDateTimes = []string{"2026-07-28", "2026-07-28 09:30:00Z", "2026-07-28T24:00:00Z", "2026-07-28T09:60:00Z", "2026-07-28T09:30:00",
		"2026-07-28T09:30:00+2:00", "2026-07-28T09:30:00.Z", "2026-06-30T23:59:60Z", "2026-06-30T12:59:60Z", "2026-07-28T09:30:00+24:00",
		"2026-07-28T09:30:00+23:60", "2026-02-30T09:30:00Z", "2026-07-28T09:30Z", "2026-07-28T9:30:00Z", "2026-12-31T23:59:60+00:00",
		"2027-01-01T00:59:60+01:00", "2026-07-28T09:30:00.123456789123Z", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "2026-07-28T09:30:00ZZ"}
	hugeNumbers = []string{"1e20", "-1e20", "1e300", "-1e300", "1e400", "-1e400", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616", "3.5e38", "3.4028235e38",
		"-3.5e38", "1e-400", "9007199254740993", "255", "256", "-128", "-129", "127", "128", "65535", "65536", "32767", "-32769",
		"4294967295", "4294967296", "2147483647", "2147483648", "-2147483649"}
)

func (g *answerGen) validString(p map[string]any) string {
	if c := g.choices(p); len(c) > 0 {
		return jsonString(g.pick(c...))
	}
	switch p["format"] {
	case "email":
		return jsonString(g.pick(validEmails...))
	case "uri":
		return jsonString(g.pick(validURIs...))
	case "date":
		return jsonString(g.date())
	case "date-time":
		return jsonString(g.dateTime())
	}
	lo, hasLo := num(p, "minLength")
	hi, hasHi := num(p, "maxLength")
	if !hasHi {
		hi = lo + 12
	}
	if !hasLo {
		lo = 0
	}
	return jsonString(g.randString(int(lo) + g.r.IntN(int(hi-lo)+1)))
}

func (g *answerGen) validNumber(p map[string]any, integer bool) string {
	lo, hasLo := num(p, "minimum")
	hi, hasHi := num(p, "maximum")
	if !hasLo {
		lo = -1000
		if hasHi {
			lo = hi - 1000
		}
	}
	if !hasHi {
		hi = lo + 2000
	}
	if integer {
		lo, hi = math.Ceil(lo), math.Floor(hi)
		x := lo + math.Floor(g.r.Float64()*(hi-lo+1))
		if x > hi {
			x = hi
		}
		switch g.r.IntN(6) {
		case 0:
			return strconv.FormatFloat(x, 'f', 1, 64) // 3.0
		case 1:
			if x != 0 {
				return strconv.FormatFloat(x, 'e', -1, 64) // 1e+02
			}
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	switch g.r.IntN(8) {
	case 0:
		return strconv.FormatFloat(lo, 'f', -1, 64)
	case 1:
		return strconv.FormatFloat(hi, 'f', -1, 64)
	}
	return strconv.FormatFloat(lo+g.r.Float64()*(hi-lo), 'g', -1, 64)
}

func (g *answerGen) validArray(p map[string]any) string {
	c := slices.Clone(g.choices(p))
	g.r.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
	lo, _ := num(p, "minItems")
	hi, hasHi := num(p, "maxItems")
	if !hasHi || int(hi) > len(c) {
		hi = float64(len(c))
	}
	n := int(lo) + g.r.IntN(int(hi-lo)+1)
	b, _ := json.Marshal(c[:n])
	return string(b)
}

// valid returns a value the property accepts.
func (g *answerGen) valid(p map[string]any) string {
	switch p["type"] {
	case "string":
		return g.validString(p)
	case "integer":
		return g.validNumber(p, true)
	case "number":
		return g.validNumber(p, false)
	case "boolean":
		return g.pick("true", "false")
	case "array":
		return g.validArray(p)
	}
	panic(fmt.Sprintf("no generator for %v", p["type"]))
}

var wrongTypes = []string{`42`, `-1.5`, `true`, `false`, `null`, `[]`, `{}`, `["a"]`, `"x"`, `""`, `[1]`, `{"a":1}`, `"3"`, `"true"`, `[null]`, `[["a"]]`}

// edge returns a value near or beyond the property's rules, or of another
// type; the validator decides whether it is valid.
func (g *answerGen) edge(p map[string]any) string {
	if g.r.IntN(5) == 0 {
		return g.pick(wrongTypes...)
	}
	switch p["type"] {
	case "string":
		if c := g.choices(p); len(c) > 0 {
			x := g.pick(c...)
			return jsonString(g.pick(strings.ToUpper(x), " "+x, x+" ", x+x, "", "zzz", strings.ToUpper(x[:1])+x[1:]))
		}
		switch p["format"] {
		case "email":
			return jsonString(g.pick(badEmails...))
		case "uri":
			return jsonString(g.pick(badURIs...))
		case "date":
			return jsonString(g.pick(append(badDates, g.date())...))
		case "date-time":
			if g.r.IntN(3) == 0 {
				return jsonString(g.dateTime())
			}
			return jsonString(g.pick(badDateTimes...))
		}
		lo, hasLo := num(p, "minLength")
		hi, hasHi := num(p, "maxLength")
		var ns []int
		if hasLo {
			ns = append(ns, int(lo)-1, int(lo))
		}
		if hasHi {
			ns = append(ns, int(hi), int(hi)+1, int(hi)+5)
		}
		ns = append(ns, 0, 1, 40)
		n := max(ns[g.r.IntN(len(ns))], 0)
		return jsonString(g.randString(n))
	case "integer", "number":
		var cand []string
		for _, k := range []string{"minimum", "maximum"} {
			if x, ok := num(p, k); ok {
				cand = append(cand, strconv.FormatFloat(x-1, 'f', -1, 64), strconv.FormatFloat(x+1, 'f', -1, 64),
					strconv.FormatFloat(x, 'f', -1, 64), strconv.FormatFloat(x-0.001, 'f', -1, 64), strconv.FormatFloat(x+0.5, 'f', -1, 64))
			}
		}
		cand = append(cand, "3.0", "3.5", "1e2", "-0", "0", "0.0", "1.5e1", "12.5e-1", "-3", "2.0000000000000004")
		if g.r.IntN(3) == 0 {
			return g.pick(hugeNumbers...)
		}
		return g.pick(cand...)
	case "boolean":
		return g.pick(`"true"`, `1`, `0`, `"false"`, `null`, `[true]`)
	case "array":
		c := g.choices(p)
		x := g.pick(c...)
		lo, _ := num(p, "minItems")
		hi, hasHi := num(p, "maxItems")
		cands := []string{`[]`, fmt.Sprintf(`[%q,%q]`, x, x), `["zzz"]`, fmt.Sprintf(`[%q,1]`, x), jsonString(x),
			fmt.Sprintf(`[%q]`, strings.ToUpper(x)), fmt.Sprintf(`[[%q]]`, x)}
		all, _ := json.Marshal(c)
		cands = append(cands, string(all), string(all[:len(all)-1])+`,`+jsonString(x)+`]`)
		if lo > 0 {
			b, _ := json.Marshal(c[:int(lo)-1])
			cands = append(cands, string(b))
		}
		if hasHi && int(hi) < len(c) {
			b, _ := json.Marshal(c[:int(hi)+1])
			cands = append(cands, string(b))
		}
		return g.pick(cands...)
	}
	return `null`
}

// content builds one answer: each property is left out, valid, or an edge
// value; sometimes unknown keys join. It returns the JSON text and its values.
func (g *answerGen) content(props []property) ([]byte, map[string]json.RawMessage) {
	vals := map[string]json.RawMessage{}
	var keys []string
	allValid := g.r.IntN(10) < 4 // else each property is left out, valid or edge
	for _, p := range props {
		r := g.r.Float64()
		switch {
		case allValid && !p.required && r < 0.3:
			continue
		case allValid:
			vals[p.name] = json.RawMessage(g.valid(p.p))
		case r < 0.12:
			continue
		case r < 0.62:
			vals[p.name] = json.RawMessage(g.valid(p.p))
		default:
			vals[p.name] = json.RawMessage(g.edge(p.p))
		}
		keys = append(keys, p.name)
	}
	if g.r.IntN(6) == 0 {
		k := g.pick("extra", "zzz", "Name", "note", "_meta")
		if _, dup := vals[k]; !dup {
			vals[k] = json.RawMessage(g.pick(wrongTypes...))
			keys = append(keys, k)
		}
	}
	g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(k))
		b.WriteByte(':')
		b.Write(vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), vals
}

// diffStats counts one struct's run.
type diffStats struct {
	answers, accepted, rejected int
	allowed                     map[string]int
	example                     map[string]string // one content per allowed reason
	bugs                        []string
}

// TestDifferential is the differential test described above.
func TestDifferential(t *testing.T) {
	var total atomic.Int64
	t.Cleanup(func() { t.Logf("%d answers in all", total.Load()) })
	for si, gs := range goldenStructs() {
		t.Run(gs.Case+"."+gs.Name, func(t *testing.T) {
			t.Parallel()
			g := &answerGen{r: newRand(uint64(si))}
			st := diffStats{allowed: map[string]int{}, example: map[string]string{}}
			const states = 20
			for state := range states {
				base := gs.Def.New()
				if state > 0 {
					// Set a random subset of the fields with valid answers.
					var props []property
					for _, p := range properties(t, base.RequestedSchema(gs.Def.Fields...)) {
						if g.r.IntN(2) == 0 {
							props = append(props, p)
						}
					}
					vals := map[string]any{}
					for _, p := range props {
						v, err := decodeContent([]byte(fmt.Sprintf(`{"v":%s}`, g.valid(p.p))), false)
						require.NoError(t, err)
						vals[p.name] = v["v"]
					}
					_ = base.ApplyPartial(vals)
				}
				asked := toAsk(gs.Def, base)
				schema := base.RequestedSchema(asked...)
				if len(asked) == 0 {
					schema = base.RequestedSchema("-")
				}
				v := compileSchema(t, schema)
				props := properties(t, schema)
				byName := map[string]map[string]any{}
				for _, p := range props {
					byName[p.name] = p.p
				}
				n := answers() / states
				for range n {
					raw, vals := g.content(props)
					verr := v.Validate(decodeForValidator(t, raw))
					theirs := verr == nil
					st.answers++
					if theirs {
						st.accepted++
					} else {
						st.rejected++
					}
					for _, float := range []bool{false, true} {
						m, err := decodeContent(raw, !float)
						if err != nil {
							st.allowed["encoding/json cannot decode a number into float64 (content never reaches ApplyContent)"]++
							continue
						}
						a := clone(base)
						err = a.ApplyContent(m)
						ours := err == nil
						if ours {
							if verr := a.Validate(); verr != nil {
								st.bugs = append(st.bugs, fmt.Sprintf("ApplyContent accepted %s but Validate then fails: %v", raw, verr))
							}
							for _, name := range a.MissingFields() {
								if slices.Contains(schema.Required, name) {
									st.bugs = append(st.bugs, fmt.Sprintf("ApplyContent accepted %s but required %q still reads as missing", raw, name))
								}
							}
						}
						if ours && !float {
							if msg := checkValues(a, byName, vals); msg != "" {
								st.bugs = append(st.bugs, fmt.Sprintf("ApplyContent accepted %s but %s", raw, msg))
							}
						}
						if !theirs && !float {
							// ApplyPartial sets every answer the validator does not
							// name, and leaves the fields it names as they were.
							pa := clone(base)
							perr := pa.ApplyPartial(m)
							named := validatorFields(verr)
							var pve *runtime.ValidationError
							errors.As(perr, &pve)
							kept := map[string]map[string]any{}
							for name, p := range byName {
								allowed := false
								if pve != nil && !named[name] {
									for _, fe := range pve.Errors {
										if fe.Field == name {
											allowed = allowedDisagreement(base, byName, vals, schema.Required, &runtime.ValidationError{Errors: []runtime.FieldError{fe}}, true, false) != ""
											if !allowed {
												st.bugs = append(st.bugs, fmt.Sprintf("ApplyPartial refuses %q (%v), the validator does not: %s", name, fe, raw))
											}
										}
									}
								}
								if !named[name] && !allowed {
									kept[name] = p
								} else if fv, _ := fieldValue(pa, name); true {
									was, _ := fieldValue(base, name)
									if fv.IsValid() && was.IsValid() && !reflect.DeepEqual(fv.Interface(), was.Interface()) {
										st.bugs = append(st.bugs, fmt.Sprintf("ApplyPartial changed %q, which the validator refuses: %s", name, raw))
									}
								}
							}
							if msg := checkValues(pa, kept, vals); msg != "" {
								st.bugs = append(st.bugs, fmt.Sprintf("ApplyPartial on %s: %s", raw, msg))
							}
						}
						if !ours && !theirs && !float {
							// Both refuse: they must name the same fields, apart
							// from fields only we refuse for an allowed reason.
							if msg := sameFields(base, byName, vals, schema.Required, err, verr); msg != "" {
								st.bugs = append(st.bugs, fmt.Sprintf("%s\n  content: %s", msg, raw))
							}
						}
						if ours == theirs {
							continue
						}
						reason := allowedDisagreement(base, byName, vals, schema.Required, err, theirs, float)
						if reason == "" {
							st.bugs = append(st.bugs, fmt.Sprintf("float64 decoding=%v: validator accepts=%v, ApplyContent error=%v\n  schema: %s\n  content: %s",
								float, theirs, err, mustJSON(t, schema), raw))
							continue
						}
						st.allowed[reason]++
						if _, ok := st.example[reason]; !ok {
							st.example[reason] = fmt.Sprintf("%s → %v", raw, err)
						}
					}
				}
			}
			total.Add(int64(st.answers))
			t.Logf("%d answers (%d valid, %d invalid by the validator); allowed disagreements: %v", st.answers, st.accepted, st.rejected, st.allowed)
			for r, ex := range st.example {
				t.Logf("  e.g. %s: %s", r, ex)
			}
			require.GreaterOrEqual(t, st.answers, answers())
			require.Greater(t, st.accepted, st.answers/20, "too few valid answers to mean anything")
			require.Greater(t, st.rejected, st.answers/20, "too few invalid answers to mean anything")
			for i, b := range st.bugs {
				if i == 10 {
					t.Errorf("… and %d more", len(st.bugs)-10)
					break
				}
				t.Error(b)
			}
		})
	}
}

// fieldValue returns the field whose JSON name is name (encoding/json's
// visible fields), dereferenced; ok is false for a nil pointer.
func fieldValue(a runtime.Args, name string) (reflect.Value, bool) {
	v := reflect.ValueOf(a).Elem()
	f, _ := jsonField(v.Type(), name)
	fv := v.FieldByIndex(f.Index)
	if fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return fv, false
		}
		fv = fv.Elem()
	}
	return fv, true
}

// checkValues checks, after an accepted answer, that every asked field
// holds exactly what the content said (or its default when left out):
// strings as sent, integers equal to the exact JSON number, floats equal to
// the number rounded to the Go type, times as parsed, multi selects item by
// item.
func checkValues(a runtime.Args, props map[string]map[string]any, content map[string]json.RawMessage) string {
	for name, p := range props {
		raw, present := content[name]
		if !present {
			d, has := p["default"]
			if !has {
				continue
			}
			b, _ := json.Marshal(d)
			raw = b
		}
		fv, ok := fieldValue(a, name)
		if !ok {
			return fmt.Sprintf("%s is nil", name)
		}
		if msg := sameValue(fv, raw, p); msg != "" {
			return name + ": " + msg
		}
	}
	return ""
}

func sameValue(fv reflect.Value, raw json.RawMessage, p map[string]any) string {
	if fv.Type() == timeType {
		var s string
		_ = json.Unmarshal(raw, &s)
		want, ok := impl.ParseDateTime(s)
		if p["format"] == "date" {
			want, ok = impl.ParseDate(s)
		}
		if !ok || !fv.Interface().(time.Time).Equal(want) {
			return fmt.Sprintf("holds %v, want %s", fv.Interface(), s)
		}
		return ""
	}
	switch fv.Kind() {
	case reflect.String:
		var s string
		if json.Unmarshal(raw, &s) != nil || fv.String() != s {
			return fmt.Sprintf("holds %q, want %s", fv.String(), raw)
		}
	case reflect.Bool:
		var b bool
		if json.Unmarshal(raw, &b) != nil || fv.Bool() != b {
			return fmt.Sprintf("holds %v, want %s", fv.Bool(), raw)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		r, ok := new(big.Rat).SetString(string(raw))
		if !ok || !r.IsInt() || r.Num().Cmp(big.NewInt(fv.Int())) != 0 {
			return fmt.Sprintf("holds %d, want %s", fv.Int(), raw)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		r, ok := new(big.Rat).SetString(string(raw))
		if !ok || !r.IsInt() || r.Num().Cmp(new(big.Int).SetUint64(fv.Uint())) != 0 {
			return fmt.Sprintf("holds %d, want %s", fv.Uint(), raw)
		}
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(string(raw), 64)
		if fv.Kind() == reflect.Float32 {
			f = float64(float32(f))
		}
		if err != nil || fv.Float() != f {
			return fmt.Sprintf("holds %v, want %s", fv.Float(), raw)
		}
	case reflect.Slice:
		var want []string
		if json.Unmarshal(raw, &want) != nil || fv.Len() != len(want) {
			return fmt.Sprintf("holds %v, want %s", fv.Interface(), raw)
		}
		for i := range want {
			if fv.Index(i).String() != want[i] {
				return fmt.Sprintf("holds %v, want %s", fv.Interface(), raw)
			}
		}
	default:
		return "unexpected kind " + fv.Kind().String()
	}
	return ""
}

// validatorFields returns the properties a validation error names: the
// first step of each leaf error's instance location, and the missing names
// of a "required" error at the top.
func validatorFields(err error) map[string]bool {
	out := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if len(e.InstanceLocation) > 0 {
			out[e.InstanceLocation[0]] = true
		} else if r, ok := e.ErrorKind.(*kind.Required); ok {
			for _, m := range r.Missing {
				out[m] = true
			}
		}
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		walk(ve)
	}
	return out
}

// sameFields compares the fields ApplyContent refused with those the
// validator named.
func sameFields(a runtime.Args, props map[string]map[string]any, content map[string]json.RawMessage, required []string, ours, theirs error) string {
	var ve *runtime.ValidationError
	if !errors.As(ours, &ve) {
		return fmt.Sprintf("ApplyContent returned %v, not a *runtime.ValidationError", ours)
	}
	want := validatorFields(theirs)
	got := map[string]bool{}
	var extra []runtime.FieldError
	for _, fe := range ve.Errors {
		got[fe.Field] = true
		if !want[fe.Field] {
			extra = append(extra, fe)
		}
	}
	for f := range want {
		if !got[f] {
			return fmt.Sprintf("the validator refuses %q, ApplyContent does not (it says: %v; the validator: %v)", f, ours, theirs)
		}
	}
	if len(extra) > 0 {
		only := &runtime.ValidationError{Errors: extra}
		if allowedDisagreement(a, props, content, required, only, true, false) == "" {
			return fmt.Sprintf("ApplyContent refuses %v, the validator does not (the validator: %v)", only, theirs)
		}
	}
	return ""
}
