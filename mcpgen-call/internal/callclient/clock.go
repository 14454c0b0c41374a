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

// clock is -timeout: it bounds the whole call, from connecting to the
// result (discovery, every tools/list page, every round of a tools/call,
// -open-cmd), whatever the server sends meanwhile; only the time a person
// spends in a form or on a URL-mode page in the terminal is not counted
// (pause). When it runs out, expire is called once with a *timeoutError
// naming the oldest request still waiting for the server, if any.
type clock struct {
	d      time.Duration // 0: no bound
	where  string
	expire func(error)

	mu      sync.Mutex
	pending map[string]pendingRequest // by JSON-RPC id
	seq     int
	left    time.Duration // of d, when the clock last (re)started
	since   time.Time     // when it last (re)started
	paused  int           // pauses not yet ended
	timer   *time.Timer
}

type pendingRequest struct {
	name string
	seq  int
}

// newClock starts the clock.
func newClock(d time.Duration, where string, expire func(error)) *clock {
	c := &clock{d: d, where: where, expire: expire, pending: map[string]pendingRequest{}, left: d, since: time.Now()}
	if d > 0 {
		c.timer = time.AfterFunc(d, c.fire)
	}
	return c
}

// pause stops the clock while a person answers, until the returned
// function is called (pauses nest).
func (c *clock) pause() (resume func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused == 0 && c.timer != nil {
		c.timer.Stop()
		c.left -= time.Since(c.since)
	}
	c.paused++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.paused--
			if c.paused == 0 && c.timer != nil {
				c.since = time.Now()
				c.timer.Reset(max(c.left, 0))
			}
		})
	}
}

// stop ends the clock (the call is over).
func (c *clock) stop() {
	if c.timer != nil {
		c.timer.Stop()
	}
}

// sent notes a message the client is about to send.
func (c *clock) sent(msg jsonrpc.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := msg.(*jsonrpc.Request); ok && m.IsCall() {
		c.seq++
		c.pending[idKey(m.ID)] = pendingRequest{requestName(m), c.seq}
	}
}

// received notes a message from the server.
func (c *clock) received(msg jsonrpc.Message) {
	if m, ok := msg.(*jsonrpc.Response); ok {
		c.settled(m.ID)
	}
}

// settled notes a request that has its response, or will have none (its
// send failed).
func (c *clock) settled(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, idKey(id))
}

func (c *clock) fire() {
	c.mu.Lock()
	var oldest pendingRequest
	for _, p := range c.pending {
		if oldest.seq == 0 || p.seq < oldest.seq {
			oldest = p
		}
	}
	running := c.paused == 0
	c.mu.Unlock()
	if running {
		c.expire(&timeoutError{Method: oldest.name, Where: c.where, After: c.d})
	}
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T %v", id.Raw(), id.Raw()) }

// A timeoutError is -timeout run out: the call took longer than After
// (time in forms not counted); Method is the request then waiting for the
// server, if any.
type timeoutError struct {
	Method string
	Where  string
	After  time.Duration
}

func (e *timeoutError) Error() string {
	const tail = "(it bounds the whole call, but for the time spent in forms; -timeout 0 waits forever)"
	if e.Method == "" {
		return fmt.Sprintf("the call to %s was not done within -timeout %v %s", e.Where, e.After, tail)
	}
	return fmt.Sprintf("%s at %s: not done within -timeout %v %s", e.Method, e.Where, e.After, tail)
}
