package engine

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mcpgen/mcpgen/runtime/internal/clip"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// binding is what ties a requestState to one request of one caller for a
// while (MCP 2026-07-28, basic/patterns/mrtr, requestState security: bind the
// principal, a short expiry and the originating request, and check them on
// receipt). Every state carries it; [binding.check] runs on every retry. It is
// fixed in round 1: asking again never extends the expiry.
type binding struct {
	Tool      string // tool or prompt name
	Method    string // "tools/call" or "prompts/get"
	Args      []byte // SHA-256 of the canonical original arguments
	Principal string // who started the flow; empty when unauthenticated
	IssuedAt  int64  // Unix seconds
	Expires   int64  // Unix seconds
	// Epoch is the epoch of Options.Store when the flow began
	// ([Store.Epoch]); every retry's claim checks it (see [ErrEpoch]).
	Epoch string
}

// bind returns the binding of a state issued now under name for req's
// method and principal and the arguments' digest, valid for o.TTL.
func (o *Options) bind(name string, req *protocol.Request, digest []byte) binding {
	now := o.Now()
	return binding{Tool: name, Method: req.Method, Args: digest, Principal: req.Principal,
		IssuedAt: now.Unix(), Expires: now.Add(o.TTL).Unix()}
}

// check says why b does not bind a state to a request of tool and method
// with the arguments' digest args by principal at now: any of them differs,
// the state has expired, or it was issued more than skew in the future. The
// error is a *bindError, whose reason [Event].Reason reports.
func (b *binding) check(tool, method string, args []byte, principal string, now time.Time, skew time.Duration) error {
	switch {
	case b.Tool != tool:
		return &bindError{"other_tool", fmt.Sprintf("requestState belongs to %q, not %q", b.Tool, tool)}
	case b.Method != method:
		return &bindError{"other_tool", fmt.Sprintf("requestState belongs to a %s request, not %s", b.Method, method)}
	case string(b.Args) != string(args):
		return &bindError{"other_arguments", "requestState was issued for other arguments"}
	case b.Principal != principal:
		return &bindError{"other_principal", "requestState was issued to another principal"}
	case !now.Before(b.closes()):
		return &bindError{"expired", fmt.Sprintf("requestState expired at %s", time.Unix(b.Expires, 0).UTC().Format(time.RFC3339))}
	case time.Unix(b.IssuedAt, 0).After(now.Add(skew)):
		return &bindError{"future", "requestState was issued in the future"}
	}
	return nil
}

// closes is the first instant at which a clock that agrees with the
// issuer's no longer opens a state of b: check accepts every now within the
// Unix second Expires, so a state closes a whole second after Expires. An
// instance whose clock runs skew behind opens it until closes plus skew by
// the issuer's clock (see [round.once], which keeps the flow's record that
// long).
func (b *binding) closes() time.Time { return time.Unix(b.Expires+1, 0) }

// bindError is a requestState that opened but is not bound to the request
// (see [binding.check]), or that opened but cannot be resumed (reason
// "malformed"): reason is the short word [Event].Reason reports.
type bindError struct{ reason, msg string }

func (e *bindError) Error() string { return e.msg }

// state is the plaintext inside a sealed requestState, one shape for every
// multi-round call the engine runs (a generated [Flow] and a hand-written
// [Exchange] alike). Field names are short because the state travels in every
// round. Every field is checked on receipt; nothing else is shared between
// server instances.
type state struct {
	binding
	Kind   string          // "" for a Flow, "exchange" for an Exchange: neither resumes the other
	FlowID []byte          // random, fixed in round 1
	Round  int             // input-required results issued so far
	Asked  []asked         // what the last round asked, one entry per inputRequests key
	Carry  json.RawMessage // an exchange's data from earlier rounds
	// Replies are the forms settled in earlier rounds, by name (see
	// [form]): a question's, and the tool's own form's under "", whose
	// action is the branch that runs (and asks questions) on every later
	// round.
	Replies map[string]reply
	Kept    map[string]json.RawMessage // values computed once (Keep), by name
	// Waits counts the rounds that asked a URL-mode page again while the
	// user completed it: they do not count towards the round limit.
	Waits int
	// Empty counts the accepted answers of this call that held nothing
	// although the form asked for required fields: some clients answer a
	// form they cannot show so (see round.emptyAccept). The second ends
	// the call in the tool error that names what is needed.
	Empty int
	// Trace is the W3C traceparent of the span of the request that issued
	// this state ([Options].TraceContext), so that the next round's span
	// can be its child on any instance ([Options.CarriedTrace]); "" when
	// tracing is off.
	Trace string
}

