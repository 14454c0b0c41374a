package callclient

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxWireBody bounds the part of an HTTP error's body that -wire prints.
const maxWireBody = 4096

// wireLog is -wire: one line per message sent or received ("sent: {…}",
// "received: {…}"), and one per HTTP error status with its body
// ("received: HTTP 401 Unauthorized: …"), which carries no message go-sdk
// would read. A nil *wireLog prints nothing.
type wireLog struct {
	w io.Writer // takes concurrent writes (Main's stderr)
}

func (l *wireLog) message(what string, msg jsonrpc.Message) {
	if l == nil {
		return
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		b = []byte(err.Error())
	}
	l.line(what, b)
}

// status prints an HTTP response that is not a success: its status line
// and its body, cut at maxWireBody bytes.
func (l *wireLog) status(status string, body []byte) {
	if l == nil {
		return
	}
	b := []byte("HTTP " + status)
	if body = bytes.TrimSpace(body); len(body) > maxWireBody {
		b = fmt.Appendf(b, ": %s… (%d bytes more)", body[:maxWireBody], len(body)-maxWireBody)
	} else if len(body) > 0 {
		b = fmt.Appendf(b, ": %s", body)
	}
	l.line("received", b)
}

func (l *wireLog) line(what string, b []byte) {
	fmt.Fprintf(l.w, "%s: %s\n", what, clean(string(b))) // one Write: one line
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
