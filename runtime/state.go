package runtime

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// flowState is the plaintext inside a sealed requestState (DESIGN.md,
// "requestState"). Field names are short because the state travels in every
// round. Every field is checked on receipt; nothing else is shared between
// server instances.
type flowState struct {
	Tool      string         `json:"t"`           // tool or prompt name
	Method    string         `json:"m"`           // "tools/call" or "prompts/get"
	Args      []byte         `json:"a"`           // SHA-256 of the canonical original arguments
	Principal string         `json:"p,omitempty"` // who started the flow; empty when unauthenticated
	FlowID    []byte         `json:"f"`           // random, fixed in round 1
	Key       string         `json:"k"`           // input request key of the last round
	Question  []byte         `json:"q"`           // SHA-256 of the question asked under Key
	Asked     []string       `json:"s"`           // JSON names of the fields asked under Key
	Answers   map[string]any `json:"n,omitempty"` // valid answers gathered in earlier rounds
	Round     int            `json:"r"`           // input-required results issued so far
	IssuedAt  int64          `json:"i"`           // Unix seconds
	Expires   int64          `json:"e"`           // Unix seconds
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
	switch {
	case st.Tool != tool:
		return nil, fmt.Errorf("requestState belongs to %q, not %q", st.Tool, tool)
	case st.Method != method:
		return nil, fmt.Errorf("requestState belongs to a %s request, not %s", st.Method, method)
	case string(st.Args) != string(args):
		return nil, errors.New("requestState was issued for other arguments")
	case st.Principal != principal:
		return nil, errors.New("requestState was issued to another principal")
	case now.Unix() > st.Expires:
		return nil, fmt.Errorf("requestState expired at %s", time.Unix(st.Expires, 0).UTC().Format(time.RFC3339))
	case time.Unix(st.IssuedAt, 0).After(now.Add(o.ClockSkew)):
		return nil, errors.New("requestState was issued in the future")
	case st.Round < 1 || st.Key == "" || len(st.Asked) == 0 || len(st.FlowID) == 0:
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
