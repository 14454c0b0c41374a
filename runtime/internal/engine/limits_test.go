package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// limitCall runs round 1 of plan_trip under opts, then retries with content
// as the accepted answer (and args as the retry's arguments). It returns the
// retry's error, whether a branch ran, and the rejections reported.
func limitCall(t *testing.T, opts engine.Options, args string, content map[string]any) (bool, []engine.Rejection, error) {
	t.Helper()
	var rejects []engine.Rejection
	opts.Keys = engine.EphemeralKeyRing()
	opts.OnReject = func(_ context.Context, r engine.Rejection) { rejects = append(rejects, r) }
	rec := &fixture.TripRecorder{}
	flow := fixture.NewTripFlow(rec)
	r1, err := flow.Call(context.Background(), &opts, &protocol.Request{
		Method: "tools/call", Arguments: json.RawMessage(`{"city":"Paris"}`), FormElicitation: true,
	})
	require.NoError(t, err)
	require.NotEmpty(t, r1.RequestState)
	_, err = flow.Call(context.Background(), &opts, &protocol.Request{
		Method: "tools/call", Arguments: json.RawMessage(args), FormElicitation: true,
		RequestState: r1.RequestState,
		InputResponses: map[string]protocol.InputResponse{
			"plan_trip": &protocol.ElicitResult{Action: engine.Accept, Content: content},
		},
	})
	return rec.Count() > 0, rejects, err
}

func requireLimitRejection(t *testing.T, err error, ran bool, rejects []engine.Rejection, sentinel error, words ...string) {
	t.Helper()
	var pe *protocol.Error
	require.True(t, errors.As(err, &pe), "want a protocol error, got %v", err)
	assert.Equal(t, int64(protocol.CodeInvalidParams), pe.Code)
	for _, w := range words {
		assert.Contains(t, pe.Message, w)
	}
	assert.False(t, ran, "a branch ran")
	require.Len(t, rejects, 1)
	assert.ErrorIs(t, rejects[0].Err, sentinel)
}

func valid(name string) map[string]any {
	return map[string]any{"name": name, "email": "a@example.com", "nights": float64(2)}
}

func TestMaxStringBytes(t *testing.T) {
	// The longest string is the email, a@example.com: 13 bytes.
	opts := engine.Options{MaxStringBytes: 13}
	ran, rejects, err := limitCall(t, opts, `{"city":"Paris"}`, valid("Adaaaaaaaaaaa"))
	require.NoError(t, err)
	assert.True(t, ran, "13-byte strings are within MaxStringBytes=13")
	assert.Empty(t, rejects)

	// Checked before anything else: the broken arguments are never read.
	ran, rejects, err = limitCall(t, opts, `{"city":`, valid("Adaaaaaaaaaaaa"))
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge,
		`inputResponses["plan_trip"]`, `field "name"`, "14 bytes", "limit of 13", "MaxStringBytes")

	// Bytes, not characters: 7 × "é" is 14 bytes.
	ran, rejects, err = limitCall(t, opts, `{"city":"Paris"}`, valid("ééééééé"))
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge, "14 bytes")
}

func TestMaxStringBytesDefault(t *testing.T) {
	ran, rejects, err := limitCall(t, engine.Options{}, `{"city":"Paris"}`, valid(strings.Repeat("x", engine.DefaultMaxStringBytes+1)))
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge, "MaxStringBytes")
	// The same answer passes the limit (and fails maxLength=20 instead) when
	// the limit is off.
	_, rejects, err = limitCall(t, engine.Options{MaxStringBytes: -1}, `{"city":"Paris"}`, valid(strings.Repeat("x", engine.DefaultMaxStringBytes+1)))
	require.NoError(t, err)
	assert.Empty(t, rejects)
}

func TestMaxSelectItems(t *testing.T) {
	opts := engine.Options{MaxSelectItems: 2}
	c := valid("Ada")
	c["tags"] = []any{"a", "b"}
	ran, _, err := limitCall(t, opts, `{"city":"Paris"}`, c)
	require.NoError(t, err)
	assert.True(t, ran)

	c["tags"] = []any{"a", "b", "c"}
	ran, rejects, err := limitCall(t, opts, `{"city":"Paris"}`, c)
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge, `field "tags"`, "3 items", "limit of 2", "MaxSelectItems")

	// Content built in Go (elicittest, an adapter) may hold a []string.
	c["tags"] = []string{"a", "b", "c"}
	ran, rejects, err = limitCall(t, opts, `{"city":"Paris"}`, c)
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge, `field "tags"`, "3 items", "limit of 2", "MaxSelectItems")
}

