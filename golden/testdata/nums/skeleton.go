package nums

// IntsSkeleton is the handler skeleton mcpgen wrote for Ints, untouched, so
// golden tests can run what a fresh user runs.
var IntsSkeleton IntsHandler = intsHandler{}
