package golden

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/plainargs"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// argumentsPerStruct is how many argument objects TestArgumentsDifferential
// tries on each tool.
const argumentsPerStruct = 5_000

// presentRules is Validate without "required": the rules of the elicitable
// fields an argument filled (the missing ones are asked for).
func presentRules(a runtime.Args) error {
	var ve *runtime.ValidationError
	if !errors.As(a.Validate(), &ve) {
		return a.Validate()
	}
	for _, fe := range ve.Errors {
		if fe.Keyword != "required" {
			return ve
		}
	}
	return nil
}

// TestArgumentsDifferential holds the generated decodeArguments of every
// golden tool whose rules it checks alone (no CheckInputSchema) to a real
// JSON Schema validator and encoding/json: for generated argument objects
// (valid, at and beyond every bound, of other types, null, absent, with
// unknown keys), the generated decoding and checks accept exactly when
// santhosh-tekuri/jsonschema/v6 (format assertions on) accepts them against
// the tool's input schema and encoding/json decodes them, and then both
// decodings give the same struct.
func TestArgumentsDifferential(t *testing.T) {
	tried := 0
	for i, gs := range goldenStructs() {
		f := gs.Def
		if f.Decode == nil || f.CheckInputSchema {
			continue
		}
		tried++
		t.Run(gs.Case+"/"+gs.Name, func(t *testing.T) {
			t.Parallel()
			schema := gs.Flow.InputSchema()
			v := compileSchema(t, schema)
			props := properties(t, schema)
			names := map[string]bool{}
			for _, p := range props {
				names[p.name] = true
			}
			g := &answerGen{r: newRand(uint64(1000 + i))}
			var bugs []string
			accepted := 0
			for range argumentsPerStruct {
				raw, vals := g.content(props)
				ours := f.New()
				err := f.Decode(ours, raw)
				if err == nil {
					err = presentRules(ours)
				}
				// The reference: the validator on the whole object, and
				// encoding/json on the keys the schema names (a key that
				// folds onto a field's name fills nothing in mcpgen).
				verr := v.Validate(decodeForValidator(t, raw))
				ref := f.New()
				exactOnly := map[string]json.RawMessage{}
				for k, val := range vals {
					if names[k] {
						exactOnly[k] = val
					}
				}
				for _, p := range props {
					// A full date: what the input schema announces for a
					// time.Time with format date, which encoding/json alone
					// cannot read.
					var str string
					if typ, _ := fieldType(ref, p.name); typ == timeType && p.p["format"] == "date" &&
						json.Unmarshal(exactOnly[p.name], &str) == nil && impl.IsDate(str) {
						exactOnly[p.name] = json.RawMessage(`"` + str + `T00:00:00Z"`)
					}
				}
				for k, val := range exactOnly {
					// encoding/json reads date-times with time.Parse, which
					// refuses the lower-case t and z RFC 3339 allows (section
					// 5.6); mcpgen reads them as the "date-time" format does.
					if typ, _ := fieldType(ref, k); typ == timeType {
						var str string
						if json.Unmarshal(val, &str) == nil && len(str) > 10 {
							str = str[:10] + strings.ToUpper(str[10:11]) + str[11:]
							if strings.HasSuffix(str, "z") {
								str = str[:len(str)-1] + "Z"
							}
							exactOnly[k], _ = json.Marshal(str)
						}
					}
				}
				b, _ := json.Marshal(exactOnly)
				uerr := json.Unmarshal(b, ref)
				// time.Parse cannot read some RFC 3339 date-times (a leap
				// second): an allowed disagreement, as for form answers.
				var pe *time.ParseError
				lowerTZ := errors.As(uerr, &pe) && err != nil && verr == nil
				theirsOK := verr == nil && uerr == nil
				if theirsOK {
					if rerr := presentRules(ref); rerr != nil {
						theirsOK = false
						verr = rerr
					}
				}
				switch {
				case lowerTZ:
					// time.Parse cannot read it (a leap second).
				case (err == nil) != theirsOK && err == nil && float32Only(ours, verr):
					// A bound the float32 cannot hold (1e-50 is 0 in a
					// float32): a value the Go type cannot hold.
				case (err == nil) != theirsOK:
					bugs = append(bugs, fmt.Sprintf("%s\n  mcpgen: %v\n  validator: %v, encoding/json: %v", raw, err, verr, uerr))
				case err == nil:
					accepted++
					if !reflect.DeepEqual(ours, ref) {
						bugs = append(bugs, fmt.Sprintf("%s\n  decoded %+v\n  encoding/json %+v", raw, ours, ref))
					}
				}
			}
			if len(bugs) > 0 {
				t.Errorf("%d of %d disagree; first: %s", len(bugs), argumentsPerStruct, bugs[0])
			}
			assert.Greater(t, accepted, 0, "accepted objects whose decodings are compared")
		})
	}
	require.Greater(t, tried, 0, "tools whose arguments are compared")
}

