package runtime

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Store makes a multi-round call complete at most once across every server
// instance that shares it (MCP 2026-07-28, basic/patterns/mrtr, requestState
// security: integrity protection does not make a state single-use; that
// takes server-side tracking). A requestState can be replayed — a client
// retrying after a timeout, a proxy, an attacker — so before a retry may run
// a branch, the flow claims the call's flow id; the first request that ends
// in a final result records it, and every later request carrying any state
// of that flow gets the recorded result back and runs no branch.
//
// The in-memory store ([NewMemoryStore], the default) serves one instance;
// several instances behind a load balancer need a shared one, such as
// github.com/mcpgen/mcpgen/runtime/redisstore. Implementations must make
// Claim atomic across every instance that shares them, and must keep records
// until their expiry. A Store that fails or times out makes the call fail
// closed: no branch runs.
type Store interface {
	// Claim takes flow id for one request until expires (the flow's
	// lifetime, fixed in its first round). It returns the recorded final
	// result when the flow already completed; ErrClaimed when another
	// request holds the claim; otherwise a token that Record and Release
	// take.
	Claim(ctx context.Context, id string, expires time.Time) (token string, record []byte, err error)
	// Record stores the final result of the claimed flow until expires and
	// releases the claim, in one atomic step.
	Record(ctx context.Context, id, token string, record []byte, expires time.Time) error
	// Release gives the claim up without a record: the request asked the
	// user again, so the flow goes on.
	Release(ctx context.Context, id, token string) error
}

// ErrClaimed is returned by [Store.Claim] while another request holds the
// flow's claim.
var ErrClaimed = errors.New("another request of this flow is running")

// ErrStore wraps every failure of the Store: the request that met it ran no
// branch, and [Options.OnReject] hears it.
var ErrStore = errors.New("at-most-once store failed")

// defaultStore serves every flow of the process that configures no Store.
var defaultStore Store = NewMemoryStore()

// NewMemoryStore returns a Store that lives in this process: right for one
// instance (and for tests), wrong for several, where a replay sent to
// another instance would run again.
func NewMemoryStore() Store {
	return &memoryStore{flows: map[string]*memoryFlow{}}
}

type memoryStore struct {
	mu    sync.Mutex
	flows map[string]*memoryFlow
	ops   int
}

type memoryFlow struct {
	token   string
	record  []byte
	expires time.Time
}

func (m *memoryStore) Claim(_ context.Context, id string, expires time.Time) (string, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if m.ops++; m.ops%1024 == 0 {
		for k, f := range m.flows {
			if now.After(f.expires) {
				delete(m.flows, k)
			}
		}
	}
	if f, ok := m.flows[id]; ok && now.Before(f.expires) {
		if f.record != nil {
			return "", f.record, nil
		}
		return "", nil, ErrClaimed
	}
	token := newToken()
	m.flows[id] = &memoryFlow{token: token, expires: expires}
	return token, nil, nil
}

func (m *memoryStore) Record(_ context.Context, id, token string, record []byte, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.flows[id]
	if !ok || f.token != token || f.record != nil {
		return fmt.Errorf("flow %s is not claimed by this request", id)
	}
	f.record, f.expires = record, expires
	return nil
}

func (m *memoryStore) Release(_ context.Context, id, token string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.flows[id]; ok && f.token == token && f.record == nil {
		delete(m.flows, id)
	}
	return nil
}

func newToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// record is a final result as a Store keeps it.
type record struct {
	Text       string          `json:"t,omitempty"`
	Structured json.RawMessage `json:"s,omitempty"`
	IsError    bool            `json:"e,omitempty"`
	Native     json.RawMessage `json:"n,omitempty"`
}

