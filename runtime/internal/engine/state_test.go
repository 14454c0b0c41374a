package engine_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// env is one server's view of the plan_trip flow: a recording handler, the
// options (with a settable clock) and every rejection the hook received.
type env struct {
	t    *testing.T
	rec  *fixture.TripRecorder
	flow *engine.Flow
	opts *engine.Options

	mu      sync.Mutex
	rejects []engine.Rejection
	now     time.Time
}

var t0 = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)

func newEnv(t *testing.T, keys *engine.KeyRing) *env {
	t.Helper()
	if keys == nil {
		keys = engine.EphemeralKeyRing()
	}
	e := &env{t: t, rec: &fixture.TripRecorder{}, now: t0}
	e.flow = fixture.NewTripFlow(e.rec)
	e.opts = &engine.Options{
		Keys: keys,
		Now: func() time.Time {
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.now
		},
		OnReject: func(_ context.Context, r engine.Rejection) {
			e.mu.Lock()
			e.rejects = append(e.rejects, r)
			e.mu.Unlock()
		},
	}
	return e
}

func (e *env) setNow(t time.Time) {
	e.mu.Lock()
	e.now = t
	e.mu.Unlock()
}

// rejections returns how many rejections the hook saw, and the last one.
func (e *env) rejections() (int, engine.Rejection) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.rejects) == 0 {
		return 0, engine.Rejection{}
	}
	return len(e.rejects), e.rejects[len(e.rejects)-1]
}

// req is a 2026-07-28 tools/call from a client that declares form elicitation.
func req(args string, state string, responses map[string]protocol.InputResponse) *protocol.Request {
	return &protocol.Request{
		Method: "tools/call", Arguments: json.RawMessage(args), RequestState: state,
		InputResponses: responses, FormElicitation: true, ProtocolVersion: protocol.VersionMRTR,
	}
}

func accept(key string, content map[string]any) map[string]protocol.InputResponse {
	return map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: engine.Accept, Content: content}}
}

func act(key string, a engine.Action) map[string]protocol.InputResponse {
	return map[string]protocol.InputResponse{key: &protocol.ElicitResult{Action: a}}
}

const paris = `{"city":"Paris"}`

var goodAnswer = map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 3}

// ask runs a call that must return an input-required response.
func (e *env) ask(r *protocol.Request) *engine.Response {
	e.t.Helper()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.NoError(e.t, err)
	require.Nil(e.t, resp.Result, "expected input requests, got a result: %+v", resp.Result)
	require.NotEmpty(e.t, resp.RequestState)
	require.Len(e.t, resp.InputRequests, 1)
	return resp
}

// done runs a call that must complete and returns the result.
func (e *env) done(r *protocol.Request) *engine.Result {
	e.t.Helper()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.NoError(e.t, err)
	require.NotNil(e.t, resp.Result, "expected a result, got input requests %v", resp.InputRequests)
	require.Empty(e.t, resp.InputRequests)
	require.Empty(e.t, resp.RequestState)
	return resp.Result
}

// rejected runs a retry that must be refused with -32602, report one more
// rejection with a reason, and run no branch.
func (e *env) rejected(r *protocol.Request, why string) {
	e.t.Helper()
	before, _ := e.rejections()
	ran := e.rec.Count()
	resp, err := e.flow.Call(context.Background(), e.opts, r)
	require.Nil(e.t, resp, "%s: a hostile state produced a response", why)
	var pe *protocol.Error
	require.ErrorAs(e.t, err, &pe, "%s", why)
	require.EqualValues(e.t, -32602, pe.Code, "%s", why)
	n, last := e.rejections()
	require.Equal(e.t, before+1, n, "%s: the hook sees every rejection", why)
	require.NotEmpty(e.t, last.Reason, why)
	require.Error(e.t, last.Err, why)
	require.Equal(e.t, "plan_trip", last.Flow)
	require.Equal(e.t, ran, e.rec.Count(), "%s: no branch may run", why)
}