// asked is one input request of the last round, as the state remembers it:
// an answer counts only when it arrives under Key, answers Method, and (for a
// form) the question asked again now has the same digest.
type asked struct {
	Key      string   // the inputRequests key
	Method   string   // "" for elicitation/create, else the request's method
	Question []byte   // SHA-256 of the form asked under Key (see formDigest)
	Fields   []string // JSON names of the form's fields
	// Name is the form's name (see [form]): a question's when a branch
	// asked it (Ask, AskURL); "" for the tool's own form and an exchange's
	// own requests.
	Name string
	// Content holds the valid answers to the question's other fields, kept
	// while its failing fields are asked again.
	Content map[string]any
	// Page is, for a URL-mode question, the id of the page asked: its
	// answer is in the store, never here.
	Page string
}

// method returns the JSON-RPC method asked under a.Key.
func (a *asked) method() string {
	if a.Method == "" {
		return (*protocol.ElicitRequest)(nil).Method()
	}
	return a.Method
}

// lookup returns what the last round asked under key, or nil.
func (st *state) lookup(key string) *asked {
	for i := range st.Asked {
		if st.Asked[i].Key == key {
			return &st.Asked[i]
		}
	}
	return nil
}

func newFlowID() []byte {
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return id
}

// seal encodes st (see [stateBinary]) and seals it with the key ring. Only
// plaintext that opened under the key ring, written by seal, is ever
// decoded.
func (o *Options) seal(st *state) (string, error) {
	b, err := encodeState(st)
	if err != nil {
		return "", fmt.Errorf("mcpgen: encoding requestState: %w", err)
	}
	return o.Keys.Seal(b), nil
}

// open opens and decodes a requestState and checks its binding to this
// request. The error says why it was rejected, for the rejection hook.
func (o *Options) open(sealed, tool, method string, args []byte, principal string, now time.Time) (*state, error) {
	pt, err := o.Keys.Open(sealed, o.MaxStateSize)
	if err != nil {
		return nil, err
	}
	var st state
	if err := decodeState(pt, &st); err != nil {
		// Not the error's text: it could quote the plaintext, answers
		// included.
		return nil, &bindError{"malformed", "requestState payload does not decode"}
	}
	if err := st.check(tool, method, args, principal, now, o.ClockSkew); err != nil {
		return nil, err
	}
	if st.Round < 1 || len(st.Asked) == 0 || len(st.FlowID) == 0 {
		return nil, &bindError{"malformed", "requestState is incomplete"}
	}
	for _, a := range st.Asked {
		if a.Key == "" {
			return nil, &bindError{"malformed", "requestState is incomplete"}
		}
	}
	return &st, nil
}

// CarriedTrace returns the W3C traceparent that the round which issued
// requestState sealed into it (see [Options].TraceContext), or "" when the
// state carries none or does not open under o.Keys (over MaxStateSize,
// tampered, sealed by another key ring). It authenticates the state and
// reads that one value, nothing else: not the binding, which the engine
// checks when the request reaches it. A tracing middleware calls it before
// the engine runs, to make the request's span the child of the previous
// round's on whichever instance served that one; a value never comes from
// a state this key ring did not seal.
func (o *Options) CarriedTrace(requestState string) string {
	if requestState == "" || o.Keys == nil {
		return ""
	}
	limit := o.MaxStateSize
	if limit <= 0 {
		limit = DefaultMaxStateSize
	}
	pt, err := o.Keys.Open(requestState, limit)
	if err != nil {
		return ""
	}
	var st state
	if decodeState(pt, &st) != nil {
		return ""
	}
	return st.Trace
}

// canonicalArgs returns SHA-256 of the arguments in a canonical JSON form
// that keeps what the branch sees: object keys sorted (by their decoded
// bytes), strings re-encoded by encoding/json, numbers as their exact text
// (9007199254740993 and 9007199254740992 differ, as they do in an int64
// field), whitespace dropped. Absent or null arguments are the empty object.
//
// encoding/json matches struct fields case-insensitively, the last key
// winning, so {"Origin":"LHR","origin":"CDG"} and the same keys swapped
// decode to different structs: arguments with two keys of one object that
// differ only in case (or are equal) are refused, as are arguments that are
// not one JSON object. tokens reports that the arguments were not of the
// common shape canonicalFast reads in place, and went through json.Decoder's
// tokens.
func canonicalArgs(raw json.RawMessage) (digest []byte, tokens bool, err error) {
	if out, ok := canonicalFast(raw); ok {
		sum := sha256.Sum256(out)
		return sum[:], false, nil
	}
	digest, err = canonicalArgsSlow(raw)
	return digest, true, err
}

