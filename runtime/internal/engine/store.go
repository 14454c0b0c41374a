package engine

import (
	"context"
	"errors"
	"time"
)

// A requestState is echoed by the client, so a client (or a proxy, or an
// attacker holding a copy) can send the same retry twice, to the same
// instance or to another one (MCP 2026-07-28, basic/patterns/mrtr,
// requestState security: a server must treat the state as replayable). The
// round engine therefore runs the retries of one flow at most once, in the
// way of an idempotency key: before a retry may run a branch it claims the
// flow id in a [Store]; a retry that completes records its response there;
// every later retry of the flow (the same state, another state of the same
// flow, other answers) receives that record and runs nothing. A retry that
// asks again releases the claim, so that the next round can run.

// Errors of the flow store ([Store], [Options.Store]).
var (
	// ErrStore wraps every failure of [Options.Store] that the engine
	// reports: the retry was refused with JSON-RPC -32603 and no branch ran
	// (fail closed); a first call that needed the store's epoch was refused
	// the same way. [Options.OnReject] receives an error that wraps both
	// ErrStore and the store's own error.
	ErrStore = errors.New("mcpgen: flow store failed")
	// ErrClaimed is what [Store.Claim] returns when another request holds a
	// live claim on the flow and has recorded nothing yet: a concurrent
	// duplicate. The engine waits up to [Options.ClaimWait] for the record,
	// then refuses the retry with JSON-RPC -32603 ("retry later");
	// [Options.OnReject] receives an error wrapping ErrClaimed.
	ErrClaimed = errors.New("mcpgen: flow is being completed by another request")
	// ErrClaimLost is what [Store.Renew] and [Store.Record] return when the
	// claim is no longer the caller's (its lease ended, or the store lost
	// it): nothing was renewed or recorded. It is also the cause
	// (context.Cause) of a branch's context that the engine cancels because
	// [Options.ClaimLease] passed without a renewal the store confirmed.
	ErrClaimLost = errors.New("mcpgen: flow claim is no longer held")
	// ErrNoPage is what [Store.Page] and [Store.CompletePage] return for
	// an id the store does not hold: never put, expired, or deleted once
	// its flow ended.
	ErrNoPage = errors.New("mcpgen: no such URL-mode page")
	// ErrPageCompleted is what [Store.CompletePage] returns when the page
	// already has an answer: a page is completed once.
	ErrPageCompleted = errors.New("mcpgen: URL-mode page already completed")
	// ErrPageExists is what [Store.PutPage] returns when the id is taken.
	ErrPageExists = errors.New("mcpgen: URL-mode page id already taken")
	// ErrFlowQuota is what [Options.OnReject] receives (wrapped) for a
	// retry refused because its caller already has
	// [Options.MaxFlowsPerPrincipal] flows claimed or recorded in the
	// store: JSON-RPC -32603 naming the limit, nothing run, nothing
	// stored.
	ErrFlowQuota = errors.New("mcpgen: the caller holds its limit of flows in the store")
	// ErrEpoch is what [Store.Claim] returns (wrapped) when the store's
	// epoch is not the one the flow's requestState carries: the store has
	// lost its memory since the flow began (a Redis restart without
	// persistence, FLUSHALL, a new process's in-memory store), so it cannot
	// tell whether the flow already completed. The engine refuses the retry
	// with JSON-RPC -32602 telling the client to start the call again, runs
	// nothing and records nothing; [Options.OnReject] receives an error
	// wrapping ErrEpoch. -32602 is the code of every requestState the
	// server cannot honour (MCP 2026-07-28, basic/patterns/mrtr,
	// requestState security: the server validates the state it receives);
	// not -32603, which tells the client to retry the same request later,
	// nor a tool error result, which would stand for the tool's outcome.
	ErrEpoch = errors.New("mcpgen: the flow store has lost its memory since the flow began")
)

