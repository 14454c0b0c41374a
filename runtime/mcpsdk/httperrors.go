package mcpsdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/internal/clip"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// serveStateless hands r to the SDK's stateless handler, whose own checks
// (Host against DNS rebinding, Content-Type, Accept, body size, protocol
// headers) run first and whose decoding of the body is the only one, and
// answers its refusal of params it cannot decode with JSON-RPC -32602
// invalid params naming the member at fault, with HTTP 400, as MCP
// 2026-07-28 requires: basic/patterns/mrtr makes malformed inputResponses
// invalid params, and basic/transports (Streamable HTTP) answers -32602 with
// HTTP 400, as go-sdk does for every other -32602 (the SDK's stateless
// header check refuses such params with -32020, because it cannot read the
// tool name in them). The body is copied as it is read (into a pooled
// buffer, up to maxHeldBody bytes) to find that member.
func serveStateless(inner *mcp.StreamableHTTPHandler, w http.ResponseWriter, r *http.Request) {
	pw := &paramsWriter{ResponseWriter: w}
	if r.Body != nil && r.Method == http.MethodPost {
		pw.copy = bodyCopies.Get().(*bytes.Buffer)
		pw.tee = teeBody{body: r.Body, copy: pw.copy}
		r.Body = &pw.tee
	}
	inner.ServeHTTP(pw, r)
	pw.finish()
	if pw.copy != nil {
		if pw.copy.Cap() <= 64<<10 {
			pw.copy.Reset()
			bodyCopies.Put(pw.copy)
		}
		pw.copy = nil
	}
}

// maxHeldBody is how much of a request body serveStateless copies: params
// that do not decode are named only in bodies up to this size; a larger
// one gets the generic message.
const maxHeldBody = 1 << 20

// bodyCopies holds the buffers that serveStateless copies bodies into.
var bodyCopies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// teeBody copies what is read of body into copy, up to maxHeldBody bytes.
type teeBody struct {
	body io.ReadCloser
	copy *bytes.Buffer
	over bool // the body was longer than maxHeldBody
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.body.Read(p)
	if n > 0 && !t.over {
		if t.copy.Len()+n > maxHeldBody {
			t.over = true
		} else {
			t.copy.Write(p[:n])
		}
	}
	return n, err
}

func (t *teeBody) Close() error { return t.body.Close() }

// paramsWriter passes a response through, except that it holds a JSON
// response with HTTP 400 until the handler returns, to rewrite the SDK's
// refusal of undecodable params (see serveStateless).
type paramsWriter struct {
	http.ResponseWriter
	held   *bytes.Buffer // the body of a held 400 response; nil when passing through
	status int
	tee    teeBody
	copy   *bytes.Buffer // what was read of the request body; nil: not copied
}

// undecodableParams starts the message of go-sdk v1.8.0's -32020 for params
// of tools/call, prompts/get or resources/read that do not decode
// (streamable_headers.go, validateMcpHeaders); the method follows, quoted.
const undecodableParams = "failed to extract name from parameters for method "

func (p *paramsWriter) WriteHeader(code int) {
	if code == http.StatusBadRequest && p.held == nil && strings.HasPrefix(p.Header().Get("Content-Type"), "application/json") {
		p.held, p.status = &bytes.Buffer{}, code
		return
	}
	p.ResponseWriter.WriteHeader(code)
}

func (p *paramsWriter) Write(b []byte) (int, error) {
	if p.held != nil {
		return p.held.Write(b)
	}
	return p.ResponseWriter.Write(b)
}

