package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// CapabilityPolicy says what a flow does when it must ask the user but the
// client did not declare form elicitation (MCP 2026-07-28,
// basic/patterns/mrtr: ask only for what the client declared). See
// runtime.CapabilityPolicy.
type CapabilityPolicy int

const (
	// ToolErrorOnMissingCapability (the default) returns a tool error result
	// naming every missing field with its title and constraints, so that the
	// model can pass them as arguments. See
	// runtime.ToolErrorOnMissingCapability.
	ToolErrorOnMissingCapability CapabilityPolicy = iota
	// ProtocolErrorOnMissingCapability returns JSON-RPC error -32021 with
	// data.requiredCapabilities {"elicitation":{"form":{}}}.
	ProtocolErrorOnMissingCapability
)

// Defaults of [Options].
const (
	DefaultTTL          = 10 * time.Minute
	DefaultMaxRounds    = 3
	DefaultMaxStateSize = 16 << 10 // characters of base64url
	DefaultClockSkew    = 30 * time.Second
	// DefaultClaimWait is the default of [Options.ClaimWait].
	DefaultClaimWait = 2 * time.Second
	// DefaultClaimLease is the default of [Options.ClaimLease].
	DefaultClaimLease = 10 * time.Second
	// DefaultPageWait is the default of [Options.PageWait].
	DefaultPageWait = 15 * time.Second
	// DefaultMaxPagesPerPrincipal is the default of
	// [Options.MaxPagesPerPrincipal].
	DefaultMaxPagesPerPrincipal = 20
	// DefaultMaxFlowsPerPrincipal is the default of
	// [Options.MaxFlowsPerPrincipal].
	DefaultMaxFlowsPerPrincipal = 1000
	// DefaultMaxArgumentsBytes bounds the raw arguments object of a request
	// (bytes of UTF-8).
	DefaultMaxArgumentsBytes = 64 << 10
	// DefaultMaxContentBytes bounds one form answer's content as a whole
	// (bytes of UTF-8).
	DefaultMaxContentBytes = 64 << 10
	// DefaultMaxStringBytes bounds each string in a form answer (bytes of
	// UTF-8).
	DefaultMaxStringBytes = 8 << 10
	// DefaultMaxSelectItems bounds the items of each array in a form answer
	// (a multi select's choices).
	DefaultMaxSelectItems = 100
)

// Rejection describes a retry that was refused with -32602: the hook in
// [Options.OnReject] receives one for logs and metrics.
type Rejection struct {
	Flow   string // tool or prompt name
	Reason string // why, in words
	Err    error  // the underlying error, e.g. ErrStateAuth
}