// canonicalArgsSlow is canonicalArgs for any arguments, through
// json.Decoder's tokens.
func canonicalArgsSlow(raw json.RawMessage) ([]byte, error) {
	h := sha256.New()
	if len(raw) == 0 || string(raw) == "null" {
		h.Write([]byte("{}"))
		return h.Sum(nil), nil
	}
	if nestedDeeper(raw, MaxArgumentsDepth) {
		return nil, fmt.Errorf("arguments are nested deeper than %d objects and arrays", MaxArgumentsDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		if err == nil && tok == nil {
			h.Write([]byte("{}")) // null with whitespace around it
			return h.Sum(nil), checkEnd(dec)
		}
		return nil, errors.New("arguments must be a JSON object")
	}
	var buf bytes.Buffer
	if err := canonicalObject(dec, &buf); err != nil {
		return nil, err
	}
	if err := checkEnd(dec); err != nil {
		return nil, err
	}
	h.Write(buf.Bytes())
	return h.Sum(nil), nil
}

// checkEnd says whether anything follows the arguments object.
func checkEnd(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("arguments must be a JSON object")
	}
	return nil
}

// canonicalValue writes the canonical form of the value starting with tok.
func canonicalValue(dec *json.Decoder, tok json.Token, out *bytes.Buffer) error {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return canonicalObject(dec, out)
		}
		out.WriteByte('[')
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			t, err := dec.Token()
			if err != nil {
				return errors.New("arguments must be a JSON object")
			}
			if err := canonicalValue(dec, t, out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return errors.New("arguments must be a JSON object")
		}
		out.WriteByte(']')
	case json.Number:
		out.WriteString(string(v))
	case string:
		b, _ := json.Marshal(v)
		out.Write(b)
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case nil:
		out.WriteString("null")
	}
	return nil
}

// canonicalObject writes the canonical form of an object whose '{' was
// read: its members sorted by key. Two keys that fold to the same name
// (strings.EqualFold, the matching of encoding/json) are an error.
func canonicalObject(dec *json.Decoder, out *bytes.Buffer) error {
	type member struct {
		key string
		val []byte
	}
	var members []member
	folded := map[string]string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return errors.New("arguments must be a JSON object")
		}
		key, _ := t.(string)
		f := foldKey(key)
		if prev, dup := folded[f]; dup {
			if prev == key {
				return fmt.Errorf("arguments have the key %q twice", clip.Text(key))
			}
			return fmt.Errorf("arguments have the keys %q and %q, which encoding/json would take for one (it matches keys without regard to case)", clip.Text(prev), clip.Text(key))
		}
		folded[f] = key
		t, err = dec.Token()
		if err != nil {
			return errors.New("arguments must be a JSON object")
		}
		var val bytes.Buffer
		if err := canonicalValue(dec, t, &val); err != nil {
			return err
		}
		members = append(members, member{key, val.Bytes()})
	}
	if _, err := dec.Token(); err != nil {
		return errors.New("arguments must be a JSON object")
	}
	slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
	out.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(m.val)
	}
	out.WriteByte('}')
	return nil
}

// foldKey maps every rune of key to the smallest rune of its case-folding
// orbit, so that two keys fold alike exactly when strings.EqualFold holds.
func foldKey(key string) string {
	return strings.Map(func(r rune) rune {
		lo := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			lo = min(lo, f)
		}
		return lo
	}, key)
}

// MaxArgumentsDepth bounds how deeply a request's arguments may nest objects
// and arrays (the arguments object itself counts as one); deeper arguments
// are refused with JSON-RPC -32602 before anything else reads them, since
// every reading costs more with each level (the canonical form of each object
// holds its members' forms). See runtime.MaxArgumentsDepth.
const MaxArgumentsDepth = 64

// nestedDeeper reports whether the JSON text raw opens more than limit
// objects and arrays at once, reading its bytes once (strings skipped).
func nestedDeeper(raw []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
