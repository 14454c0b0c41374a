package runtime

import "github.com/mcpgen/mcpgen/runtime/internal/engine"

// CapabilityPolicy says what a flow does when it must ask the user but the
// client did not declare form elicitation (MCP 2026-07-28, basic/patterns/mrtr:
// ask only for what the client declared).
type CapabilityPolicy = engine.CapabilityPolicy

const (
	// ToolErrorOnMissingCapability (the default) returns a tool error result
	// naming every missing field with its title and constraints, so that the
	// model can pass them as arguments.
	ToolErrorOnMissingCapability CapabilityPolicy = engine.ToolErrorOnMissingCapability
	// ProtocolErrorOnMissingCapability returns JSON-RPC error -32021 with
	// data.requiredCapabilities {"elicitation":{"form":{}}}.
	ProtocolErrorOnMissingCapability = engine.ProtocolErrorOnMissingCapability
)

// Defaults of [Options].
const (
	DefaultTTL          = engine.DefaultTTL
	DefaultMaxRounds    = engine.DefaultMaxRounds
	DefaultMaxStateSize = engine.DefaultMaxStateSize
	DefaultClockSkew    = engine.DefaultClockSkew
	// DefaultClaimWait is the default of [Options.ClaimWait].
	DefaultClaimWait = engine.DefaultClaimWait
	// DefaultClaimLease is the default of [Options.ClaimLease].
	DefaultClaimLease = engine.DefaultClaimLease
	// DefaultPageWait is the default of [Options.PageWait].
	DefaultPageWait = engine.DefaultPageWait
	// DefaultMaxPagesPerPrincipal is the default of
	// [Options.MaxPagesPerPrincipal].
	DefaultMaxPagesPerPrincipal = engine.DefaultMaxPagesPerPrincipal
	// DefaultMaxFlowsPerPrincipal is the default of
	// [Options.MaxFlowsPerPrincipal].
	DefaultMaxFlowsPerPrincipal = engine.DefaultMaxFlowsPerPrincipal
	// DefaultMaxArgumentsBytes bounds the raw arguments object of a request
	// (bytes of UTF-8).
	DefaultMaxArgumentsBytes = engine.DefaultMaxArgumentsBytes
	// DefaultMaxContentBytes bounds one form answer's content as a whole
	// (bytes of UTF-8).
	DefaultMaxContentBytes = engine.DefaultMaxContentBytes
	// DefaultMaxStringBytes bounds each string in a form answer (bytes of
	// UTF-8).
	DefaultMaxStringBytes = engine.DefaultMaxStringBytes
	// DefaultMaxSelectItems bounds the items of each array in a form answer
	// (a multi select's choices).
	DefaultMaxSelectItems = engine.DefaultMaxSelectItems
)

// Rejection describes a retry that was refused with -32602: the hook in
// [Options.OnReject] receives one for logs and metrics.
//
// Its fields:
//
//   - Flow (string): tool or prompt name
//   - Reason (string): why, in words
//   - Err (error): the underlying error, e.g. ErrStateAuth
type Rejection = engine.Rejection