func TestMaxContentBytes(t *testing.T) {
	// name(4)+Ada(3) + email(5)+a@example.com(13) + nights(6)+number(8) = 39.
	ran, _, err := limitCall(t, engine.Options{MaxContentBytes: 39}, `{"city":"Paris"}`, valid("Ada"))
	require.NoError(t, err)
	assert.True(t, ran)

	ran, rejects, err := limitCall(t, engine.Options{MaxContentBytes: 38}, `{"city":"Paris"}`, valid("Ada"))
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge, "limit of 38 bytes", "MaxContentBytes")

	// Keys the form did not ask for count too: padding cannot slip through.
	c := valid("Ada")
	for i := 0; i < 2000; i++ {
		c[strings.Repeat("k", 10)+string(rune('a'+i%26))+strings.Repeat("z", i/26)] = "padding-padding-padding"
	}
	ran, rejects, err = limitCall(t, engine.Options{}, `{"city":"Paris"}`, c)
	requireLimitRejection(t, err, ran, rejects, engine.ErrContentTooLarge, "MaxContentBytes")
}

func TestMaxStateSizeCheckedFirst(t *testing.T) {
	var rejects []engine.Rejection
	opts := &engine.Options{Keys: engine.EphemeralKeyRing(), MaxStateSize: 100,
		OnReject: func(_ context.Context, r engine.Rejection) { rejects = append(rejects, r) }}
	rec := &fixture.TripRecorder{}
	_, err := fixture.NewTripFlow(rec).Call(context.Background(), opts, &protocol.Request{
		Method: "tools/call", Arguments: json.RawMessage(`not json`), FormElicitation: true,
		RequestState: strings.Repeat("A", 101),
	})
	requireLimitRejection(t, err, rec.Count() > 0, rejects, engine.ErrStateTooLarge, "101 characters", "limit of 100", "MaxStateSize")
}

// Arguments over MaxArgumentsBytes (default 64 KiB) are refused before they
// are decoded, on a first call as on a retry, with -32602 naming the limit.
func TestMaxArgumentsBytes(t *testing.T) {
	call := func(opts engine.Options, args string) (bool, []engine.Rejection, error) {
		var rejects []engine.Rejection
		opts.Keys = engine.EphemeralKeyRing()
		opts.OnReject = func(_ context.Context, r engine.Rejection) { rejects = append(rejects, r) }
		rec := &fixture.TripRecorder{}
		_, err := fixture.NewTripFlow(rec).Call(context.Background(), &opts, &protocol.Request{
			Method: "tools/call", Arguments: json.RawMessage(args), FormElicitation: true,
		})
		return rec.Count() > 0, rejects, err
	}
	big := `{"city":"` + strings.Repeat("x", 64<<10) + `"}`
	ran, rejects, err := call(engine.Options{}, big)
	requireLimitRejection(t, err, ran, rejects, engine.ErrArgumentsTooLarge,
		"arguments of 65547 bytes", "limit of 65536", "Options.MaxArgumentsBytes")

	// Checked before decoding: arguments that are not even JSON get the limit's error.
	ran, rejects, err = call(engine.Options{MaxArgumentsBytes: 10}, `not json at all`)
	requireLimitRejection(t, err, ran, rejects, engine.ErrArgumentsTooLarge, "limit of 10")

	// On a retry too.
	ran, rejects, err = limitCall(t, engine.Options{MaxArgumentsBytes: 20}, `{"city":"Paris","pad":"xxxxxxxxxx"}`, valid("Ada"))
	requireLimitRejection(t, err, ran, rejects, engine.ErrArgumentsTooLarge, "limit of 20")

	// Negative: no limit.
	_, rejects, err = call(engine.Options{MaxArgumentsBytes: -1}, big)
	require.NoError(t, err)
	assert.Empty(t, rejects)
}