func TestHostileStates(t *testing.T) {
	e := newEnv(t, nil)
	first := e.ask(req(paris, "", nil))
	state := first.RequestState
	answer := accept("plan_trip", goodAnswer)

	t.Run("bit flips of the base64 text", func(t *testing.T) {
		for i := 0; i < len(state); i++ {
			for bit := 0; bit < 8; bit++ {
				b := []byte(state)
				b[i] ^= 1 << bit
				e.rejected(req(paris, string(b), answer), "text flip")
			}
		}
	})
	t.Run("bit flips of the sealed bytes", func(t *testing.T) {
		raw, err := base64.RawURLEncoding.DecodeString(state)
		require.NoError(t, err)
		for i := range raw {
			for bit := 0; bit < 8; bit++ {
				b := append([]byte(nil), raw...)
				b[i] ^= 1 << bit
				e.rejected(req(paris, base64.RawURLEncoding.EncodeToString(b), answer), "byte flip")
			}
		}
	})
	t.Run("truncations", func(t *testing.T) {
		for n := 1; n < len(state); n++ {
			e.rejected(req(paris, state[:n], answer), "truncated")
		}
		raw, _ := base64.RawURLEncoding.DecodeString(state)
		for n := 1; n < len(raw); n++ {
			e.rejected(req(paris, base64.RawURLEncoding.EncodeToString(raw[:n]), answer), "truncated bytes")
		}
	})
	t.Run("not base64", func(t *testing.T) {
		// Line breaks anywhere: encoding/base64 skips them, but a state has
		// one spelling.
		for _, s := range []string{"!!!!", state + "=", strings.ReplaceAll(state, state[5:6], "+"), "é" + state, state + " ", `{"r":1}`,
			state[:10] + "\n" + state[10:], state[:10] + "\r\n" + state[10:], state + "\n", "\r" + state} {
			e.rejected(req(paris, s, answer), "not base64: "+s)
		}
	})
	t.Run("standard padded base64 of the same bytes", func(t *testing.T) {
		raw, _ := base64.RawURLEncoding.DecodeString(state)
		if std := base64.StdEncoding.EncodeToString(raw); std != state {
			e.rejected(req(paris, std, answer), "std base64")
		}
	})
	t.Run("1 MiB of garbage", func(t *testing.T) {
		g := make([]byte, 3<<18)
		_, _ = rand.Read(g)
		s := base64.RawURLEncoding.EncodeToString(g)
		require.GreaterOrEqual(t, len(s), 1<<20)
		e.rejected(req(paris, s, answer), "1 MiB")
	})
	t.Run("same tool, other arguments", func(t *testing.T) {
		e.rejected(req(`{"city":"Rome"}`, state, answer), "other arguments")
		e.rejected(req(`{"city":"Paris","name":"Eve"}`, state, answer), "an extra argument")
		e.rejected(req(`{}`, state, answer), "no arguments")
	})
	t.Run("another principal", func(t *testing.T) {
		r := req(paris, state, answer)
		r.Principal = "mallory"
		e.rejected(r, "principal")
	})
	t.Run("another method", func(t *testing.T) {
		r := req(paris, state, answer)
		r.Method = "prompts/get"
		e.rejected(r, "method")
	})
	t.Run("a state from another tool", func(t *testing.T) {
		other := engine.Redefine(fixture.NewTripFlow(&fixture.TripRecorder{}), func(d *flowDef) {
			d.Name, d.Key = "plan_holiday", "plan_holiday"
		})
		oresp, err := other.Call(context.Background(), e.opts, req(paris, "", nil))
		require.NoError(t, err)
		require.NotEmpty(t, oresp.RequestState)
		e.rejected(req(paris, oresp.RequestState, answer), "other tool")
	})
	t.Run("expired", func(t *testing.T) {
		e.setNow(t0.Add(engine.DefaultTTL + time.Second))
		defer e.setNow(t0)
		e.rejected(req(paris, state, answer), "expired")
	})
	t.Run("issued in the future beyond the skew", func(t *testing.T) {
		e.setNow(t0.Add(time.Hour))
		future := e.ask(req(paris, "", nil)).RequestState
		e.setNow(t0)
		e.rejected(req(paris, future, answer), "future")
	})
	t.Run("sealed with a key no longer in the ring", func(t *testing.T) {
		f := newEnv(t, nil)
		old := f.ask(req(paris, "", nil)).RequestState
		e.rejected(req(paris, old, answer), "foreign key")
	})
	// After all of that, the real state still works: nothing above consumed it.
	res := e.done(req(paris, state, answer))
	assert.Contains(t, res.Text, `"email":"ada@example.com"`)
	assert.Equal(t, 1, e.rec.Count())
}

