package callclient

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxErrorBody bounds how much of an HTTP error's body is read.
const maxErrorBody = 64 << 10

// statusTransport sees every HTTP response that is not a success (status
// 400 or more): -wire prints it with its body, and a POST's is turned into
// an *httpError, which go-sdk's error then wraps, so that the caller knows
// the status (fallbackAllowed, the report), unless its body is a JSON-RPC
// error response (MCP 2026-07-28 Streamable HTTP: an error may come with an
// HTTP 4xx status), which go-sdk reads as the request's JSON-RPC error. A
// 401 or 403 is always an *httpError: authentication is HTTP's.
type statusTransport struct {
	base http.RoundTripper
	wire *wireLog
}

func (t statusTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %s: reading the body: %w", resp.Status, err)
	}
	t.wire.status(resp.Status, body)
	auth := resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden
	if r.Method != http.MethodPost || !auth && isJSONRPCError(body) {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	return nil, &httpError{Status: resp.StatusCode, Line: resp.Status, Body: string(body), SentAuth: r.Header.Get("Authorization") != ""}
}

type readCloser struct {
	io.Reader
	io.Closer
}

func isJSONRPCError(body []byte) bool {
	msg, err := jsonrpc.DecodeMessage(body)
	resp, ok := msg.(*jsonrpc.Response)
	return err == nil && ok && resp.Error != nil
}

// An httpError is an HTTP response to a POST that is not a success and
// carries no JSON-RPC error: Line is its status line ("401 Unauthorized"),
// Body its body (bounded by maxErrorBody).
type httpError struct {
	Status   int
	Line     string
	Body     string
	SentAuth bool // the request had an Authorization header
}

// Error is "HTTP 401 Unauthorized: the body's first line (a hint)"; the
// hint for 401 says to send a bearer token (RFC 6750), or that the one sent
// was refused.
func (e *httpError) Error() string {
	s := "HTTP " + e.Line
	if first, _, _ := strings.Cut(strings.TrimSpace(e.Body), "\n"); first != "" && !strings.EqualFold(first, http.StatusText(e.Status)) {
		if len(first) > 200 {
			first = first[:200] + "…"
		}
		s += ": " + first
	}
	switch {
	case e.Status == http.StatusUnauthorized && e.SentAuth:
		s += " (the server refused the Authorization header sent)"
	case e.Status == http.StatusUnauthorized:
		s += " (set -H 'Authorization: Bearer …')"
	}
	return s
}
