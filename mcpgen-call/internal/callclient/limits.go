package callclient

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// Limits a server cannot push `mcpgen-call` past. A server is a program of
// someone else's: whatever it sends, one call reads a bounded number of
// bytes, follows a bounded number of tools/list pages, opens a bounded
// number of pages, and shows no form larger than these; each limit reached
// ends the call with an error naming the limit and what the server sent.
const (
	// MaxReadBytes bounds the bytes read from the server over one call
	// (every HTTP response body, or a stdio server's standard output).
	MaxReadBytes = 32 << 20
	// MaxListPages bounds the tools/list pages followed (each nextCursor
	// is one more page).
	MaxListPages = 100
	// MaxURLOpens bounds the URL-mode elicitations answered in one call:
	// the pages shown or handed to -open-cmd.
	MaxURLOpens = 10
	// MaxFormFields bounds the properties of one form's requestedSchema.
	MaxFormFields = 1000
	// MaxFormBytes bounds one form's requestedSchema, as JSON.
	MaxFormBytes = 1 << 20
)

// A limitError is a limit of the list above that the server went past:
// Limit is the constant's name, What says what the server sent.
type limitError struct {
	Limit string
	What  string
}

func (e *limitError) Error() string {
	return fmt.Sprintf("%s (mcpgen-call's limit %s)", e.What, e.Limit)
}

// readBudget is MaxReadBytes for one call: every byte read from the server
// passes through a reader it wraps. The read that goes past it fails, and
// over calls the run's end with the limitError, so that the call stops with
// it whatever layer of go-sdk saw the failed read.
type readBudget struct {
	max  int64
	read atomic.Int64
	once sync.Once
	over func(error)
}

// wrap returns r counted against the budget.
func (b *readBudget) wrap(r io.ReadCloser) io.ReadCloser {
	return &budgetReader{ReadCloser: r, b: b}
}

type budgetReader struct {
	io.ReadCloser
	b *readBudget
}

func (r *budgetReader) Read(p []byte) (int, error) {
	left := r.b.max - r.b.read.Load()
	if left <= 0 {
		// At the limit: a body that ends here is within it.
		var one [1]byte
		if n, err := r.ReadCloser.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, r.b.exceeded()
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := r.ReadCloser.Read(p)
	r.b.read.Add(int64(n))
	return n, err
}

// exceeded reports the budget spent, once, and returns its error.
func (b *readBudget) exceeded() error {
	err := &limitError{Limit: "MaxReadBytes",
		What: fmt.Sprintf("the server sent more than %s in this call", byteSize(b.max))}
	b.once.Do(func() { b.over(err) })
	return err
}

// budgetTransport counts every HTTP response body against the budget.
type budgetTransport struct {
	base   http.RoundTripper
	budget *readBudget
}

func (t budgetTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		resp.Body = t.budget.wrap(resp.Body)
	}
	return resp, err
}

// byteSize writes n bytes as "32 MiB" when whole mebibytes, else
// "1234 bytes".
func byteSize(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