// Options configure how flows run on one server. Every instance behind a
// load balancer must share Keys; nothing else is shared.
//
// Its fields:
//
//   - Keys (*KeyRing) seals and opens requestState.
//   - TTL (time.Duration) is how long a requestState stays valid (default 10
//     minutes).
//   - MaxRounds (int) bounds the input-required results of one call (default
//     3).
//   - MaxStateSize (int) bounds an incoming requestState, in characters,
//     checked before any decoding (default 16 KiB).
//   - MaxContentBytes (int) bounds the content of each form answer
//     (accept): bytes of every key and string, plus 8 per number, boolean,
//     null, array or object (default [DefaultMaxContentBytes], 64 KiB;
//     negative: no limit).
//   - MaxStringBytes (int) bounds each string in it, in bytes (default
//     [DefaultMaxStringBytes], 8 KiB; negative: no limit).
//   - MaxSelectItems (int) bounds each array in it, in items (default
//     [DefaultMaxSelectItems], 100; negative: no limit). All three, like
//     MaxStateSize, are checked before any other work; a retry over a limit
//     is rejected with -32602 naming the answer and the field, and reported
//     to OnReject with [ErrContentTooLarge] (or [ErrStateTooLarge]).
//   - MaxArgumentsBytes (int) bounds the raw arguments object of every
//     request, first call or retry, in bytes, checked before the arguments
//     are decoded (default [DefaultMaxArgumentsBytes], 64 KiB; negative: no
//     limit).
//   - ClockSkew (time.Duration) is how far in the future a state's issued-at
//     may lie (default 30 s), for instances whose clocks differ.
//   - MissingCapability (CapabilityPolicy) chooses between a tool error
//     (default) and -32021.
//   - OnReject (func(ctx context.Context, r Rejection)), when set, receives
//     every rejected retry.
//   - OnAsk, OnComplete (func(ctx context.Context, e Event)), when set,
//     receives every request that ends in an input-required result (MCP
//     2026-07-28, basic/patterns/mrtr), and OnComplete every request that
//     ends in a final result of a flow or exchange (a replay of a completed
//     flow is neither): for metrics.
//   - OnEnd (func(ctx context.Context, e Event)), when set, receives every
//     request of a flow or exchange once, whatever its outcome
//     ([Event].Outcome: asked, completed, declined, cancelled, replayed,
//     rejected with its [Event].Reason, failed), with the request's context:
//     for tracing and metrics (package runtime/otelmcp sets it).
//   - TraceContext (func(ctx context.Context) string), when set, returns the
//     W3C traceparent of the request's span (ctx is the request's): the
//     engine seals it into the state of the input-required result it issues,
//     and [Options.CarriedTrace] reads it back from the retry, so that every
//     round of a call shares one trace whichever instance serves it.
//   - Logger (*slog.Logger), when set, receives one record per request of a
//     flow or exchange, "mcpgen round", with tool, flow_id, round and
//     outcome: asked (with the inputRequests keys), completed, declined or
//     cancelled (with is_error), replayed, rejected (with the reason; level
//     Warn) or failed (the branch returned an error, not quoted; level Warn).
//   - Now (func() time.Time) returns the current time (default time.Now), for
//     tests.
//   - Store (Store) makes every retry of a flow run at most once: it holds
//     each flow's claim and then its final response until the flow's lifetime
//     ends (see [Store]).
//   - PageStore (PageStore) holds the pages of URL-mode questions (see
//     [PageStore]; package runtime/page serves them). When nil: Store when
//     it is a PageStore too (MemoryStore and runtime/redisstore's Store
//     are); with no Store either, the process's in-memory store; a Store
//     that keeps no pages makes every page operation fail with
//     [ErrNoPageStore].
//   - ClaimWait (time.Duration) is how long a retry whose flow another
//     request is running waits for that request's record before it is refused
//     with JSON-RPC -32603 "retry later" (default [DefaultClaimWait], 2 s;
//     negative: no wait).
//   - ClaimLease (time.Duration) is how long a retry's claim on its flow
//     lasts in the store unless renewed (default [DefaultClaimLease], 10 s).
//   - PageURL (string) is where a user's browser reaches the page handler of
//     URL-mode questions (package runtime/page), e.g.
//     "https://mcp.example.com/elicit/": a question asked in URL mode (MCP
//     2026-07-28, client/elicitation, "URL Mode Elicitation Requests") is
//     sent as PageURL followed by the page's opaque random id (after a slash,
//     added when PageURL lacks one), and nothing else.
//   - PageWait (time.Duration) is how long a retry that finds its URL-mode
//     page not yet completed, or whose [AskURL] step the client accepted but
//     done does not report finished yet, waits for it before asking again
//     with the same URL (default [DefaultPageWait], 15 s).
//   - MaxPagesPerPrincipal (int) bounds the URL-mode pages one principal may
//     have open at once (default [DefaultMaxPagesPerPrincipal], 20; negative:
//     no bound): a page counts from the call that asked for it until its flow
//     expires or the call completes, per process and per Store (N instances
//     allow N times as many).
//   - MaxFlowsPerPrincipal (int) bounds the flows one caller may have in the
//     store at once (default [DefaultMaxFlowsPerPrincipal], 1000; negative:
//     no bound): a flow counts from its retry's claim while the branch runs
//     and, once completed, while its record is kept (until its state opens
//     nowhere: Options.TTL and ClockSkew after round 1), per process and per
//     Store (N instances allow N times as many).
//
// Its methods:
//
//   - FlowStore() Store: returns the store flows run with these options use:
//     o.Store, or, when it is nil, the process's in-memory store
//     ([MemoryStore]) that every Options without a Store shares.
//   - FlowPageStore() PageStore: returns the page store flows run with these
//     options use: o.PageStore, or, when it is nil, [Options.FlowStore] when
//     that is a [PageStore] too; for a Store that keeps no pages, one whose
//     every operation fails with [ErrNoPageStore].
//   - CarriedTrace(requestState string) string: returns the W3C traceparent
//     that the round which issued requestState sealed into it (see
//     [Options].TraceContext), or "" when the state carries none or does not
//     open under o.Keys (over MaxStateSize, tampered, sealed by another key
//     ring).
type Options = engine.Options

// MaxArgumentsDepth bounds how deeply a request's arguments may nest objects
// and arrays (the arguments object itself counts as one); deeper arguments
// are refused with JSON-RPC -32602 before anything else reads them, since
// every reading costs more with each level (the canonical form of each
// object holds its members' forms).
const MaxArgumentsDepth = engine.MaxArgumentsDepth