func TestStateWithinSkewAndTTLOpens(t *testing.T) {
	e := newEnv(t, nil)
	e.setNow(t0.Add(engine.DefaultClockSkew - time.Second)) // an instance whose clock runs ahead
	state := e.ask(req(paris, "", nil)).RequestState
	e.setNow(t0)
	e.done(req(paris, state, accept("plan_trip", goodAnswer)))

	e.setNow(t0)
	state = e.ask(req(paris, "", nil)).RequestState
	e.setNow(t0.Add(engine.DefaultTTL - time.Second))
	e.done(req(paris, state, accept("plan_trip", goodAnswer)))
	assert.Equal(t, 2, e.rec.Count())

	// A shorter TTL is honoured.
	e.opts.TTL = time.Minute
	e.setNow(t0)
	state = e.ask(req(paris, "", nil)).RequestState
	e.setNow(t0.Add(2 * time.Minute))
	e.rejected(req(paris, state, accept("plan_trip", goodAnswer)), "custom TTL")
}

func TestPrincipalIsBound(t *testing.T) {
	e := newEnv(t, nil)
	r := req(paris, "", nil)
	r.Principal = "alice"
	state := e.ask(r).RequestState
	anon := req(paris, state, accept("plan_trip", goodAnswer))
	e.rejected(anon, "anonymous retry of alice's state")
	bob := req(paris, state, accept("plan_trip", goodAnswer))
	bob.Principal = "bob"
	e.rejected(bob, "bob")
	alice := req(paris, state, accept("plan_trip", goodAnswer))
	alice.Principal = "alice"
	e.done(alice)
}

func TestKeyRotation(t *testing.T) {
	oldKey, newKey := engine.GenerateKey(), engine.GenerateKey()
	before, err := engine.ParseKeyRing(oldKey)
	require.NoError(t, err)
	e := newEnv(t, before)
	state := e.ask(req(paris, "", nil)).RequestState

	// Rotation: the new key is prepended; the old one stays to open old states.
	e.opts.Keys, err = engine.ParseKeyRing(newKey + "," + oldKey)
	require.NoError(t, err)
	r2 := e.ask(req(paris, state, accept("plan_trip", map[string]any{"name": "Ada", "email": "nope", "nights": 2})))
	e.done(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "ada@example.com"})))

	// New states are sealed with the newest key: the old key alone cannot open them.
	fresh := e.ask(req(paris, "", nil)).RequestState
	e.opts.Keys = before
	e.rejected(req(paris, fresh, accept("plan_trip", goodAnswer)), "sealed with the new key")

	// Once the old key is dropped, states sealed with it are rejected.
	e.opts.Keys, err = engine.ParseKeyRing(newKey)
	require.NoError(t, err)
	e.rejected(req(paris, state, accept("plan_trip", goodAnswer)), "old key dropped")
	assert.Equal(t, 1, e.rec.Count())
}