func encodeRecord(r *Result) ([]byte, error) {
	rec := record{Text: r.Text, IsError: r.IsError}
	var err error
	if r.Structured != nil {
		if rec.Structured, err = json.Marshal(r.Structured); err != nil {
			return nil, err
		}
	}
	if r.Native != nil {
		if rec.Native, err = json.Marshal(r.Native); err != nil {
			return nil, err
		}
	}
	return json.Marshal(rec)
}

func decodeRecord(b []byte) (*Result, error) {
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, err
	}
	r := &Result{Text: rec.Text, IsError: rec.IsError}
	if rec.Structured != nil {
		r.Structured = rec.Structured
	}
	if rec.Native != nil {
		r.Native = rec.Native // the adapter decodes it into the SDK's own result type
	}
	return r, nil
}

// once runs run — the part of a retry that may run a branch — at most once
// for the flow of st (see [Store]). A final result (a Result, or an error a
// branch returned, recorded as a tool error) is recorded; a response that
// asks again releases the claim; a request that finds the flow completed
// gets the recorded result and runs nothing. While another request holds the
// claim it waits up to Options.ClaimWait for its record, then fails with a
// retry-later error. A Store failure is returned as a -32603 *ProtocolError,
// reported to OnReject, and no branch runs.
func (r *round) once(ctx context.Context, st *state, run func() (*Response, error)) (*Response, error) {
	store := r.o.Store
	id := base64.RawURLEncoding.EncodeToString(st.FlowID)
	expires := time.Unix(st.Expires, 0).Add(r.o.ClockSkew)
	var token string
	deadline := time.Now().Add(r.o.ClaimWait)
	for {
		tok, rec, err := store.Claim(ctx, id, expires)
		switch {
		case err == nil && rec != nil:
			res, derr := decodeRecord(rec)
			if derr != nil {
				return nil, r.storeFailed(ctx, fmt.Errorf("%w: undecodable record of flow %s: %v", ErrStore, id, derr))
			}
			return complete(res), nil
		case err == nil:
			token = tok
		case errors.Is(err, ErrClaimed):
			if time.Now().Before(deadline) {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(25 * time.Millisecond):
				}
				continue
			}
			return nil, &ProtocolError{Code: CodeInternalError,
				Message: r.name + ": another request of this call is still running; retry later (no branch ran)"}
		default:
			return nil, r.storeFailed(ctx, fmt.Errorf("%w: claiming flow %s: %v", ErrStore, id, err))
		}
		break
	}
	resp, err := run()
	var pe *ProtocolError
	switch {
	case errors.As(err, &pe) || errors.Is(err, context.Canceled) || (err == nil && resp.Result == nil):
		// Asked again, or refused before any branch: the flow goes on.
		if rerr := store.Release(context.WithoutCancel(ctx), id, token); rerr != nil {
			r.report(ctx, fmt.Errorf("%w: releasing flow %s: %v", ErrStore, id, rerr))
		}
		return resp, err
	}
	final := resp.Result
	if err != nil {
		final = &Result{Text: err.Error(), IsError: true}
	}
	b, eerr := encodeRecord(final)
	if eerr == nil {
		eerr = store.Record(context.WithoutCancel(ctx), id, token, b, expires)
	}
	if eerr != nil {
		// The branch ran; its result goes back. The claim stays until the
		// flow expires, so no replay runs a branch again.
		r.report(ctx, fmt.Errorf("%w: recording flow %s: %v", ErrStore, id, eerr))
	}
	return resp, err
}

// storeFailed reports a Store failure that stopped a request before any
// branch ran and returns the error for the client.
func (r *round) storeFailed(ctx context.Context, err error) error {
	r.report(ctx, err)
	return &ProtocolError{Code: CodeInternalError,
		Message: r.name + ": cannot guarantee this call runs at most once (" + err.Error() + "); no branch ran, retry later"}
}

func (r *round) report(ctx context.Context, err error) {
	if r.o.OnReject != nil {
		r.o.OnReject(ctx, Rejection{Flow: r.name, Reason: err.Error(), Err: err})
	}
}
