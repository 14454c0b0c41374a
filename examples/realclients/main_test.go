package realclients

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/examples/internal/browsertest"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// The tests of this package run the examples as their users do: each is
// built (racebuild.Program) and served as a process, over Streamable HTTP
// on a free loopback port or over stdio.

func TestMain(m *testing.M) {
	racebuild.ShareBuild()       // the go commands the tests run build as this binary was built
	os.Exit(browsertest.Main(m)) // one Chromium for the tests that need one
}

// binary returns the path of examples/NAME built as this test binary was.
func binary(t testing.TB, name string) string {
	t.Helper()
	p, err := racebuild.Program(".", "../"+name)
	require.NoError(t, err)
	return p
}

// server is an example served over HTTP by its own process.
type server struct {
	url string // the MCP endpoint
	log *syncBuffer
}

var urlRE = regexp.MustCompile(`url=(http://[^ ]+/mcp)`)

// serveHTTP starts examples/NAME with -http on a free loopback port and
// returns it once it serves; it is stopped when t ends. env is added to the
// process's environment.
func serveHTTP(t testing.TB, name string, env ...string) *server {
	t.Helper()
	bin := binary(t, name)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &server{log: &syncBuffer{}}
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			s.log.WriteString(lines.Text() + "\n")
			if m := urlRE.FindStringSubmatch(lines.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, s.log.String())
		}
	})
	select {
	case s.url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start serving:\n%s", name, s.log.String())
	}
	return s
}

// syncBuffer is a log several goroutines write and read.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.WriteString(s)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// question is one elicitation/create as a client saw it.
type question struct {
	Message string
	Mode    string
	URL     string
	Schema  map[string]any // requestedSchema
}

// prop returns the requested schema's property name, or nil.
func (q question) prop(name string) map[string]any {
	props, _ := q.Schema["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p
}

// answer is what the user does with a question.
type answer struct {
	Action  string
	Content map[string]any
}

// scenario is one tools/call on a fresh connection: the example, the tool
// and its arguments, one step per question in order (it checks the question
// and returns the answer), and the result's text.
type scenario struct {
	name    string
	example string
	tool    string
	args    map[string]any
	steps   []func(t testing.TB, q question) answer
	want    *regexp.Regexp
}

func accept(content map[string]any) answer { return answer{Action: "accept", Content: content} }

// asks returns a step that checks the question asks each of fields (and, when
// reason is set, that its message contains reason) and answers a.
func asks(a answer, reason string, fields ...string) func(testing.TB, question) answer {
	return func(t testing.TB, q question) answer {
		for _, f := range fields {
			if q.prop(f) == nil {
				t.Errorf("the question does not ask %s: %+v", f, q)
			}
		}
		if reason != "" && !strings.Contains(q.Message, reason) {
			t.Errorf("the question's message %q does not say %q", q.Message, reason)
		}
		return a
	}
}

// scenarios are the flows every client drives: bookflight's date asked again
// after a bad one, and its accept, decline and cancel; deploy's three
// questions in one call (the tool's form, then the typed confirmation
// mistyped, asked again, then right), as alice; billing's choice of alice's
// accounts.
var scenarios = []scenario{
	{
		name: "bookflight-reask", example: "bookflight", tool: "book_flight",
		args: map[string]any{"origin": "SFO", "destination": "JFK"},
		steps: []func(testing.TB, question) answer{
			asks(accept(map[string]any{"date": "2026-13-45"}), "", "date"),
			asks(accept(map[string]any{"date": "2026-12-24"}), "date: must be a date", "date"),
		},
		want: regexp.MustCompile(`^Booked 1 passenger from SFO to JFK on 2026-12-24\.$`),
	},
	{
		name: "bookflight-accept", example: "bookflight", tool: "book_flight",
		args: map[string]any{"origin": "SFO", "destination": "JFK"},
		steps: []func(testing.TB, question) answer{
			asks(accept(map[string]any{"date": "2026-12-24", "window": "morning", "passengers": 2}), "", "date", "window", "passengers"),
		},
		want: regexp.MustCompile(`^Booked 2 passengers from SFO to JFK on 2026-12-24 \(morning\)\.$`),
	},
	{
		name: "bookflight-decline", example: "bookflight", tool: "book_flight",
		args:  map[string]any{"origin": "SFO", "destination": "JFK"},
		steps: []func(testing.TB, question) answer{asks(answer{Action: "decline"}, "", "date")},
		want:  regexp.MustCompile(`nothing booked\.$`),
	},
	{
		name: "bookflight-cancel", example: "bookflight", tool: "book_flight",
		args:  map[string]any{"origin": "SFO", "destination": "JFK"},
		steps: []func(testing.TB, question) answer{asks(answer{Action: "cancel"}, "", "date")},
		want:  regexp.MustCompile(`cancelled`),
	},
	{
		name: "deploy-confirm", example: "deploy", tool: "deploy",
		args: map[string]any{"service": "api"},
		steps: []func(testing.TB, question) answer{
			asks(accept(map[string]any{"environment": "production"}), "", "environment"),
			asks(accept(map[string]any{"confirm": "apx"}), "This restarts 12 pods of api in production.", "confirm"),
			asks(accept(map[string]any{"confirm": "api"}), `must be exactly "api"`, "confirm"),
		},
		want: regexp.MustCompile(`^Deployed api to production \(12 pods restarted\)\.$`),
	},
	{
		name: "billing-account", example: "billing", tool: "pay_invoice",
		args: map[string]any{"invoice": "INV-7", "amount": 42},
		steps: []func(testing.TB, question) answer{
			func(t testing.TB, q question) answer {
				alicesAccounts(t, q)
				return accept(map[string]any{"account": "sav-002"})
			},
		},
		want: regexp.MustCompile(`^Charged 42\.00 to sav-002 for INV-7 \(charge ch_[0-9a-f]{16}\)\.$`),
	},
}

// alicesAccounts checks that q offers exactly alice's three accounts, as a
// titled select (oneOf) or, downgraded for 2025-06-18, enum + enumNames.
func alicesAccounts(t testing.TB, q question) {
	a := q.prop("account")
	var got []string
	if one, ok := a["oneOf"].([]any); ok {
		for _, o := range one {
			m, _ := o.(map[string]any)
			got = append(got, fmt.Sprint(m["const"]))
		}
	}
	if e, ok := a["enum"].([]any); ok {
		for _, v := range e {
			got = append(got, fmt.Sprint(v))
		}
	}
	if strings.Join(got, ",") != "chk-001,sav-002,crd-003" {
		t.Errorf("not alice's accounts: %v", a)
	}
}

// run drives sc with call, a client's tools/call whose elicitation handler
// is the function it is given, and checks every question and the result.
func (sc scenario) run(t *testing.T, call func(ask func(question) answer) (text string, isError bool, err error)) {
	t.Helper()
	var (
		mu    sync.Mutex
		asked []question
	)
	text, isError, err := call(func(q question) answer {
		mu.Lock()
		asked = append(asked, q)
		n := len(asked)
		mu.Unlock()
		if n > len(sc.steps) {
			t.Errorf("asked %d questions, the scenario has %d answers: %+v", n, len(sc.steps), q)
			return answer{Action: "cancel"}
		}
		return sc.steps[n-1](t, q)
	})
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.False(t, isError, "tool error after %d questions: %s", len(asked), text)
	require.Regexp(t, sc.want, text)
	require.Len(t, asked, len(sc.steps), "questions asked")
}
