package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

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
type Rejection = engine.Rejection

// Options configure how flows run on one server. Every instance behind a
// load balancer must share Keys; nothing else is shared.
type Options = engine.Options

// MaxArgumentsDepth bounds how deeply a request's arguments may nest objects
// and arrays (the arguments object itself counts as one); deeper arguments
// are refused with JSON-RPC -32602 before anything else reads them, since
// every reading costs more with each level (the canonical form of each
// object holds its members' forms).
const MaxArgumentsDepth = engine.MaxArgumentsDepth