func TestKeyID(t *testing.T) {
	k := make([]byte, engine.KeySize)
	_, _ = rand.Read(k)
	sum := sha256.Sum256(k)
	id := engine.KeyID(k)
	assert.Equal(t, sum[:8], id[:])

	kr, err := engine.NewKeyRing(k)
	require.NoError(t, err)
	raw, err := base64.RawURLEncoding.DecodeString(kr.Seal([]byte("x")))
	require.NoError(t, err)
	assert.Equal(t, byte(1), raw[0], "format version byte")
	assert.Equal(t, sum[:8], raw[1:9], "the key id follows the version byte")

	// Adding a key never renumbers the others.
	k2 := make([]byte, engine.KeySize)
	_, _ = rand.Read(k2)
	kr2, err := engine.NewKeyRing(k2, k)
	require.NoError(t, err)
	pt, err := kr2.Open(kr.Seal([]byte("hello")), 0)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(pt))
}

func TestKeyRingParsing(t *testing.T) {
	k := make([]byte, engine.KeySize)
	for i := range k {
		k[i] = byte(250 + i) // makes + and / (or - and _) appear
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		kr, err := engine.ParseKeyRing(" " + enc.EncodeToString(k) + " ,")
		require.NoError(t, err)
		ref, _ := engine.NewKeyRing(k)
		_, err = kr.Open(ref.Seal([]byte("x")), 0)
		require.NoError(t, err)
	}
	for _, bad := range []string{"", ",", "not base64!", base64.RawURLEncoding.EncodeToString(k[:16]), engine.GenerateKey() + "," + base64.RawURLEncoding.EncodeToString(k[:31])} {
		_, err := engine.ParseKeyRing(bad)
		require.Error(t, err, "%q", bad)
		assert.Contains(t, err.Error(), engine.EnvStateKeys)
	}
	dup := engine.GenerateKey()
	_, err := engine.ParseKeyRing(dup + ",," + engine.GenerateKey() + "," + dup)
	require.ErrorContains(t, err, engine.EnvStateKeys+": key 4 is key 1 again; list each key once")
	_, err = engine.ParseKeyRing(engine.GenerateKey() + ",x")
	require.ErrorContains(t, err, "key 2")
	// A placeholder such as 43 A's (32 zero bytes) or a repeated word is
	// no secret.
	_, err = engine.ParseKeyRing(engine.GenerateKey() + "," + strings.Repeat("A", 43))
	require.ErrorContains(t, err, "key 2: decodes to 32 bytes of only 1 distinct values, which is no secret: make a key with mcpgen keygen")
	_, err = engine.ParseKeyRing(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("abcd", 8))))
	require.ErrorContains(t, err, "only 4 distinct values")
	for range 1000 {
		_, err := engine.ParseKeyRing(engine.GenerateKey())
		require.NoError(t, err, "a key drawn at random")
	}
}

func TestCanonicalArgumentsDigest(t *testing.T) {
	e := newEnv(t, nil)
	state := e.ask(req(`{"city":"Paris","extra":{"b":1,"a":[1,2]}}`, "", nil)).RequestState
	// Key order and whitespace do not matter; values do.
	e.done(req("{ \"extra\" : {\"a\":[1, 2], \"b\":1},\n\t\"city\": \"Paris\" }", state, accept("plan_trip", goodAnswer)))
	e.rejected(req(`{"city":"Paris","extra":{"b":1,"a":[2,1]}}`, state, accept("plan_trip", goodAnswer)), "array order matters")
	e.rejected(req(`{"city":"Paris","extra":{"b":"1","a":[1,2]}}`, state, accept("plan_trip", goodAnswer)), "types matter")

	// Absent, null and {} arguments are the same empty object (for a tool
	// whose input schema requires nothing).
	e.flow = fixture.NewPicksFlow(&fixture.PicksRecorder{})
	seats := map[string]any{"seats": []any{"aisle"}}
	state = e.ask(req(``, "", nil)).RequestState
	e.done(req(`null`, state, accept("pick_seats", seats)))
	state = e.ask(req(`null`, "", nil)).RequestState
	e.done(req(`{}`, state, accept("pick_seats", seats)))
}

