package callclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hostile server: an MCP server of MCP 2026-07-28 (stateless, JSON
// responses over Streamable HTTP) written for the attacks below. It answers
// server/discover itself and hands tools/list and tools/call to the test's
// functions, which write the whole response (so that one can stream
// without end).
type hostile struct {
	list func(w http.ResponseWriter, id json.RawMessage, cursor string)
	call func(w http.ResponseWriter, id json.RawMessage, params callParams)
}

// callParams is what a tools/call carries: the tool, and on later rounds
// the answers to the last round's input requests.
type callParams struct {
	Name           string                     `json:"name"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// start serves h on a loopback port and returns its endpoint.
func (h hostile) start(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.ID == nil { // a notification
			w.WriteHeader(http.StatusAccepted)
			return
		}
		switch req.Method {
		case "server/discover":
			reply(w, req.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{Protocol2026},
				"capabilities": map[string]any{"tools": map[string]any{}}})
		case "tools/list":
			var p struct{ Cursor string }
			_ = json.Unmarshal(req.Params, &p)
			h.list(w, req.ID, p.Cursor)
		case "tools/call":
			var p callParams
			_ = json.Unmarshal(req.Params, &p)
			h.call(w, req.ID, p)
		default:
			reply(w, req.ID, nil)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// reply writes a JSON-RPC response with result.
func reply(w http.ResponseWriter, id json.RawMessage, result any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// inputRequired is an input_required result asking the given requests.
func inputRequired(requests map[string]any) map[string]any {
	return map[string]any{"resultType": "input_required", "requestState": "s", "inputRequests": requests}
}

// urlRequest is an elicitation/create input request of URL mode.
func urlRequest(id, link string) map[string]any {
	return map[string]any{"method": "elicitation/create", "params": map[string]any{
		"mode": "url", "message": "Open the page", "url": link, "elicitationId": id}}
}

// done is a complete tools/call result with text.
func done(text string) map[string]any {
	return map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text", "text": text}}}
}

// askOnce is a hostile server whose tools/call asks the input requests
// made by ask, and completes with text once they are answered.
func askOnce(ask func() map[string]any, text string) hostile {
	return hostile{call: func(w http.ResponseWriter, id json.RawMessage, p callParams) {
		if p.InputResponses != nil {
			reply(w, id, done(text))
			return
		}
		reply(w, id, inputRequired(ask()))
	}}
}

// recorder is an -open-cmd that appends each URL it is given, a line
// each, to the file it returns.
func recorder(t *testing.T) (cmd, log string) {
	dir := t.TempDir()
	log = filepath.Join(dir, "opened")
	cmd = filepath.Join(dir, "open")
	require.NoError(t, os.WriteFile(cmd, []byte("#!/bin/sh\necho \"$1\" >> "+log+"\n"), 0o700))
	return cmd, log
}

func opened(t *testing.T, log string) []string {
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Fields(string(b))
}

// F4: only absolute http and https URLs with a host are shown or handed to
// -open-cmd; any other is refused with the URL named, and nothing is run.
func TestHostileURLSchemes(t *testing.T) {
	var link atomic.Value
	endpoint := askOnce(func() map[string]any {
		return map[string]any{"page": urlRequest("e1", link.Load().(string))}
	}, "opened").start(t)
	for _, tc := range []struct{ url, why string }{
		{"javascript://example.com/%0Aalert(1)", `has scheme javascript:; mcpgen-call opens only http and https URLs`},
		{"file://localhost/etc/passwd", `has scheme file:`},
		{"smb://evil.example/share", `has scheme smb:`},
		{"//evil.example/page", `has no scheme; mcpgen-call opens only http and https URLs`},
		{"data:text/html,<script>alert(1)</script>", `has scheme data:`},
		{"http:///etc/passwd", `has no host`},
		{"https://", `has no host`},
		{"/relative/page", `has no scheme`},
	} {
		link.Store(tc.url)
		cmd, log := recorder(t)
		code, _, errs := call(t, "-open-cmd", cmd, endpoint, "t", "{}")
		assert.Equal(t, 1, code, tc.url)
		assert.Contains(t, errs, "mcpgen-call: URL elicitation e1: "+fmt.Sprintf("%q", tc.url), tc.url)
		assert.Contains(t, errs, tc.why, tc.url)
		assert.Empty(t, opened(t, log), tc.url)
	}
	// http and https are opened, whatever the letter case of the scheme.
	for _, ok := range []string{"http://127.0.0.1:9/page", "HTTPS://example.com/p?q=1"} {
		link.Store(ok)
		cmd, log := recorder(t)
		code, out, errs := call(t, "-open-cmd", cmd, endpoint, "t", "{}")
		assert.Equal(t, 0, code, errs)
		assert.Equal(t, "opened\n", out)
		assert.Equal(t, []string{ok}, opened(t, log))
	}
}

// F5: at most MaxURLOpens pages a call, asked all at once in one
// 2026-07-28 round or one after another in a 2025-11-25 session (a go-sdk
// server whose tool asks 200 pages).
func TestHostileURLOpensBounded(t *testing.T) {
	t.Run(Protocol2026, func(t *testing.T) {
		endpoint := hostile{call: func(w http.ResponseWriter, id json.RawMessage, p callParams) {
			requests := map[string]any{}
			for i := range 200 {
				requests[fmt.Sprint("p", i)] = urlRequest(fmt.Sprint("e", i), fmt.Sprintf("http://127.0.0.1:9/page/%d", i))
			}
			reply(w, id, inputRequired(requests))
		}}.start(t)
		cmd, log := recorder(t)
		code, _, errs := call(t, "-open-cmd", cmd, endpoint, "t", "{}")
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, errs, fmt.Sprintf("; mcpgen-call opens at most %d (mcpgen-call's limit MaxURLOpens)", MaxURLOpens))
		assert.LessOrEqual(t, len(opened(t, log)), MaxURLOpens)
	})
	t.Run(Protocol2025, func(t *testing.T) {
		cmd, log := recorder(t)
		code, out, errs := call(t, "-protocol", Protocol2025, "-open-cmd", cmd, pagesServer(t, 200, false), "t", "{}")
		assert.Equal(t, 1, code, errs)
		assert.Empty(t, out)
		assert.Contains(t, errs, fmt.Sprintf("mcpgen-call: the server asked to open page %d in this call (http://127.0.0.1:9/page/%d); mcpgen-call opens at most %d (mcpgen-call's limit MaxURLOpens)\n",
			MaxURLOpens+1, MaxURLOpens, MaxURLOpens))
		assert.Len(t, opened(t, log), MaxURLOpens)
	})
	// One page the server asks again and again (it still waits for it) is
	// one page: opened once, and not refused.
	t.Run("again", func(t *testing.T) {
		cmd, log := recorder(t)
		code, out, errs := call(t, "-protocol", Protocol2025, "-open-cmd", cmd, pagesServer(t, 3*MaxURLOpens, true), "t", "{}")
		assert.Equal(t, 0, code, errs)
		assert.Equal(t, "30 pages asked\n", out)
		assert.Equal(t, []string{"http://127.0.0.1:9/page/0"}, opened(t, log))
		assert.Equal(t, 3*MaxURLOpens-1, strings.Count(errs, "The server still waits for this page (host: 127.0.0.1:9):\n"))
	})
}

// pagesServer is a go-sdk server of 2025-11-25 sessions whose tool t asks
// n URL-mode pages one after another (the same page each time when same),
// then returns "n pages asked"; it returns the endpoint.
func pagesServer(t *testing.T, n int, same bool) string {
	server := mcp.NewServer(&mcp.Implementation{Name: "pages", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i := range n {
				if same {
					i = 0
				}
				if _, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Open the page",
					URL: fmt.Sprintf("http://127.0.0.1:9/page/%d", i), ElicitationID: fmt.Sprint("e", i)}); err != nil {
					return nil, err
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%d pages asked", n)}}}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// F5: a tools/list whose every page has a nextCursor is followed for
// MaxListPages pages, then refused.
func TestHostileListPages(t *testing.T) {
	var pages atomic.Int64
	endpoint := hostile{list: func(w http.ResponseWriter, id json.RawMessage, cursor string) {
		n := pages.Add(1)
		reply(w, id, map[string]any{"tools": []any{map[string]any{"name": fmt.Sprint("tool", n),
			"inputSchema": map[string]any{"type": "object"}}}, "nextCursor": fmt.Sprint("c", n)})
	}}.start(t)
	code, out, errs := call(t, endpoint)
	assert.Equal(t, 1, code, errs)
	assert.Equal(t, fmt.Sprintf("mcpgen-call: tools/list: the server sent %d pages and a nextCursor for one more; mcpgen-call follows at most %d (mcpgen-call's limit MaxListPages)\n",
		MaxListPages, MaxListPages), errs)
	assert.Equal(t, int64(MaxListPages), pages.Load())
	assert.True(t, strings.HasPrefix(out, "tool1\n"), out)
}

// hugeList writes a tools/list response of about size bytes, a tool at a
// time, until the client stops reading; it returns the bytes written.
func hugeList(w io.Writer, id json.RawMessage, size int) int {
	const tool = `{"name":"t","description":"a tool among very many","inputSchema":{"type":"object"}},`
	n, _ := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, id)
	chunk := []byte(strings.Repeat(tool, 1000))
	for n < size {
		m, err := w.Write(chunk)
		n += m
		if err != nil {
			return n
		}
	}
	m, _ := fmt.Fprint(w, `{"name":"last","inputSchema":{"type":"object"}}]}}`+"\n")
	return n + m
}

// F5: a 210 MB tools/list is not read whole: the call reads MaxReadBytes
// and stops, over HTTP and over stdio.
func TestHostileHugeList(t *testing.T) {
	const size = 210 << 20
	var written atomic.Int64
	endpoint := hostile{list: func(w http.ResponseWriter, id json.RawMessage, _ string) {
		w.Header().Set("Content-Type", "application/json")
		written.Store(int64(hugeList(w, id, size)))
	}}.start(t)
	want := "the server sent more than 32 MiB in this call (mcpgen-call's limit MaxReadBytes)\n"
	code, _, errs := call(t, endpoint)
	assert.Equal(t, 1, code, errs)
	assert.True(t, strings.HasSuffix(errs, want), errs)
	// The server could write no more than the client read and the
	// connection's buffers hold.
	assert.Less(t, written.Load(), int64(MaxReadBytes+16<<20))

	self, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(envHugeStdio, "1")
	code, _, errs = call(t, "--", self)
	assert.Equal(t, 1, code, errs)
	assert.True(t, strings.HasSuffix(errs, want), errs)
}

// envHugeStdio makes the test binary hugeStdioServer (TestMain).
const envHugeStdio = "CALLCLIENT_HUGE_STDIO"

// hugeStdioServer is a stdio MCP server whose tools/list is 210 MB.
func hugeStdioServer() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		switch req.Method {
		case "server/discover":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":["%s"],"capabilities":{"tools":{}}}}`+"\n", req.ID, Protocol2026)
		case "tools/list":
			hugeList(out, req.ID, 210<<20)
		}
		if out.Flush() != nil {
			return 0
		}
	}
	return 0
}

