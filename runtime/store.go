package runtime

import "github.com/mcpgen/mcpgen/runtime/internal/engine"

// Errors of the flow store ([Store], [Options.Store]) and the page store
// ([PageStore], [Options.PageStore]).
var (
	// ErrStore wraps every failure of [Options.Store] that the engine
	// reports: the retry was refused with JSON-RPC -32603 and no branch ran
	// (fail closed); a first call that needed the store's epoch was refused
	// the same way. [Options.OnReject] receives an error that wraps both
	// ErrStore and the store's own error.
	ErrStore = engine.ErrStore
	// ErrClaimed is what [Store.Claim] returns when another request holds a
	// live claim on the flow and has recorded nothing yet: a concurrent
	// duplicate. The engine waits up to [Options.ClaimWait] for the record,
	// then refuses the retry with JSON-RPC -32603 ("retry later");
	// [Options.OnReject] receives an error wrapping ErrClaimed.
	ErrClaimed = engine.ErrClaimed
	// ErrClaimLost is what [Store.Renew] and [Store.Record] return when the
	// claim is no longer the caller's (its lease ended, or the store lost
	// it): nothing was renewed or recorded. It is also the cause
	// (context.Cause) of a branch's context that the engine cancels because
	// [Options.ClaimLease] passed without a renewal the store confirmed.
	ErrClaimLost = engine.ErrClaimLost
	// ErrNoPage is what [PageStore.Page] and [PageStore.CompletePage] return for
	// an id the store does not hold: never put, expired, or deleted once
	// its flow ended.
	ErrNoPage = engine.ErrNoPage
	// ErrPageCompleted is what [PageStore.CompletePage] returns when the page
	// already has an answer: a page is completed once.
	ErrPageCompleted = engine.ErrPageCompleted
	// ErrPageExists is what [PageStore.PutPage] returns when the id is taken.
	ErrPageExists = engine.ErrPageExists
	// ErrNoPageStore is what every page operation returns when
	// [Options.Store] keeps no pages and [Options.PageStore] is nil: a page
	// kept in one process's memory would be lost to every other instance,
	// so a URL-mode question ends its call in an error instead. Set
	// PageStore (runtime/redisstore's Store, or a [MemoryStore] for one
	// instance).
	ErrNoPageStore = engine.ErrNoPageStore
	// ErrFlowQuota is what [Options.OnReject] receives (wrapped) for a
	// retry refused because its caller already has
	// [Options.MaxFlowsPerPrincipal] flows claimed or recorded in the
	// store: JSON-RPC -32603 naming the limit, nothing run, nothing
	// stored.
	ErrFlowQuota = engine.ErrFlowQuota
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
	ErrEpoch = engine.ErrEpoch
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
//
// Its methods (go doc runtime/internal/engine Store shows them as
// declared):
//
//   - Epoch(ctx context.Context, flow string) (string, error) returns the
//     id of the store's current memory for flow: a non-empty opaque string
//     that stays the same for as long as the store keeps every claim and
//     record of flow it was given, and is replaced by a new one whenever it
//     may have lost some (a Redis restart without persistence, FLUSHALL, a
//     failover to a replica that missed the last writes, a new process). A
//     store of several independent parts (a Redis Cluster's shards) has one
//     epoch per part, and flow names the part. It may return a value read up
//     to a few seconds earlier: a stale epoch only makes later retries of the
//     flows that carry it fail closed ([ErrEpoch]).
//   - Claim(ctx context.Context, flow, token, epoch string, lease
//     time.Duration) (record []byte, err error) first checks that the
//     store's epoch for flow is epoch; when it is not, it changes nothing
//     (but makes a new epoch if the store had lost its own) and returns an
//     error wrapping [ErrEpoch]. Then: when flow has a record it returns the
//     record (non-nil, never empty) and a nil error; when flow has no live
//     claim (none, or one whose lease ended) or token's own, it takes (or
//     renews) the claim for token for lease and returns nil, nil; when
//     another token holds a live claim it returns nil, [ErrClaimed].
//   - Renew(ctx context.Context, flow, token string, lease time.Duration)
//     error extends token's live claim on flow to lease from now; it returns
//     [ErrClaimLost], changing nothing, when token holds no live claim on
//     flow (a record is never touched).
//   - Record(ctx context.Context, flow, token string, record []byte, expires
//     time.Time) error replaces token's live claim on flow with record, kept
//     until expires; it returns nil when flow already holds exactly record
//     (a repeated call), and [ErrClaimLost], recording nothing, when token no
//     longer holds the claim.
//   - Release(ctx context.Context, flow, token string) error drops token's
//     claim on flow; it does nothing when token does not hold the claim (a
//     record is never dropped).
//
// The sentinels: [ErrEpoch], [ErrClaimed], [ErrClaimLost]; any other error
// is [ErrStore]'s case, a failed store.
type Store = engine.Store

// PageStore holds the pages of URL-mode questions (MCP 2026-07-28,
// client/elicitation, "URL Mode Elicitation Requests"; package
// runtime/page): a page's record and, once the user completed it, its
// answer, both sealed by the engine (the store sees ciphertext only), under
// an opaque random id, shared by every instance that serves the page
// ([Options.PageStore]; when it is nil, the Store when that is a PageStore
// too, as [MemoryStore] and runtime/redisstore's Store are).
//
// Its methods:
//
//   - PutPage(ctx context.Context, id string, record []byte, expires
//     time.Time) error keeps record under id until expires; it returns
//     [ErrPageExists], changing nothing, when id is taken.
//   - Page(ctx context.Context, id string) (record, answer []byte, err error)
//     returns id's record and its answer (nil while the page is not
//     completed); it returns [ErrNoPage] when id was never put, has expired
//     or was deleted.
//   - CompletePage(ctx context.Context, id string, answer []byte) error sets
//     id's answer, once: it returns [ErrPageCompleted], changing nothing,
//     when id already has one, and [ErrNoPage] when id is not there.
//   - DeletePage(ctx context.Context, id string) error drops id, record and
//     answer; it does nothing when id is not there.
type PageStore = engine.PageStore

// DefaultMemoryStoreBytes is the default of [MemoryStore.MaxBytes]: 64 MiB.
const DefaultMemoryStoreBytes = engine.DefaultMemoryStoreBytes

// MemoryStore is a [Store] and a [PageStore] in this process's memory:
// right for one instance, wrong for several (a retry sent to another
// instance is refused: its store has another epoch). Its epoch is drawn at random by
// [NewMemoryStore], so a flow begun before the process (re)started is
// refused with "start the call again" rather than run twice. Entries are
// dropped once expired. The zero value is not usable; call [NewMemoryStore].
//
// Its fields:
//
//   - MaxBytes (int64) bounds the memory the store holds, in bytes: for each
//     entry its flow id, its claim token or recorded response, plus an
//     estimated 160 bytes of overhead; 0 means [DefaultMemoryStoreBytes] (64
//     MiB).
//
// Its methods:
//
//   - Epoch(context.Context, string) (string, error): implements
//     [Store.Epoch]: the random id drawn by [NewMemoryStore] (22 base64url
//     characters), one for every flow.
//   - Claim(_ context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error): implements
//     [Store.Claim].
//   - Renew(_ context.Context, flow, token string, lease time.Duration) error: implements
//     [Store.Renew].
//   - Record(_ context.Context, flow, token string, record []byte, expires time.Time) error: implements
//     [Store.Record].
//   - Release(_ context.Context, flow, token string) error: implements
//     [Store.Release].
//   - PutPage(_ context.Context, id string, record []byte, expires time.Time) error: implements
//     [PageStore.PutPage].
//   - Page(_ context.Context, id string) (record, answer []byte, err error): implements
//     [PageStore.Page]; the slices returned are the caller's.
//   - CompletePage(_ context.Context, id string, answer []byte) error: implements
//     [PageStore.CompletePage].
//   - DeletePage(_ context.Context, id string) error: implements
//     [PageStore.DeletePage].
//   - Len() int: returns how many entries (claims and records, expired ones
//     not yet dropped included) the store holds.
//   - Bytes() int64: returns the bytes the store counts against
//     [MemoryStore.MaxBytes] (expired entries not yet dropped included).
type MemoryStore = engine.MemoryStore

// NewMemoryStore returns an empty in-memory store with a fresh random epoch.
// Expiry is judged by time.Now.
func NewMemoryStore() *MemoryStore { return engine.NewMemoryStore() }