// Store holds, for each flow id, either a claim (a request is running the
// flow's retry) or the record of the flow's final response, until the flow's
// lifetime ends, and knows when it may have forgotten some of them. It is
// what makes a replayed requestState run no branch twice (MCP 2026-07-28,
// basic/patterns/mrtr, requestState security: a server must treat the state
// as replayable). One instance alone may use [MemoryStore] (the default);
// instances that share a key ring must share a Store too
// (runtime/redisstore): a retry sent to an instance whose store does not
// know the flow is refused (its epoch differs).
//
// Arguments, for every method: flow is the flow id ([FlowID]: base64url, 22
// characters); token is a random string (base64url, 22 characters) the
// engine draws for each retry that claims; epoch is a value [Store.Epoch]
// returned; lease is a duration (at least a millisecond), measured by the
// store's own clock from when it performs the operation; expires is when the
// flow's requestState stops opening anywhere (the end of the Unix second of
// its expiry, fixed in round 1, plus [Options.ClockSkew], rounded up to the
// millisecond; by the wall clock), after which a record may be dropped.
//
// Implementations must be safe for concurrent use, and each method must be
// atomic with respect to the others across every instance sharing the store
// (Redis: one Lua script per method). Every method may be called again with
// the same arguments after an error or a timeout (the first call may have
// taken effect unseen) and must then answer as if the first call had
// succeeded. An error that is none of the sentinels below means the store
// failed: the engine fails closed (-32603, no branch runs).
type Store interface {
	// Epoch returns the id of the store's current memory for flow: a
	// non-empty opaque string that stays the same for as long as the store
	// keeps every claim and record of flow it was given, and is replaced
	// by a new one whenever it may have lost some (a Redis restart without
	// persistence, FLUSHALL, a failover to a replica that missed the last
	// writes, a new process). The engine seals it into a flow's
	// requestState when the flow begins (round 1, with the flow id it
	// drew), and every claim of the flow checks it. A store that keeps
	// its flows in several independent parts (the shards of a Redis
	// Cluster) has one epoch per part, and flow names the part; a store of
	// one part may ignore it. An implementation may return a value it
	// read up to a few seconds earlier: a stale epoch only makes the later
	// retries of the flows that carry it fail closed ([ErrEpoch]).
	Epoch(ctx context.Context, flow string) (string, error)
	// Claim first checks that the store's epoch for flow is epoch; when it is not,
	// it changes nothing (but makes a new epoch if the store had lost its
	// own) and returns an error wrapping [ErrEpoch]. Then: when flow has a
	// record it returns the record (non-nil, never empty) and a nil error;
	// when flow has no live claim (none, or one whose lease ended) or
	// token's own claim, it takes (or renews) the claim for token for
	// lease and returns nil, nil; when another token holds a live claim it
	// returns nil, [ErrClaimed].
	Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) (record []byte, err error)
	// Renew extends token's live claim on flow to lease from now. It
	// returns [ErrClaimLost], changing nothing, when token does not hold a
	// live claim on flow (a record is never touched).
	Renew(ctx context.Context, flow, token string, lease time.Duration) error
	// Record replaces token's live claim on flow with record, kept until
	// expires. It returns nil when flow already holds exactly record (a
	// repeated call), and [ErrClaimLost], recording nothing, when token no
	// longer holds the claim.
	Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error
	// Release drops token's claim on flow; it does nothing when token does
	// not hold the claim (a record is never dropped).
	Release(ctx context.Context, flow, token string) error

	// The pages of URL-mode questions (MCP 2026-07-28, client/elicitation,
	// "URL Mode Elicitation Requests"; package runtime/page): a page's
	// record and, once the user completed it, its answer, both sealed by
	// the engine (the store sees ciphertext only), under an opaque random
	// id, shared by every instance.

	// PutPage keeps record under id until expires. It returns
	// [ErrPageExists], changing nothing, when id is taken.
	PutPage(ctx context.Context, id string, record []byte, expires time.Time) error
	// Page returns id's record and its answer (nil while the page is not
	// completed). It returns [ErrNoPage] when id was never put, has
	// expired or was deleted.
	Page(ctx context.Context, id string) (record, answer []byte, err error)
	// CompletePage sets id's answer, once: it returns [ErrPageCompleted],
	// changing nothing, when id already has one, and [ErrNoPage] when id
	// is not there.
	CompletePage(ctx context.Context, id string, answer []byte) error
	// DeletePage drops id, record and answer; it does nothing when id is
	// not there.
	DeletePage(ctx context.Context, id string) error
}

// defaultStore is the store of every Options without one: one process.
var defaultStore = NewMemoryStore()