// float32Only reports whether every place the validator's error names is a
// float32 field of a.
func float32Only(a runtime.Args, verr error) bool {
	fields := validatorFields(verr)
	if len(fields) == 0 {
		return false
	}
	for name := range fields {
		typ, _ := fieldType(a, name)
		if typ == nil || typ.Kind() != reflect.Float32 {
			return false
		}
	}
	return true
}

// TestInputSchemaWrittenAsReflected: the input schema mcpgen writes at
// generation time (FlowSpec.Schema) is, byte for byte, the one
// invopop/jsonschema reflects from the struct at run time, for every golden
// tool it writes one for, so that tools/list is unchanged.
func TestInputSchemaWrittenAsReflected(t *testing.T) {
	written := 0
	for _, gs := range goldenStructs() {
		if gs.Def.Schema == nil {
			continue
		}
		written++
		reflected := gs.Def
		reflected.Schema = nil
		want, err := json.Marshal(build(reflected).InputSchema())
		require.NoError(t, err)
		got, err := json.Marshal(gs.Flow.InputSchema())
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s/%s", gs.Case, gs.Name)
	}
	assert.Greater(t, written, len(goldenStructs())/2)
}

// plainHandler runs Accept for the plainargs tools that the runtime reads
// with encoding/json, recording what Accept got.
type plainHandler[T any] struct{ got **T }

func (h plainHandler[T]) Accept(_ context.Context, a *T) (*runtime.Result, error) {
	*h.got = a
	return runtime.Text("ok"), nil
}
func (plainHandler[T]) Decline(context.Context, *T, []string) (*runtime.Result, error) {
	return runtime.Text("declined"), nil
}
func (plainHandler[T]) Cancel(context.Context, *T) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}

// A struct encoding/json decodes only as a whole (a ",string" option, its
// own UnmarshalJSON) gets no generated decodeArguments: the runtime reads it
// with encoding/json, so the option and the method apply.
func TestWholeStructArguments(t *testing.T) {
	opts := &runtime.Options{Keys: runtime.EphemeralKeyRing()}
	call := func(f *runtime.Flow, args string) *runtime.Response {
		t.Helper()
		resp, err := f.Call(context.Background(), opts, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(args), FormElicitation: true, ProtocolVersion: protocol.VersionMRTR})
		require.NoError(t, err)
		return resp
	}
	var counted *plainargs.Counted
	f := plainargs.NewCountedFlow(plainHandler[plainargs.Counted]{&counted})
	assert.Nil(t, defOf(f).Decode)
	resp := call(f, `{"id":"5"}`)
	require.NotNil(t, resp.Result)
	require.NotNil(t, counted, "%s", resp.Result.Text)
	assert.EqualValues(t, 5, counted.ID)

	var trimmed *plainargs.Trimmed
	g := plainargs.NewTrimmedFlow(plainHandler[plainargs.Trimmed]{&trimmed})
	assert.Nil(t, defOf(g).Decode)
	call(g, `{"name":"  ab  "}`)
	require.NotNil(t, trimmed)
	assert.Equal(t, "ab", trimmed.Name)
}

// Bounds are compared as JSON Schema compares the numbers: a float32
// holding 0.1 meets maximum=0.1; an int64 bound written as a float is the
// integer it is (9007199254740993 breaks maximum=9.007199254740992e15); an
// integer field's fractional bounds round inward (minimum=2.5 is 3,
// exclusiveMaximum=10.5 admits 10 and refuses 11).
func TestArgumentBoundsCompareValues(t *testing.T) {
	f := defOf(plainargs.NewSearchFlow(nil))
	base := `{"query":"go","exact":true,"After":"2026-07-28T09:30:00Z",`
	for args, want := range map[string]string{
		`"ratio":0.1}`:            "",
		`"ratio":0.1000001}`:      "ratio: must be at most 0.1",
		`"big":9007199254740992}`: "",
		`"big":9007199254740993}`: "big: must be at most 9.007199254740992e15",
		`"half":2}`:               "half: must be at least 2.5",
		`"half":3}`:               "",
		`"half":10}`:              "",
		`"half":11}`:              "half: must be less than 1.05e1",
	} {
		err := f.Decode(f.New(), []byte(base+args))
		if want == "" {
			assert.NoError(t, err, args)
		} else if assert.Error(t, err, args) {
			assert.Contains(t, err.Error(), want, args)
		}
	}
}