// Options configure how flows run on one server. Every instance behind a
// load balancer must share Keys; nothing else is shared.
type Options struct {
	// Keys seals and opens requestState. Required.
	Keys *KeyRing
	// TTL is how long a requestState stays valid (default 10 minutes).
	TTL time.Duration
	// MaxRounds bounds the input-required results of one call (default 3).
	MaxRounds int
	// MaxStateSize bounds an incoming requestState, in characters, checked
	// before any decoding (default 16 KiB).
	MaxStateSize int
	// MaxContentBytes bounds the content of each form answer (accept):
	// bytes of every key and string, plus 8 per number, boolean, null,
	// array or object
	// (default [DefaultMaxContentBytes], 64 KiB; negative: no limit).
	// MaxStringBytes bounds each string in it, in bytes (default
	// [DefaultMaxStringBytes], 8 KiB; negative: no limit). MaxSelectItems
	// bounds each array in it, in items (default [DefaultMaxSelectItems],
	// 100; negative: no limit). All three, like MaxStateSize, are checked
	// before any other work; a retry over a limit is rejected with -32602
	// naming the answer and the field, and reported to OnReject with
	// [ErrContentTooLarge] (or [ErrStateTooLarge]).
	MaxContentBytes int
	MaxStringBytes  int
	MaxSelectItems  int
	// MaxArgumentsBytes bounds the raw arguments object of every request,
	// first call or retry, in bytes, checked before the arguments are
	// decoded (default [DefaultMaxArgumentsBytes], 64 KiB; negative: no
	// limit). Arguments over it are rejected with -32602 naming the limit
	// and reported to OnReject with [ErrArgumentsTooLarge].
	MaxArgumentsBytes int
	// ClockSkew is how far in the future a state's issued-at may lie
	// (default 30 s), for instances whose clocks differ.
	ClockSkew time.Duration
	// MissingCapability chooses between a tool error (default) and -32021.
	MissingCapability CapabilityPolicy
	// OnReject, when set, receives every rejected retry.
	OnReject func(ctx context.Context, r Rejection)
	// OnAsk, when set, receives every request that ends in an
	// input-required result (MCP 2026-07-28, basic/patterns/mrtr), and
	// OnComplete every request that ends in a final result of a flow or
	// exchange (a replay of a completed flow is neither): for metrics. The
	// [Event] carries names, keys and counts, never answers or the state.
	OnAsk      func(ctx context.Context, e Event)
	OnComplete func(ctx context.Context, e Event)
	// OnEnd, when set, receives every request of a flow or exchange once,
	// whatever its outcome ([Event].Outcome: asked, completed, declined,
	// cancelled, replayed, rejected with its [Event].Reason, failed), with
	// the request's context: for tracing and metrics (package
	// runtime/otelmcp sets it). It runs after OnAsk, OnComplete and
	// OnReject, and before the Logger's record.
	OnEnd func(ctx context.Context, e Event)
	// TraceContext, when set, returns the W3C traceparent of the request's
	// span (ctx is the request's): the engine seals it into the state of
	// the input-required result it issues, and [Options.CarriedTrace] reads
	// it back from the retry, so that every round of a call shares one
	// trace whichever instance serves it. It must return a traceparent
	// (55 characters) or "": the value travels, sealed, in every round.
	// Package runtime/otelmcp sets it.
	TraceContext func(ctx context.Context) string
	// Logger, when set, receives one record per request of a flow or
	// exchange, "mcpgen round", with tool, flow_id, round and outcome:
	// asked (with the inputRequests keys), completed, declined or cancelled
	// (with is_error), replayed, rejected (with the reason; level Warn) or
	// failed (the branch returned an error, not quoted; level Warn). Answer
	// values and the state are never logged.
	Logger *slog.Logger
	// Now returns the current time (default time.Now), for tests.
	Now func() time.Time
	// Store makes every retry of a flow run at most once: it holds each
	// flow's claim and then its final response until the flow's lifetime
	// ends (see [Store]). Default: one [MemoryStore] per process, right for
	// a single instance. Instances that share Keys must share a Store
	// (runtime/redisstore): a retry sent to an instance with another store
	// is refused (-32602, "start the call again"), the store's epoch
	// differing. When the store fails, a retry is refused with JSON-RPC
	// -32603 and runs nothing; OnReject hears an error wrapping [ErrStore].
	// A first call that asks reads the store's epoch ([Store.Epoch]) to
	// seal it in the state; when that fails it is refused the same way.
	Store Store
	// PageStore holds the pages of URL-mode questions (see [PageStore];
	// package runtime/page serves them). When nil it is Store when Store
	// is a PageStore too ([MemoryStore] and runtime/redisstore's Store
	// are); with no Store either, the process's in-memory store that every
	// Options without a Store shares: right for one instance. A Store that
	// keeps no pages with a nil PageStore is a mistake a server would only
	// see across instances (a page completed on one, lost on the other):
	// every page operation then fails with [ErrNoPageStore], and a URL-mode
	// question ends its call in an error, running no branch. Instances that
	// serve each other's pages (behind one PageURL) must share a PageStore.
	PageStore PageStore
	// ClaimWait is how long a retry whose flow another request is running
	// waits for that request's record before it is refused with JSON-RPC
	// -32603 "retry later" (default [DefaultClaimWait], 2 s; negative: no
	// wait). No branch runs either way.
	ClaimWait time.Duration
	// ClaimLease is how long a retry's claim on its flow lasts in the store
	// unless renewed (default [DefaultClaimLease], 10 s). While the branch
	// runs the engine renews it every third of the lease; a claim left
	// behind by a request that never ran its branch (a store that stalled
	// past the request's timeout) or by an instance that died mid-branch
	// lapses after at most one lease, and the next retry runs the branch.
	// When a whole lease passes without a renewal the store confirmed, the
	// branch's context is cancelled with a cause wrapping [ErrClaimLost]
	// (another retry may now claim the flow), and the branch's result is
	// recorded only if its claim still holds. It must exceed the store's
	// worst round trip by a wide margin.
	ClaimLease time.Duration
	// PageURL is where a user's browser reaches the page handler of
	// URL-mode questions (package runtime/page), e.g.
	// "https://mcp.example.com/elicit/": a question asked in URL mode (MCP
	// 2026-07-28, client/elicitation, "URL Mode Elicitation Requests") is
	// sent as PageURL followed by the page's opaque random id (after a
	// slash, added when PageURL lacks one), and nothing else. Required to ask a URL-mode question; every instance serves every
	// page, its store shared (see Store).
	PageURL string
	// PageWait is how long a retry that finds its URL-mode page not yet
	// completed, or whose [AskURL] step the client accepted but done does
	// not report finished yet, waits for it before asking again with the
	// same URL (default [DefaultPageWait], 15 s). Such re-asks do not count
	// towards MaxRounds; the page's expiry (the flow's) bounds them. A
	// 2025-11-25 session's call, whose client waits for
	// notifications/elicitation/complete, waits until the page (the flow)
	// expires or the request ends.
	PageWait time.Duration
	// MaxPagesPerPrincipal bounds the URL-mode pages one principal may have
	// open at once (default [DefaultMaxPagesPerPrincipal], 20; negative: no
	// bound): a page counts from the call that asked for it until its flow
	// expires or the call completes, per process and per Store (N
	// instances allow N times as many). Beyond it the call is a tool error
	// saying when the first of them expires, and nothing is stored.
	// Without it one user calling such a tool again and again would fill
	// the store (a page's sealed record outlives its flow by an hour), and
	// a full store refuses every user's retries.
	MaxPagesPerPrincipal int
	// MaxFlowsPerPrincipal bounds the flows one caller may have in the
	// store at once (default [DefaultMaxFlowsPerPrincipal], 1000;
	// negative: no bound): a flow counts from its retry's claim while the
	// branch runs and, once completed, while its record is kept (until its
	// state opens nowhere: Options.TTL and ClockSkew after round 1), per
	// process and per Store (N instances allow N times as many). A caller
	// is its principal, else, for an anonymous request over HTTP, the
	// client's IP address (an IPv6 one by its /64 prefix; behind a reverse
	// proxy every anonymous client shares the proxy's, so set the
	// adapter's Principal), else every anonymous caller together (stdio).
	// A retry beyond it is refused with JSON-RPC -32603 naming the limit
	// and when the caller's first flow expires; nothing runs, and
	// [Options.OnReject] hears [ErrFlowQuota]. Without it one anonymous
	// client completing small flows again and again would fill the store,
	// and a full store refuses every caller's final retry: at 1000 the
	// caller holds about 400 KB of a MemoryStore (see docs/capacity.md).
	MaxFlowsPerPrincipal int
}

