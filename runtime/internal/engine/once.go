package engine

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// record is a flow's final response as a [Store] keeps it (JSON). A replayed
// Structured or Native arrives as json.RawMessage: adapters decode a Native
// one into their SDK's result type.
type record struct {
	Text       string          `json:"t,omitempty"`
	Structured json.RawMessage `json:"s,omitempty"`
	IsError    bool            `json:"e,omitempty"`
	Native     json.RawMessage `json:"n,omitempty"`
	Err        string          `json:"x,omitempty"` // the error a branch returned
	Failed     bool            `json:"f,omitempty"` // Err is set (even when empty)
}

func encodeRecord(resp *Response, err error) []byte {
	var rec record
	if err != nil {
		rec.Err, rec.Failed = err.Error(), true
	} else {
		res := resp.Result
		rec.Text, rec.IsError = res.Text, res.IsError
		var jerr error
		if res.Structured != nil {
			rec.Structured, jerr = json.Marshal(res.Structured)
		}
		if res.Native != nil && jerr == nil {
			rec.Native, jerr = json.Marshal(res.Native)
		}
		if jerr != nil {
			rec = record{Err: "mcpgen: the flow's result could not be recorded: " + jerr.Error(), Failed: true}
		}
	}
	b, _ := json.Marshal(&rec) // only strings and raw JSON: cannot fail
	return b
}

func decodeRecord(b []byte) (*Response, error) {
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%w: record does not decode: %w", ErrStore, err)
	}
	if rec.Failed {
		return nil, errors.New(rec.Err)
	}
	res := &Result{Text: rec.Text, IsError: rec.IsError}
	if rec.Structured != nil {
		res.Structured = rec.Structured
	}
	if rec.Native != nil {
		res.Native = rec.Native
	}
	return complete(res), nil
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// once runs run, the part of a request that may run a branch, at most once
// per flow across every instance sharing [Options.Store]. A first call (no
// state) just runs. A retry claims its flow id first, for
// [Options.ClaimLease], checking in the same step that the store's epoch is
// still the one sealed in the state: when it is not, the store may have
// forgotten the flow, and the retry is refused with -32602 ("start the call
// again", see [round.forgotten]); when the flow has a record, that is the
// answer and run does not run; when another request holds the claim, once
// waits up to [Options.ClaimWait] for its record and otherwise refuses with
// -32603. While run runs, the claim is renewed every third of the lease
// (see [keeper]). After run, the complete response of a branch (or the error
// it returned) is recorded until the flow's lifetime ends; an
// input-required response, a *protocol.Error, or a response no branch
// produced (r.ran unset) releases the claim. A store failure before run
// refuses the retry with -32603 and runs nothing (fail closed), reported to
// [Options.OnReject] wrapping [ErrStore]. Before its claim a retry counts
// its flow against its caller's [Options.MaxFlowsPerPrincipal] (until the
// record would expire; a replay, a refusal or a release uncounts it): a
// caller at its limit is refused with -32603 ([ErrFlowQuota]) and nothing
// is stored.
func (r *round) once(ctx context.Context, run func(ctx context.Context) (*Response, error)) (resp *Response, err error) {
	defer func() { r.end(ctx, resp, err) }()
	if r.st == nil {
		return run(ctx)
	}
	r.awaitPages(ctx)
	expires := r.recordExpiry()
	c, err := r.countFlow(ctx)
	if err != nil {
		return nil, err
	}
	if resp, done, err := r.claimFlow(ctx, c); done {
		return resp, err
	}
	resp, err = r.runClaimed(ctx, c, run)
	var pe *protocol.Error
	if !r.ran || errors.As(err, &pe) || (err == nil && (resp == nil || resp.Result == nil)) {
		// No branch ran (a tool error that asks for arguments, a malformed
		// answer), or it asked again: the next round (or a corrected retry)
		// may run.
		return r.releaseClaim(ctx, c, resp, err)
	}
	return r.recordBranch(ctx, c, expires, resp, err)
}

// flowClaim is a retry's claim on its flow (see [round.once]): the flow
// id, the request's token, and how the flow counts against its caller's
// quota.
type flowClaim struct {
	flow    string    // the flow id, as the store keys it
	token   string    // the claim's token, this request's
	claimed time.Time // when the claim was taken
	caller  string    // whom the flow counts against (see round.caller)
	flows   *quota    // the flows counted per caller
	counted bool      // this request counted the flow
}

// uncount stops counting the flow against its caller when this request
// counted it: a replay, a refusal or a release adds nothing.
func (c *flowClaim) uncount() {
	if c.counted {
		c.flows.release(c.caller, c.flow)
	}
}

