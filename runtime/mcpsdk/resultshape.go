package mcpsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shaped holds the servers whose input-required tool results are written
// without "content": null (see shapeResults), by *mcp.Server.
var shaped sync.Map

// shapeResults installs, once per server, a receiving middleware that writes
// a tools/call's input-required result without the "content": null go-sdk
// v1.8.0 puts in it (its CallToolResult encodes a nil Content as null, and
// it fills in [] only for complete results). An input-required result
// carries resultType, inputRequests and requestState, and no content (MCP
// 2026-07-28, basic/patterns/mrtr: a result never carries both content and
// input requests; schema.ts, InputRequiredResult); a null where a client's
// schema expects an array or nothing is what a strict client refuses.
func shapeResults(s *mcp.Server) {
	if _, loaded := shaped.LoadOrStore(s, true); loaded {
		return
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.Content == nil && len(r.InputRequests) > 0 {
				return inputRequired{r}, err
			}
			return res, err
		}
	})
}

// inputRequired is an input-required CallToolResult that encodes without
// "content": null.
type inputRequired struct{ *mcp.CallToolResult }

// MarshalJSON encodes the result as go-sdk does, without "content": null.
// go-sdk writes _meta (when set) and then content first; only that member
// is cut, the rest of the bytes are go-sdk's.
func (r inputRequired) MarshalJSON() ([]byte, error) {
	b, err := r.CallToolResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	at := 1 // after '{'
	if bytes.HasPrefix(b, []byte(`{"_meta":`)) {
		dec := json.NewDecoder(bytes.NewReader(b))
		var meta json.RawMessage
		if _, err := dec.Token(); err != nil {
			return b, nil
		}
		if _, err := dec.Token(); err != nil {
			return b, nil
		}
		if err := dec.Decode(&meta); err != nil {
			return b, nil
		}
		at = int(dec.InputOffset()) + 1 // after the ',' that follows _meta
	}
	const member = `"content":null,`
	if at > len(b) || !bytes.HasPrefix(b[at:], []byte(member)) {
		return b, nil
	}
	return append(b[:at:at], b[at+len(member):]...), nil
}
