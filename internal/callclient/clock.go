package callclient

import (
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DefaultTimeout is -timeout's default: long enough for a stdio server
// started with `go run`, which compiles before it answers (a cold build of
// examples/bookflight took 3.5 minutes on a 2-core machine).
const DefaultTimeout = 5 * time.Minute

// clock is -timeout: it bounds each wait for the server. It runs while a
// request the client sent has no response yet, and restarts on every
// message the server sends; it stops while the client answers a request
// of the server's (a 2025-11-25 elicitation/create: the time a person
// spends on a form is never bounded) and restarts when the answer is sent.
// In 2026-07-28 a form is answered between two tools/call rounds, when no
// request is pending. When it runs out, expire is called once with the
// error naming the oldest pending request.
type clock struct {
	d      time.Duration // 0: no bound
	where  string
	expire func(error)

	mu        sync.Mutex
	pending   map[string]pendingRequest // by JSON-RPC id
	seq       int
	answering int // server requests received and not yet answered
	timer     *time.Timer
}

type pendingRequest struct {
	name string
	seq  int
}

func newClock(d time.Duration, where string, expire func(error)) *clock {
	return &clock{d: d, where: where, expire: expire, pending: map[string]pendingRequest{}}
}

// sent notes a message the client is about to send.
func (c *clock) sent(msg jsonrpc.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() {
			c.seq++
			c.pending[idKey(m.ID)] = pendingRequest{requestName(m), c.seq}
		}
	case *jsonrpc.Response:
		c.answering = max(0, c.answering-1)
	}
	c.update()
}

// received notes a message from the server.
func (c *clock) received(msg jsonrpc.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() {
			c.answering++
		}
	case *jsonrpc.Response:
		delete(c.pending, idKey(m.ID))
	}
	c.update()
}

// settled notes a request that will have no response (its send failed).
func (c *clock) settled(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, idKey(id))
	c.update()
}

// update starts the clock afresh, or stops it; c.mu is held.
func (c *clock) update() {
	if c.d <= 0 {
		return
	}
	if len(c.pending) == 0 || c.answering > 0 {
		if c.timer != nil {
			c.timer.Stop()
		}
		return
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(c.d, c.fire)
	} else {
		c.timer.Reset(c.d)
	}
}

func (c *clock) fire() {
	c.mu.Lock()
	var oldest pendingRequest
	for _, p := range c.pending {
		if oldest.seq == 0 || p.seq < oldest.seq {
			oldest = p
		}
	}
	running := oldest.seq != 0 && c.answering == 0
	c.mu.Unlock()
	if running {
		c.expire(&timeoutError{Method: oldest.name, Where: c.where, After: c.d})
	}
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T %v", id.Raw(), id.Raw()) }

// A timeoutError is -timeout run out: the server sent nothing for After
// while Method waited for its response.
type timeoutError struct {
	Method string
	Where  string
	After  time.Duration
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("%s at %s: no answer from the server within -timeout %v (-timeout 0 waits forever)", e.Method, e.Where, e.After)
}