// The digest binds what the branch sees. encoding/json matches struct
// fields without regard to case, the last key winning, so arguments with
// case-variant keys are refused outright; and numbers keep their exact text,
// so integers beyond 2^53 that a float64 would merge stay apart (in arrays
// too).
func TestArgumentsDigestBindsWhatTheBranchSees(t *testing.T) {
	e := newEnv(t, nil)
	for _, args := range []string{
		`{"City":"London","city":"Paris"}`,
		`{"city":"Paris","CITY":"London"}`,
		`{"city":"Paris","extra":{"k":1,"K":2}}`,
		`{"city":"Paris","city":"London"}`,
		`{"city":"Paris","ſ":1,"S":2}`, // U+017F folds to s, as encoding/json matches it
	} {
		_, err := e.flow.Call(context.Background(), e.opts, req(args, "", nil))
		var pe *protocol.Error
		require.ErrorAs(t, err, &pe, args)
		assert.EqualValues(t, -32602, pe.Code, args)
		assert.Contains(t, pe.Message, "arguments have the key", args)
	}
	assert.Zero(t, e.rec.Count())

	state := e.ask(req(`{"city":"Paris","n":9007199254740993,"a":[9007199254740993]}`, "", nil)).RequestState
	e.rejected(req(`{"city":"Paris","n":9007199254740992,"a":[9007199254740993]}`, state, accept("plan_trip", goodAnswer)), "integers beyond 2^53 differ")
	e.rejected(req(`{"city":"Paris","n":9007199254740993,"a":[9007199254740992]}`, state, accept("plan_trip", goodAnswer)), "in arrays too")
	e.done(req(`{ "a" : [ 9007199254740993 ] , "n" : 9007199254740993 , "city" : "Paris" }`, state, accept("plan_trip", goodAnswer)))
}

func TestArgumentsThatAreNotAnObject(t *testing.T) {
	e := newEnv(t, nil)
	for _, bad := range []string{`[1]`, `"x"`, `{`, `3`} {
		_, err := e.flow.Call(context.Background(), e.opts, req(bad, "", nil))
		var pe *protocol.Error
		require.ErrorAs(t, err, &pe, bad)
		assert.EqualValues(t, -32602, pe.Code)
	}
	assert.Zero(t, e.rec.Count())
}

