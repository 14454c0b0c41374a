package engine

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// ctxRoundKey is the context key of the round a Choices function or
// FormOptions runs in (branches, the Unaskable fallback and exchange
// handlers find theirs through their asker).
type ctxRoundKey struct{}

// ClientOf returns what the client of the request ctx belongs to declared
// (see [protocol.Client]): its capabilities (MCP 2026-07-28, basic:
// per-request capabilities in _meta; MCP 2025-11-25, basic/lifecycle: those
// of the session's initialize), its protocol version and era
// ([protocol.Client.MRTR]), and whether a form can be sent to it
// ([protocol.Client.CanAsk]). See runtime.ClientOf.
func ClientOf(ctx context.Context) protocol.Client {
	var r *round
	if a := askerFrom(ctx); a != nil {
		r = a.r
	} else if rr, ok := ctx.Value(ctxRoundKey{}).(*round); ok {
		r = rr
	}
	if r == nil || r.req == nil {
		return protocol.Client{}
	}
	return protocol.ClientOf(r.req)
}
