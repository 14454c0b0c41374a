package callclient

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClean: what a server sends cannot drive the terminal (escape
// sequences, the 8-bit CSI, carriage returns, bells, bidi overrides, bytes
// that are not UTF-8) but reads the same otherwise, lines and tabs kept.
func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"Book a flight\n\tfrom CDG": "Book a flight\n\tfrom CDG",
		"café, 東京, emoji 🙂":         "café, 東京, emoji 🙂",
		"\x1b[31mRED\x1b[0m":        `\x1b[31mRED\x1b[0m`,
		"msg \r overwritten":        `msg \r overwritten`,
		"\x1b]0;TITLE\a":            `\x1b]0;TITLE\a`,
		"\u009b2J":                  `\u009b2J`,
		"abc\u202edcba":             `abc\u202edcba`,
		"isolate\u2066x\u2069":      `isolate\u2066x\u2069`,
		"mark\u200fx\u061c":         `mark\u200fx\u061c`,
		"del\x7f":                   `del\x7f`,
		"bad \xff byte":             `bad \xff byte`,
		"":                          "",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHostileServerText: a server whose tool description, form message,
// titles and result carry escape sequences, a carriage return, a bell and a
// bidi override cannot drive the terminal of `mcpgen-call`: none of them
// reaches stdout or stderr raw, in the tool list, the form or the result.
func TestHostileServerText(t *testing.T) {
	const evil = "\x1b[2J\x1b]0;TITLE\a\r\u202e\u009b"
	s := mcp.NewServer(&mcp.Implementation{Name: "evil", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","title":"A ` + jsonEsc(evil) + `"}}}`)
	s.AddTool(&mcp.Tool{Name: "t", Description: "desc " + evil,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"x ` + jsonEsc(evil) + `"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState == "" {
				return &mcp.CallToolResult{RequestState: "s", InputRequests: mcp.InputRequestMap{
					"k": &mcp.ElicitParams{Mode: "form", Message: "msg " + evil, RequestedSchema: schema}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done " + evil}}}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	for _, args := range [][]string{
		{srv.URL},
		{"-accept", `{"a":"x"}`, srv.URL, "t", `{}`},
		{"-wire", "-accept", `{"a":"x"}`, srv.URL, "t", `{}`},
	} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		all := out.String() + errb.String()
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, all)
		}
		for _, r := range []string{"\x1b", "\r", "\a", "\u202e", "\u009b"} {
			if strings.Contains(all, r) {
				t.Errorf("%v: %q reached the terminal raw:\n%s", args, r, all)
			}
		}
		if !strings.Contains(all, `\x1b[2J`) {
			t.Errorf("%v: the escape is not shown escaped:\n%s", args, all)
		}
	}
}

// jsonEsc returns s as the inside of a JSON string.
func jsonEsc(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestCleanWriter: a stdio server's stderr reaches the terminal escaped,
// and a character split across writes arrives whole.
func TestCleanWriter(t *testing.T) {
	var b bytes.Buffer
	w := &cleanWriter{w: &b}
	in := []byte("log: \x1b]0;PWN\a caf\u00e9 \u6771\u4eac\n")
	for i := range in {
		if _, err := w.Write(in[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if want := `log: \x1b]0;PWN\a café 東京` + "\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