// Flush passes through unless a response is held.
func (p *paramsWriter) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok && p.held == nil {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (p *paramsWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// finish sends a held response: rewritten to -32602 (HTTP 400, see
// serveStateless) when it is the SDK's refusal of undecodable params, else
// as it was.
func (p *paramsWriter) finish() {
	if p.held == nil {
		return
	}
	var msg struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(p.held.Bytes(), &msg) == nil && msg.Error.Code == mcp.CodeHeaderMismatch && len(msg.ID) > 0 {
		if quoted, ok := strings.CutPrefix(msg.Error.Message, undecodableParams); ok {
			method, err := strconv.Unquote(quoted)
			if err != nil {
				method = quoted
			}
			why := "they do not decode (name and requestState must be strings, inputResponses an object of results keyed by the inputRequests keys, " +
				"every number within the range of a 64-bit float)"
			if p.copy != nil && !p.tee.over {
				if fault := paramsFault(method, p.copy.Bytes()); fault != "" {
					why = fault
				}
			}
			resp, _ := json.Marshal(map[string]any{
				"jsonrpc": "2.0",
				"id":      msg.ID,
				"error": map[string]any{
					"code":    protocol.CodeInvalidParams,
					"message": "invalid params for " + method + ": " + why,
				},
			})
			p.Header().Del("Content-Length")
			p.ResponseWriter.WriteHeader(http.StatusBadRequest)
			_, _ = p.ResponseWriter.Write(resp)
			return
		}
	}
	p.ResponseWriter.WriteHeader(p.status)
	_, _ = p.ResponseWriter.Write(p.held.Bytes())
}

// paramsFault says which member of the params of method, in the JSON-RPC
// request body, keeps them from decoding into go-sdk's params type, as
// "arguments.nights: number 1e400 is out of range (…)" or
// "requestState: object where a string is expected"; "" when it cannot
// tell. Members are named by their path from params: dotted keys, [i] for
// array items, ["k"] for keys that are not plain names.
func paramsFault(method string, body []byte) string {
	var req struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Params) == 0 {
		return ""
	}
	// go-sdk decodes arguments and _meta into any, whose numbers are
	// float64: a number beyond its range fails the whole params.
	if path, num := outOfRange(req.Params); path != "" {
		return fmt.Sprintf("%s: number %s is out of range (a JSON number here must fit a 64-bit float)", clip.Text(path), clip.Text(num))
	}
	var target any
	switch method {
	case "tools/call":
		target = new(mcp.CallToolParams)
	case "prompts/get":
		target = new(mcp.GetPromptParams)
	case "resources/read":
		target = new(mcp.ReadResourceParams)
	default:
		return ""
	}
	err := json.Unmarshal(req.Params, target)
	if err == nil {
		return ""
	}
	// go-sdk's InputResponseMap names the answer: inputResponses["k"]: …
	if key, _, ok := strings.Cut(err.Error(), "]: "); ok && strings.HasPrefix(key, "inputResponses[") {
		return key + `]: not a result (an elicitation result is an object with "action": "accept", "decline" or "cancel")`
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return "params: " + te.Value + " where an object is expected"
		}
		return fmt.Sprintf("%s: %s where %s is expected", te.Field, te.Value, kindName(te.Type))
	}
	return ""
}

// kindName says what a JSON value decoding into t must be.
func kindName(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return kindName(t.Elem())
	}
	return "another value"
}

// outOfRange returns the path and text of the first number in the JSON
// value raw that a float64 cannot hold (1e400, -1e999), or "" for none
// (or for JSON that does not parse).
func outOfRange(raw []byte) (path, num string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var walk func(prefix string) bool // false: stop (found, or broken JSON)
	walk = func(prefix string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch v := tok.(type) {
		case json.Number:
			if _, err := strconv.ParseFloat(string(v), 64); err != nil {
				path, num = prefix, string(v)
				return false
			}
		case json.Delim:
			for i := 0; dec.More(); i++ {
				next := prefix + "[" + strconv.Itoa(i) + "]"
				if v == '{' {
					kt, err := dec.Token()
					if err != nil {
						return false
					}
					next = member(prefix, kt.(string))
				}
				if !walk(next) {
					return false
				}
			}
			if _, err := dec.Token(); err != nil {
				return false
			}
		}
		return true
	}
	walk("")
	return path, num
}

// member is the path of key within prefix: prefix.key for plain names,
// prefix["key"] otherwise.
func member(prefix, key string) string {
	plain := key != ""
	for i, c := range key {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	switch {
	case !plain:
		return prefix + "[" + strconv.Quote(key) + "]"
	case prefix == "":
		return key
	}
	return prefix + "." + key
}
