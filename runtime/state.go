package runtime

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// binding is what ties a requestState to one request of one caller for a
// while: flows (flowState) and exchanges (exchangeState) both carry it and
// check it with [binding.check] on every retry (DESIGN.md, "requestState").
type binding struct {
	Tool      string `json:"t"`           // tool or prompt name
	Method    string `json:"m"`           // "tools/call" or "prompts/get"
	Args      []byte `json:"a"`           // SHA-256 of the canonical original arguments
	Principal string `json:"p,omitempty"` // who started the flow; empty when unauthenticated
	IssuedAt  int64  `json:"i"`           // Unix seconds
	Expires   int64  `json:"e"`           // Unix seconds
}

// bind returns the binding of a state issued now under name for req's
// method and principal and the arguments' digest, valid for o.TTL.
func (o *Options) bind(name string, req *Request, digest []byte) binding {
	now := o.Now()
	return binding{Tool: name, Method: req.Method, Args: digest, Principal: req.Principal,
		IssuedAt: now.Unix(), Expires: now.Add(o.TTL).Unix()}
}

// check says why b does not bind a state to a request of tool and method
// with the arguments' digest args by principal at now: any of them differs,
// the state has expired, or it was issued more than skew in the future.
func (b *binding) check(tool, method string, args []byte, principal string, now time.Time, skew time.Duration) error {
	switch {
	case b.Tool != tool:
		return fmt.Errorf("requestState belongs to %q, not %q", b.Tool, tool)
	case b.Method != method:
		return fmt.Errorf("requestState belongs to a %s request, not %s", b.Method, method)
	case string(b.Args) != string(args):
		return errors.New("requestState was issued for other arguments")
	case b.Principal != principal:
		return errors.New("requestState was issued to another principal")
	case now.Unix() > b.Expires:
		return fmt.Errorf("requestState expired at %s", time.Unix(b.Expires, 0).UTC().Format(time.RFC3339))
	case time.Unix(b.IssuedAt, 0).After(now.Add(skew)):
		return errors.New("requestState was issued in the future")
	}
	return nil
}

// flowState is the plaintext inside a sealed requestState (DESIGN.md,
// "requestState"). Field names are short because the state travels in every
// round. Every field is checked on receipt; nothing else is shared between
// server instances.
type flowState struct {
	binding
	FlowID   []byte         `json:"f"`           // random, fixed in round 1
	Key      string         `json:"k"`           // input request key of the last round
	Question []byte         `json:"q"`           // SHA-256 of the question asked under Key
	Asked    []string       `json:"s"`           // JSON names of the fields asked under Key
	Answers  map[string]any `json:"n,omitempty"` // valid answers gathered in earlier rounds
	Round    int            `json:"r"`           // input-required results issued so far
}

func newFlowID() []byte {
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return id
}

func (o *Options) seal(st *flowState) (string, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("mcpgen: encoding requestState: %w", err)
	}
	return o.Keys.Seal(b), nil
}

// open opens and decodes a requestState and checks its binding to this
// request. The error says why it was rejected, for the rejection hook.
func (o *Options) open(state, tool, method string, args []byte, principal string, now time.Time) (*flowState, error) {
	pt, err := o.Keys.Open(state, o.MaxStateSize)
	if err != nil {
		return nil, err
	}
	var st flowState
	if err := json.Unmarshal(pt, &st); err != nil {
		return nil, fmt.Errorf("requestState payload does not decode: %w", err)
	}
	if err := st.check(tool, method, args, principal, now, o.ClockSkew); err != nil {
		return nil, err
	}
	if st.Round < 1 || st.Key == "" || len(st.Asked) == 0 || len(st.FlowID) == 0 {
		return nil, errors.New("requestState is incomplete")
	}
	return &st, nil
}

// canonicalArgs returns SHA-256 of the arguments canonicalised by decoding
// into map[string]any and re-encoding with encoding/json (sorted keys).
// Absent or null arguments are the empty object.
func canonicalArgs(raw json.RawMessage) ([]byte, error) {
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, errors.New("arguments must be a JSON object")
		}
		if m == nil {
			m = map[string]any{}
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	return sum[:], nil
}