// countFlow counts r's flow against its caller's
// [Options.MaxFlowsPerPrincipal] from its claim on, and while its record
// is kept (by Options.Now, as the state's expiry), and returns the claim
// to take; a caller at its limit is refused with -32603 ([ErrFlowQuota]).
func (r *round) countFlow(ctx context.Context) (*flowClaim, error) {
	c := &flowClaim{flow: r.flowIDText(r.st.FlowID), caller: r.caller(), flows: quotaFor(r.o.Store, flowEntries)}
	ok, counted, first := c.flows.take(c.caller, c.flow, r.st.closes().Add(r.o.ClockSkew), r.o.Now(), r.o.MaxFlowsPerPrincipal)
	if !ok {
		return nil, r.overQuota(ctx, c.caller, first)
	}
	c.counted, c.token = counted, newToken()
	return c, nil
}

// claimFlow claims c's flow for [Options.ClaimLease], waiting up to
// [Options.ClaimWait] while another request holds it. done is false when
// the claim is taken; else resp and err answer the request: the flow's
// record replayed, or its refusal (the store forgot the flow, failed, or
// the claim stayed held).
func (r *round) claimFlow(ctx context.Context, c *flowClaim) (resp *Response, done bool, err error) {
	deadline := time.Now().Add(r.o.ClaimWait)
	pause := 2 * time.Millisecond
	for {
		c.claimed = time.Now()
		rec, err := r.o.Store.Claim(ctx, c.flow, c.token, r.st.Epoch, r.o.ClaimLease)
		if (err != nil && !errors.Is(err, ErrClaimed)) || rec != nil {
			c.uncount() // a replay, or refused: this request adds nothing
		}
		switch {
		case err == nil && rec != nil:
			return r.replay(ctx, rec)
		case err == nil:
			return nil, false, nil
		case errors.Is(err, ErrEpoch):
			// This flow can never complete: its pages, and the answers on
			// them, are done with.
			r.dropPages(context.WithoutCancel(ctx))
			return nil, true, r.forgotten(ctx, err)
		case !errors.Is(err, ErrClaimed):
			return nil, true, r.storeFailed(ctx, fmt.Errorf("%w: claim: %w", ErrStore, err))
		}
		if !pauseClaim(ctx, deadline, pause) {
			c.uncount()
			return nil, true, r.busy(ctx, err)
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// pauseClaim waits pause (at most until deadline) before a claim is tried
// again; it reports false when the deadline passed or ctx ended first.
func pauseClaim(ctx context.Context, deadline time.Time, pause time.Duration) bool {
	left := time.Until(deadline)
	if left <= 0 {
		return false
	}
	t := time.NewTimer(min(pause, left))
	select {
	case <-ctx.Done():
		t.Stop()
		return false
	case <-t.C:
		return true
	}
}

// replay answers the request with rec, its flow's record: the response
// (or error) of the branch that ran; a record that does not decode is a
// store failure.
func (r *round) replay(ctx context.Context, rec []byte) (resp *Response, done bool, err error) {
	resp, derr := decodeRecord(rec)
	if errors.Is(derr, ErrStore) {
		return nil, true, r.storeFailed(ctx, derr)
	}
	r.replayed = true
	r.end(ctx, resp, derr)
	return resp, true, derr
}

// runClaimed runs run while c's claim is held, renewed every third of the
// lease (see [keeper]); run's context ends when the claim is lost.
func (r *round) runClaimed(ctx context.Context, c *flowClaim, run func(ctx context.Context) (*Response, error)) (*Response, error) {
	runCtx, cancel := context.WithCancelCause(ctx)
	k := &keeper{store: r.o.Store, ctx: context.WithoutCancel(ctx), flow: c.flow, token: c.token, lease: r.o.ClaimLease, last: c.claimed, cancel: cancel}
	k.start()
	resp, err := run(runCtx)
	k.stop()
	cancel(nil)
	return resp, err
}

// releaseClaim gives up c's claim after a request that ran no branch (or one
// that asked again), returning resp and err as they are; a call that ended
// without a branch (the round limit) drops its pages. The store's writes
// happen even when the request's context ended meanwhile.
func (r *round) releaseClaim(ctx context.Context, c *flowClaim, resp *Response, err error) (*Response, error) {
	bg := context.WithoutCancel(ctx)
	c.uncount()
	if rerr := r.o.Store.Release(bg, c.flow, c.token); rerr != nil {
		return nil, r.storeFailed(ctx, fmt.Errorf("%w: release: %w", ErrStore, rerr))
	}
	if err == nil && resp != nil && resp.Result != nil {
		r.dropPages(bg) // the call ended without a branch (the round limit): its pages are done with
	}
	return resp, err
}

// recordBranch records resp and err, the outcome of the branch that ran, as the
// flow's, now and on every replay, until expires. The store's writes
// happen even when the request's context ended meanwhile (a client that
// went away): a completed branch without its record would run again once
// the lease ends. When recording fails (Redis at maxmemory, restarting),
// the claim must not lapse, or a replay after its lease would run the
// branch again: holdUnrecorded keeps it for the flow's lifetime and goes
// on trying to record.
func (r *round) recordBranch(ctx context.Context, c *flowClaim, expires time.Time, resp *Response, err error) (*Response, error) {
	bg := context.WithoutCancel(ctx)
	r.dropPages(bg)
	rec := encodeRecord(resp, err)
	if rerr := r.o.Store.Record(bg, c.flow, c.token, rec, expires); rerr != nil && !errors.Is(rerr, ErrClaimLost) {
		if r.o.Logger != nil {
			r.o.Logger.LogAttrs(ctx, slog.LevelWarn, "mcpgen: the flow's result was not recorded yet; its claim is held until the flow expires (replays are told to retry later) while recording is retried",
				slog.String("tool", r.name), slog.String("flow_id", c.flow), slog.String("err", rerr.Error()))
		}
		go holdUnrecorded(bg, r.o.Store, c.flow, c.token, rec, expires, r.o.Logger)
	}
	return resp, err
}

// recordExpiry is when the store may drop the record of r's flow: not
// before any instance whose clock runs up to Options.ClockSkew behind this
// one's could still open a state of the flow. The state closes a second
// after its expiry (its Unix second still opens it, see [binding.closes]) by
// Options.Now; the store judges by the wall clock (Redis: the server's), so
// it is handed the remaining lifetime from now, plus the skew, rounded up
// to the millisecond (the stores' unit: Redis PXAT).
func (r *round) recordExpiry() time.Time {
	t := time.Now().Add(r.st.closes().Sub(r.o.Now()) + r.o.ClockSkew)
	if c := t.Truncate(time.Millisecond); c.Before(t) {
		t = c.Add(time.Millisecond)
	}
	return t
}

// caller is the key by which quotas count r's caller ([protocol.Caller]).
func (r *round) caller() string {
	return protocol.Caller(r.req.Principal, r.req.ClientAddress)
}

// overQuota reports a retry refused by [Options.MaxFlowsPerPrincipal] and
// returns the -32603 error that refuses it: caller already has that many
// flows claimed or recorded, the first of which stops counting at first.
// Only this caller is refused; the store keeps room for the others.
func (r *round) overQuota(ctx context.Context, caller string, first time.Time) error {
	r.rejected(ctx, fmt.Errorf("%w: %s", ErrFlowQuota, caller))
	has, calls := "has", "calls"
	if caller == protocol.AnonymousCallers {
		has = "have"
	}
	if r.o.MaxFlowsPerPrincipal == 1 {
		calls = "call"
	}
	return &protocol.Error{Code: protocol.CodeInternalError, Message: fmt.Sprintf(
		"mcpgen: %s already %s %d %s completed or running on this server within their lifetime "+
			"(Options.MaxFlowsPerPrincipal, so that no caller fills the flow store for the others); "+
			"nothing was run; retry after %s", caller, has, r.o.MaxFlowsPerPrincipal, calls, first.UTC().Format("15:04:05 UTC"))}
}

// unrecordedRetryMax bounds the pause between attempts of holdUnrecorded.
const unrecordedRetryMax = 5 * time.Second

// holdUnrecorded runs after a completed branch whose record the store
// refused: it stretches token's claim on flow to the flow's expiry (so that
// every replay is told "being completed by another request" and retries
// later, instead of claiming the flow once the lease ends and running the
// branch again), and tries to record rec until the store takes it, the
// claim is no longer token's ([ErrClaimLost]: the store lost its memory, and
// its new epoch refuses every retry), or the flow expires. Each failed
// attempt waits longer, up to unrecordedRetryMax. Renewing needs no memory
// in Redis (PEXPIRE), so a store at maxmemory that refuses the record still
// holds the claim.
func holdUnrecorded(ctx context.Context, store Store, flow, token string, rec []byte, expires time.Time, logger *slog.Logger) {
	pause := 100 * time.Millisecond
	for time.Now().Before(expires) {
		if err := store.Renew(ctx, flow, token, time.Until(expires)); errors.Is(err, ErrClaimLost) {
			return
		}
		time.Sleep(pause)
		pause = min(2*pause, unrecordedRetryMax)
		err := store.Record(ctx, flow, token, rec, expires)
		if err == nil {
			if logger != nil {
				logger.LogAttrs(ctx, slog.LevelInfo, "mcpgen: the flow's result is recorded", slog.String("flow_id", flow))
			}
			return
		}
		if errors.Is(err, ErrClaimLost) {
			return
		}
	}
}

// keeper renews a retry's claim while its branch runs: every third of the
// lease, with the holder's token, through timers (no goroutine until the
// first renewal is due, so that a branch shorter than a third of the lease
// costs none). When a whole lease passes since the last renewal the store
// confirmed (or the claim), another retry may have claimed the flow: the
// keeper cancels the branch's context with a cause wrapping [ErrClaimLost],
// which undoes nothing the branch already did, and its record stays fenced
// by the token ([Store.Record] refuses a token whose claim ended). A
// renewal that finds the claim gone before the lease passed (the store lost
// its memory: no retry can claim the flow again, see [ErrEpoch]) stops the
// keeper without cancelling.
type keeper struct {
	store  Store
	ctx    context.Context // for the store's calls: the request's, never cancelled
	flow   string
	token  string
	lease  time.Duration
	cancel context.CancelCauseFunc

	last time.Time // when the last confirmed renewal (or the claim) was sent; read and written by tick only

	mu      sync.Mutex
	stopped bool
	timer   *time.Timer
}

func (k *keeper) start() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.timer = time.AfterFunc(k.wait(), k.tick)
}

// stop ends the renewals; a renewal under way finishes in the background.
func (k *keeper) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.stopped = true
	k.timer.Stop()
}

// wait is how long until the next renewal: a third of the lease, or less
// when the lease ends sooner.
func (k *keeper) wait() time.Duration {
	return max(0, min(k.lease/3, time.Until(k.last.Add(k.lease))))
}

func (k *keeper) tick() {
	k.mu.Lock()
	stopped := k.stopped
	k.mu.Unlock()
	if stopped {
		return
	}
	if time.Since(k.last) >= k.lease {
		k.cancel(fmt.Errorf("%w: not renewed within the claim's lease of %s (Options.ClaimLease)", ErrClaimLost, k.lease))
		return
	}
	sent := time.Now()
	ctx, cancel := context.WithDeadline(k.ctx, k.last.Add(k.lease))
	err := k.store.Renew(ctx, k.flow, k.token, k.lease)
	cancel()
	switch {
	case err == nil:
		k.last = sent
	case errors.Is(err, ErrClaimLost):
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.stopped {
		k.timer = time.AfterFunc(k.wait(), k.tick)
	}
}

// storeFailed reports a store failure to OnReject and returns the -32603
// error that refuses the retry.
func (r *round) storeFailed(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	return &protocol.Error{Code: protocol.CodeInternalError, Message: "flow store unavailable; nothing was run; retry later"}
}

// busy reports a concurrent duplicate that did not finish within ClaimWait
// and returns the -32603 error that refuses the retry.
func (r *round) busy(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	return &protocol.Error{Code: protocol.CodeInternalError, Message: "this flow is being completed by another request; nothing was run; retry later"}
}

// forgotten reports a retry whose flow began in another epoch of the store
// ([ErrEpoch]) and returns the error that refuses it: JSON-RPC -32602, the
// code of every requestState the engine cannot honour (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security: the server validates the
// state it receives and rejects one it cannot trust), telling the client to
// start the call again. Not -32603: that says "retry later", and this state
// will never be honoured; not a tool error result: nothing about the tool's
// work is known, the model would take it for the tool's outcome, and
// prompts/get has no tool results. The message is honest about what a
// client replaying a call whose response it lost must know: this request
// ran nothing, but an earlier request of the call may have completed it,
// so the client should check the call's effect before starting it again
// (a call started again is a new flow, with a new [FlowID]: the servers
// that key side effects on FlowID and keep it with the effect, a booking's
// or a charge's, let the client find it).
func (r *round) forgotten(ctx context.Context, err error) error {
	r.rejected(ctx, err)
	why := "it has lost its memory since this call began (restarted without persistence, flushed, or another process's store) " +
		"or another Redis node serves it since (a failover: a replica promoted)"
	if _, ok := r.o.Store.(*MemoryStore); ok {
		why = "it is this process's memory, and this call began in another process (another instance, or before a restart)"
	}
	return &protocol.Error{Code: protocol.CodeInvalidParams, Message: "invalid requestState: the server's flow store cannot tell whether this call already ran: " +
		why + ". This request ran nothing, but an earlier request of this call " +
		"may have completed it (its response lost on the way): check whether the call's effect happened before you start the call again " +
		"(the same request without requestState and inputResponses)"}
}
