package callclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC methods the tap tells apart (MCP 2026-07-28 server/discover;
// the 2025-11-25 initialize go-sdk falls back to when discover fails).
const (
	methodDiscover   = "server/discover"
	methodInitialize = "initialize"
)

// tapTransport wraps the client's transport: every message passes through
// one tapConn, which
//   - reads each received message's property orders (propertyOrders.record);
//   - prints every message sent, before it is sent, and received (-wire);
//   - tells the -timeout clock which requests wait for the server (the
//     error names the oldest when it runs out);
//   - names the request a failed send was (requestError), and refuses the
//     2025-11-25 initialize go-sdk falls back to when server/discover failed
//     for a reason other than the server not knowing it (fallbackAllowed).
type tapTransport struct {
	mcp.Transport
	where  string // the URL, or the command line
	orders *propertyOrders
	wire   *wireLog
	clock  *clock
}

func (t tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, tap: t}, nil
}

// tapConn is the tap's one connection; the caller reads failed after
// Connect or the call returns.
type tapConn struct {
	mcp.Connection
	tap tapTransport

	mu         sync.Mutex
	failure    *requestError // the first request that could not be sent
	noFallback *requestError // server/discover failed; initialize must not be sent
	fellBack   error         // server/discover failed in a way that allows the fallback
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		return msg, err
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		c.tap.orders.record(m.Params)
	case *jsonrpc.Response:
		c.tap.orders.record(m.Result)
	}
	c.tap.clock.received(msg)
	c.tap.wire.message("received", msg)
	return msg, nil
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	req, _ := msg.(*jsonrpc.Request)
	if req != nil && req.Method == methodInitialize {
		c.mu.Lock()
		blocked := c.noFallback
		c.mu.Unlock()
		if blocked != nil {
			return blocked
		}
	}
	c.tap.wire.message("sent", msg)
	c.tap.clock.sent(msg)
	err := c.Connection.Write(ctx, msg)
	if err == nil || req == nil || !req.IsCall() {
		return err
	}
	c.tap.clock.settled(req.ID)
	rerr := &requestError{Method: requestName(req), Where: c.tap.where, Err: sendCause(err)}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case req.Method == methodDiscover && fallbackAllowed(err):
		c.fellBack = rerr.Err
		return err
	case req.Method == methodDiscover:
		c.noFallback = rerr
	case req.Method == methodInitialize && c.fellBack != nil:
		rerr.After = c.fellBack
	}
	if c.failure == nil {
		c.failure = rerr
	}
	return err
}

// failed returns the first request that could not be sent, if any.
func (c *tapConn) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failure == nil {
		return nil
	}
	return c.failure
}

// fallbackAllowed reports whether a failed server/discover means the
// server does not know the method or the version, so that a 2025-11-25
// initialize may follow: it answered with a JSON-RPC error (method not
// found, unsupported protocol version, …), or with HTTP 400, 404 or 405
// and no JSON-RPC body, as servers of 2025-11-25 refuse a request outside a
// session. An HTTP 401 or 403 (authentication), any other status, and a
// request that reached no server end the call (MCP 2026-07-28
// server/discover says to fall back on an error; one that is not the
// server's answer about the method is not one).
func fallbackAllowed(err error) bool {
	switch cause := sendCause(err).(type) {
	case *httpError:
		return cause.Status == 400 || cause.Status == 404 || cause.Status == 405
	case *jsonrpc.Error:
		return true
	}
	return false
}

// A requestError is a request that could not be sent or was refused
// before the server answered it in JSON-RPC: Method (with the tool's name
// for tools/call), Where (the URL or the command line), and why.
type requestError struct {
	Method string
	Where  string
	Err    error
	After  error // server/discover's failure, when this is the fallback initialize
}

func (e *requestError) Error() string {
	s := fmt.Sprintf("%s at %s: %v", e.Method, e.Where, e.Err)
	if e.After != nil {
		s += fmt.Sprintf(" (after %s: %v)", methodDiscover, e.After)
	}
	return s
}

func (e *requestError) Unwrap() error { return e.Err }

// requestName is a request's method, with the tool's name for tools/call.
func requestName(req *jsonrpc.Request) string {
	if req.Method == "tools/call" {
		var p struct{ Name string }
		if json.Unmarshal(req.Params, &p) == nil && p.Name != "" {
			return "tools/call " + p.Name
		}
	}
	return req.Method
}

// sendCause strips go-sdk's wrapping of a failed send down to what went
// wrong: the HTTP status (an *httpError), the network's error (inside the
// *url.Error of net/http's client), or the server's JSON-RPC error (a
// *jsonrpc.Error; go-sdk also wraps a request that reached no server in
// one, its jsonrpc2.ErrRejected, hence the order).
func sendCause(err error) error {
	var herr *httpError
	if errors.As(err, &herr) {
		return herr
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return werr
	}
	return err
}