// FlowStore returns the store flows run with these options use: o.Store,
// or, when it is nil, the process's in-memory store ([MemoryStore]) that
// every Options without a Store shares.
func (o *Options) FlowStore() Store {
	if o.Store != nil {
		return o.Store
	}
	return defaultStore
}

// FlowPageStore returns the page store flows run with these options use:
// o.PageStore, or, when it is nil, [Options.FlowStore] when that is a
// [PageStore] too; for a Store that keeps no pages, a page store whose
// every operation fails with [ErrNoPageStore]. Handlers that must see the
// pages flows store (package runtime/page) read it through FlowPageStore.
func (o *Options) FlowPageStore() PageStore {
	if o.PageStore != nil {
		return o.PageStore
	}
	if ps, ok := o.FlowStore().(PageStore); ok {
		return ps
	}
	return noPageStore{o.Store}
}

// ErrNoPageStore is the error of every page operation when [Options.Store]
// keeps no pages and [Options.PageStore] is nil: set PageStore (a store
// every instance shares, such as runtime/redisstore's, or a [MemoryStore]
// for one instance).
var ErrNoPageStore = errors.New("mcpgen: Options.Store keeps no URL-mode pages and Options.PageStore is nil: set Options.PageStore")

// noPageStore is the page store of a Store that keeps no pages: it keeps
// none either, and says why.
type noPageStore struct{ flows Store }

func (n noPageStore) fail() error { return fmt.Errorf("%w (Store is %T)", ErrNoPageStore, n.flows) }

func (n noPageStore) PutPage(context.Context, string, []byte, time.Time) error { return n.fail() }

func (n noPageStore) Page(context.Context, string) ([]byte, []byte, error) { return nil, nil, n.fail() }

func (n noPageStore) CompletePage(context.Context, string, []byte) error { return n.fail() }

func (n noPageStore) DeletePage(context.Context, string) error { return n.fail() }

func (o *Options) withDefaults() *Options {
	c := *o
	if c.TTL <= 0 {
		c.TTL = DefaultTTL
	}
	if c.MaxRounds <= 0 {
		c.MaxRounds = DefaultMaxRounds
	}
	if c.MaxStateSize <= 0 {
		c.MaxStateSize = DefaultMaxStateSize
	}
	if c.MaxArgumentsBytes == 0 {
		c.MaxArgumentsBytes = DefaultMaxArgumentsBytes
	}
	if c.MaxContentBytes == 0 {
		c.MaxContentBytes = DefaultMaxContentBytes
	}
	if c.MaxStringBytes == 0 {
		c.MaxStringBytes = DefaultMaxStringBytes
	}
	if c.MaxSelectItems == 0 {
		c.MaxSelectItems = DefaultMaxSelectItems
	}
	if c.ClockSkew <= 0 {
		c.ClockSkew = DefaultClockSkew
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	c.Store, c.PageStore = c.FlowStore(), c.FlowPageStore()
	if c.ClaimWait == 0 {
		c.ClaimWait = DefaultClaimWait
	}
	if c.ClaimLease <= 0 {
		c.ClaimLease = DefaultClaimLease
	}
	if c.MaxPagesPerPrincipal == 0 {
		c.MaxPagesPerPrincipal = DefaultMaxPagesPerPrincipal
	}
	if c.MaxFlowsPerPrincipal == 0 {
		c.MaxFlowsPerPrincipal = DefaultMaxFlowsPerPrincipal
	}
	if c.PageWait <= 0 {
		c.PageWait = DefaultPageWait
	}
	return &c
}