// formRequest is a form-mode elicitation/create input request asking n
// string fields, named so that their wire order is not their sorted order.
func formRequest(n int) map[string]any {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string"}`, n-i)
	}
	b.WriteString(`}}`)
	return map[string]any{"method": "elicitation/create", "params": map[string]any{
		"mode": "form", "message": "Fill in everything", "requestedSchema": json.RawMessage(b.String())}}
}

// F5: a form of 100,000 fields (2.3 MB) is refused by its size, one of
// 5,000 fields (within MaxFormBytes) by its number of fields; scripted or
// not, nothing is sent.
func TestHostileHugeForm(t *testing.T) {
	var fields atomic.Int64
	endpoint := askOnce(func() map[string]any {
		return map[string]any{"form": formRequest(int(fields.Load()))}
	}, "answered").start(t)
	fields.Store(100_000)
	code, out, errs := call(t, "-accept", "{}", endpoint, "t", "{}")
	assert.Equal(t, 1, code, errs)
	assert.Empty(t, out)
	assert.Regexp(t, `mcpgen-call: the form "Fill in everything": the requestedSchema is \d+ bytes; mcpgen-call shows forms of at most 1 MiB \(mcpgen-call's limit MaxFormBytes\)\n`, errs)

	fields.Store(5000)
	code, out, errs = call(t, "-accept", "{}", endpoint, "t", "{}")
	assert.Equal(t, 1, code, errs)
	assert.Empty(t, out)
	assert.Contains(t, errs, `mcpgen-call: the form "Fill in everything": the requestedSchema has 5000 properties; mcpgen-call shows forms of at most 1000 fields (mcpgen-call's limit MaxFormFields)`+"\n")

	fields.Store(MaxFormFields)
	code, out, errs = call(t, "-accept", "{}", endpoint, "t", "{}")
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "answered\n", out)
}