// BenchmarkRetry measures one retry on a server: open and check the state,
// apply the answer and run Accept.
func BenchmarkRetry(b *testing.B) {
	rec := &fixture.TripRecorder{}
	flow := fixture.NewTripFlow(rec)
	opts := &engine.Options{Keys: engine.EphemeralKeyRing()}
	first, err := flow.Call(context.Background(), opts, req(paris, "", nil))
	if err != nil {
		b.Fatal(err)
	}
	r := req(paris, first.RequestState, accept("plan_trip", goodAnswer))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := flow.Call(context.Background(), opts, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRejectTampered measures the rejection of a tampered state.
func BenchmarkRejectTampered(b *testing.B) {
	flow := fixture.NewTripFlow(&fixture.TripRecorder{})
	opts := &engine.Options{Keys: engine.EphemeralKeyRing()}
	first, err := flow.Call(context.Background(), opts, req(paris, "", nil))
	if err != nil {
		b.Fatal(err)
	}
	st := []byte(first.RequestState)
	st[len(st)/2] ^= 1
	r := req(paris, string(st), accept("plan_trip", goodAnswer))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := flow.Call(context.Background(), opts, r); err == nil {
			b.Fatal("accepted")
		}
	}
}

// The environment's key ring wins; without one a random key is used and
// reported as ephemeral; a malformed variable is an error, never a fallback.
func TestKeyRingFromEnvOrEphemeral(t *testing.T) {
	key := engine.GenerateKey()
	want, err := engine.ParseKeyRing(key)
	require.NoError(t, err)
	t.Setenv(engine.EnvStateKeys, key)
	kr, ephemeral, err := engine.KeyRingFromEnvOrEphemeral()
	require.NoError(t, err)
	assert.False(t, ephemeral)
	opened, err := want.Open(kr.Seal([]byte("x")), 0)
	require.NoError(t, err, "sealed under the environment's key")
	assert.Equal(t, "x", string(opened))

	t.Setenv(engine.EnvStateKeys, "")
	kr, ephemeral, err = engine.KeyRingFromEnvOrEphemeral()
	require.NoError(t, err)
	assert.True(t, ephemeral)
	_, err = want.Open(kr.Seal([]byte("x")), 0)
	assert.ErrorIs(t, err, engine.ErrStateKey)

	t.Setenv(engine.EnvStateKeys, "not-a-key")
	kr, ephemeral, err = engine.KeyRingFromEnvOrEphemeral()
	assert.Error(t, err)
	assert.Nil(t, kr)
	assert.False(t, ephemeral)
}

// A flow's lifetime is fixed in round 1: a round asked again near the end of
// it does not extend it, and a retry after it is refused.
func TestAskingAgainNeverExtendsTheLifetime(t *testing.T) {
	e := newEnv(t, nil)
	r1 := e.ask(req(paris, "", nil))
	e.setNow(t0.Add(engine.DefaultTTL - time.Minute))
	bad := map[string]any{"name": "Ada", "email": "not-an-email", "nights": 3}
	r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", bad)))
	_, _, asked := question(t, r2)
	require.Equal(t, []string{"email"}, asked)

	e.setNow(t0.Add(engine.DefaultTTL + time.Minute))
	e.rejected(req(paris, r2.RequestState, accept("plan_trip_2", map[string]any{"email": "ada@example.com"})),
		"a round-2 state past the lifetime fixed in round 1")
	_, last := e.rejections()
	assert.Contains(t, last.Reason, "expired")
}

// The encoding of a form's requestedSchema that the engine hands adapters
// (RequestedSchemaJSON, kept with the memoised form) is byte for byte what
// encoding the schema gives, on every call, for the whole form and for its
// failing fields asked again alone; a schema downgraded for an older client
// carries none, and adapters encode the schema itself.
func TestRequestedSchemaJSON(t *testing.T) {
	e := newEnv(t, nil)
	for range 2 {
		r1 := e.ask(req(paris, "", nil))
		er := r1.InputRequests["plan_trip"].(*protocol.ElicitRequest)
		want, err := json.Marshal(er.RequestedSchema)
		require.NoError(t, err)
		require.NotNil(t, er.RequestedSchemaJSON)
		assert.Equal(t, string(want), string(er.RequestedSchemaJSON))

		r2 := e.ask(req(paris, r1.RequestState, accept("plan_trip", map[string]any{"name": "Ada", "email": "bad", "nights": 3})))
		er2 := r2.InputRequests[fixtureKey(r2)].(*protocol.ElicitRequest)
		want2, err := json.Marshal(er2.RequestedSchema)
		require.NoError(t, err)
		require.NotNil(t, er2.RequestedSchemaJSON, "the failing fields alone, memoised too")
		assert.Equal(t, string(want2), string(er2.RequestedSchemaJSON))
		assert.JSONEq(t, `{"type":"object","properties":{"email":{"type":"string","title":"Email","format":"email"}},"required":["email"]}`, string(er2.RequestedSchemaJSON))
	}
	old := req(paris, "", nil)
	old.ProtocolVersion = protocol.Version20250618
	r := e.ask(old)
	assert.Nil(t, r.InputRequests["plan_trip"].(*protocol.ElicitRequest).RequestedSchemaJSON, "downgraded for 2025-06-18")
}

// fixtureKey returns the one inputRequests key of resp.
func fixtureKey(resp *engine.Response) string {
	for k := range resp.InputRequests {
		return k
	}
	return ""
}
