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

// Errors of the flow store ([Store], [Options.Store]) and the page store
// ([PageStore], [Options.PageStore]).
var (
	// ErrStore wraps every failure of [Options.Store] that the engine
	// reports: the retry was refused with JSON-RPC -32603 and no branch ran
	// (fail closed); a first call that needed the store's epoch was refused
	// the same way. See runtime.ErrStore.
	ErrStore = errors.New("mcpgen: flow store failed")
	// ErrClaimed is what [Store.Claim] returns when another request holds a
	// live claim on the flow and has recorded nothing yet: a concurrent
	// duplicate. See runtime.ErrClaimed.
	ErrClaimed = errors.New("mcpgen: flow is being completed by another request")
	// ErrClaimLost is what [Store.Renew] and [Store.Record] return when the
	// claim is no longer the caller's (its lease ended, or the store lost
	// it): nothing was renewed or recorded. See runtime.ErrClaimLost.
	ErrClaimLost = errors.New("mcpgen: flow claim is no longer held")
	// ErrNoPage is what [PageStore.Page] and [PageStore.CompletePage] return
	// for an id the store does not hold: never put, expired, or deleted once
	// its flow ended. See runtime.ErrNoPage.
	ErrNoPage = errors.New("mcpgen: no such URL-mode page")
	// ErrPageCompleted is what [PageStore.CompletePage] returns when the page
	// already has an answer: a page is completed once.
	ErrPageCompleted = errors.New("mcpgen: URL-mode page already completed")
	// ErrPageExists is what [PageStore.PutPage] returns when the id is taken.
	ErrPageExists = errors.New("mcpgen: URL-mode page id already taken")
	// ErrFlowQuota is what [Options.OnReject] receives (wrapped) for a retry
	// refused because its caller already has [Options.MaxFlowsPerPrincipal]
	// flows claimed or recorded in the store: JSON-RPC -32603 naming the
	// limit, nothing run, nothing stored. See runtime.ErrFlowQuota.
	ErrFlowQuota = errors.New("mcpgen: the caller holds its limit of flows in the store")
	// ErrEpoch is what [Store.Claim] returns (wrapped) when the store's epoch
	// is not the one the flow's requestState carries: the store has lost its
	// memory since the flow began (a Redis restart without persistence,
	// FLUSHALL, a new process's in-memory store), so it cannot tell whether
	// the flow already completed. See runtime.ErrEpoch.
	ErrEpoch = errors.New("mcpgen: the flow store has lost its memory since the flow began")
)

// Store holds, for each flow id, either a claim (a request is running the
// flow's retry) or the record of the flow's final response, until the flow's
// lifetime ends, and knows when it may have forgotten some of them. See
// runtime.Store.
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
}

// PageStore holds the pages of URL-mode questions (MCP 2026-07-28,
// client/elicitation, "URL Mode Elicitation Requests"; package runtime/page):
// a page's record and, once the user completed it, its answer, both sealed by
// the engine (the store sees ciphertext only), under an opaque random id
// (base64url, 22 characters), shared by every instance that serves the page
// ([Options.PageStore]). See runtime.PageStore.
type PageStore interface {
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