// The field order of a 100,000-property schema is found (not quadratic:
// this completes), wire order first, the rest sorted.
func TestOrderedNamesHuge(t *testing.T) {
	const n = 100_000
	props := make(map[string]json.RawMessage, n)
	var order []string
	for i := range n {
		name := fmt.Sprint("f", n-i)
		props[name] = nil
		if i%2 == 0 {
			order = append(order, name, name) // repeated names count once
		}
	}
	names := orderedNames(props, order)
	require.Len(t, names, n)
	assert.Equal(t, []string{"f100000", "f99998"}, names[:2])
	assert.Equal(t, []string{"f1", "f10001"}, names[n/2:n/2+2])
}

// F5: -timeout bounds the whole call: a server that keeps a tools/call
// waiting while it streams a notification every 50 ms (each one a message
// from the server), and one whose tools/list pages come slowly and never
// end, are stopped by -timeout 1s.
func TestHostileStalledServer(t *testing.T) {
	stop := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(stop) }) })
	endpoint := hostile{
		call: func(w http.ResponseWriter, id json.RawMessage, p callParams) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; ; i++ {
				fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"still working %d\"}}\n\n", i)
				w.(http.Flusher).Flush()
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		},
		list: func(w http.ResponseWriter, id json.RawMessage, cursor string) {
			select {
			case <-stop:
			case <-time.After(100 * time.Millisecond):
			}
			reply(w, id, map[string]any{"tools": []any{}, "nextCursor": cursor + "x"})
		},
	}.start(t)
	code, _, errs := call(t, "-timeout", "1s", endpoint, "stall", "{}")
	assert.Equal(t, 1, code, errs)
	assert.Contains(t, errs, "mcpgen-call: tools/call stall at "+endpoint+": not done within -timeout 1s (it bounds the whole call")
	code, _, errs = call(t, "-timeout", "1s", endpoint)
	assert.Equal(t, 1, code, errs)
	assert.Contains(t, errs, "mcpgen-call: tools/list at "+endpoint+": not done within -timeout 1s (it bounds the whole call")
	once.Do(func() { close(stop) })
}
