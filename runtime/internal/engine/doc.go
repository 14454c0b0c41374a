// Package engine runs what mcpgen generates: the rounds of a flow or an
// exchange (round.go), the forms they ask (form.go), the sealed
// requestState (state.go, statecodec.go, keyring.go), the at-most-once
// record of each flow (once.go, store.go, memstore.go), questions asked from
// a branch (ask.go, urlask.go) and their run-time rules (rules.go).
//
// Package runtime is its façade: the names a user calls, each an alias of
// this package's or a function handed on, with the documentation a user
// reads; the comments here say how the engine works. runtime/impl builds a
// generated flow with [NewFlow] from the [Def] that generated code states,
// and runtime/elicittest reads it back with [DefOf]; only packages under
// runtime/ can import this one. The exported names it declares beyond the
// façade's are those three.
package engine
