// Package callclient is `mcpgen-call`: a terminal MCP client that lists a
// server's tools or calls one, answering each elicitation/create it is sent
// with an interactive terminal form (github.com/charmbracelet/huh), or from
// answers given in advance for scripts and CI.
//
// It is go-sdk's client (github.com/modelcontextprotocol/go-sdk/mcp) over
// Streamable HTTP or stdio, in MCP 2026-07-28 (the default: go-sdk drives
// the input-required rounds itself and hands each input request to the
// elicitation handler) or 2025-11-25 (a session; the server sends
// elicitation/create as a request). The client declares form and URL
// elicitation (MCP 2026-07-28 client/elicitation, "Capabilities").
//
// The command github.com/mcpgen/mcpgen/mcpgen-call runs it; the
// generator, cmd/mcpgen, does not link it (cmd/mcpgen/deps_test.go), so a
// module that runs the generator as a tool gains none of its terminal UI.
// It links no package of github.com/mcpgen/mcpgen/runtime: it is a client
// of any MCP server.
package callclient

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol versions `mcpgen-call` speaks (MCP specification revisions).
const (
	Protocol2026 = "2026-07-28" // stateless; go-sdk drives input-required rounds
	Protocol2025 = "2025-11-25" // a session; elicitation/create as a server request
)

// EnvHeaders names the environment variable whose lines ("Name: value",
// one per line) are sent as HTTP headers on every request, before the -H
// flags (a -H header replaces one of the same name from the environment).
const EnvHeaders = "MCPGEN_CALL_HEADERS"

// Usage is the command's synopsis.
const Usage = `usage: mcpgen-call [flags] URL [tool ['{json arguments}']]
       mcpgen-call [flags] [tool ['{json arguments}']] -- command [args…]

With no tool, lists the server's tools. Flags come before the URL or tool.
`

// Main runs `mcpgen-call` with args (those after the program name) and returns the
// exit status: 0 on success, 1 when the call failed (a protocol error, a
// tool result with isError, an unanswerable form, -timeout run out, a
// limit the server went past (MaxReadBytes and the others), a URL-mode
// page that is not http or https, scripted answers left unused), 2 on
// usage errors, ExitInterrupted after Ctrl-C.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, code := parse(args, stderr)
	if c == nil {
		return code
	}
	if _, ok := stderr.(*os.File); !ok {
		// The handlers, -wire and a stdio server's stderr write at once;
		// a file takes concurrent writes, a buffer (a test's) does not,
		// and a stdio server gets a file as its own stderr.
		stderr = &lockedWriter{w: stderr}
	}
	c.stdin, c.stdout, c.stderr = stdin, stdout, stderr
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	c.ctx, c.cancel = ctx, cancel
	defer c.interrupts(ctx)()
	err := c.run(ctx)
	if cause := context.Cause(ctx); cause != nil {
		err = cause // a timeout or an interrupt, which ended the rest
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen-call:", clean(err.Error())) // it may quote the server
		var ierr *interruptError
		if errors.As(err, &ierr) {
			return ExitInterrupted
		}
		return 1
	}
	return 0
}

// parse reads the command line into a caller, or returns nil and the exit
// status after printing why on stderr (0 for -h, 2 for a usage error).
func parse(args []string, stderr io.Writer) (*caller, int) {
	c := &caller{}
	fs := flag.NewFlagSet("mcpgen-call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, Usage, "\nFlags:\n")
		fs.PrintDefaults()
	}
	var headers headerFlag
	fs.Var(&headers, "H", "an HTTP header `Name: value` sent with every request (repeatable); also $"+EnvHeaders+", one header a line")
	fs.StringVar(&c.protocol, "protocol", Protocol2026, "protocol version: "+Protocol2026+" (stateless) or "+Protocol2025+" (a session)")
	answersFile := fs.String("answers", "", "answer forms from this `file`, a JSON list of answers used in order: {\"action\":\"accept\",\"content\":{…}}, \"decline\" or \"cancel\"")
	var answers []Answer
	fs.Var(answerFlag{"accept", &answers}, "accept", "answer the next form with this `JSON` content (repeatable; with -decline and -cancel, in order)")
	fs.Var(answerFlag{"decline", &answers}, "decline", "decline the next form")
	fs.Var(answerFlag{"cancel", &answers}, "cancel", "cancel the next form")
	openCmd := fs.String("open-cmd", "", "non-interactive URL mode: run this `command` (split at spaces, no shell quoting: wrap a pipeline in a script) with the page's URL (http or https only) as its last argument, then send the next scripted answer, else accept")
	fs.BoolVar(&c.wire, "wire", false, "print every JSON-RPC message sent (sent: …) and received (received: …) on stderr, and every HTTP error status with its body")
	fs.DurationVar(&c.timeout, "timeout", DefaultTimeout, "bound on the whole call: connecting, listing, every round, -open-cmd (never the time you spend in a form); 0: no bound")
	// The flag package would swallow the "--" that starts a stdio command.
	if i := slices.Index(args, "--"); i >= 0 {
		c.command = args[i+1:]
		args = args[:i]
		if len(c.command) == 0 {
			fmt.Fprintln(stderr, "mcpgen-call: no command after --")
			return nil, 2
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	if c.command == nil && len(fs.Args()) == 0 {
		fs.Usage()
		return nil, 2
	}
	err := c.positional(fs.Args())
	if err == nil {
		c.headers, err = headers.header(os.Getenv(EnvHeaders))
	}
	if err == nil {
		err = c.script(*answersFile, answers, *openCmd)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen-call:", err)
		return nil, 2
	}
	return c, 0
}

// positional reads -protocol's value and the arguments after the flags:
// the URL (unless a stdio command follows --), the tool and its JSON
// arguments object.
func (c *caller) positional(rest []string) error {
	if c.protocol != Protocol2026 && c.protocol != Protocol2025 {
		return fmt.Errorf("-protocol %q: want %s or %s", c.protocol, Protocol2026, Protocol2025)
	}
	if c.command == nil {
		c.endpoint, rest = rest[0], rest[1:]
		if !strings.HasPrefix(c.endpoint, "http://") && !strings.HasPrefix(c.endpoint, "https://") {
			return fmt.Errorf("%q is not an http:// or https:// URL (for a stdio server: mcpgen-call [tool] -- command args…)", c.endpoint)
		}
	}
	if len(rest) > 2 {
		return fmt.Errorf("unexpected %q after the tool's arguments (flags go before the URL)", rest[2])
	}
	if len(rest) > 0 {
		c.tool = rest[0]
		c.arguments = json.RawMessage("{}")
	}
	if len(rest) > 1 {
		var obj map[string]any
		if err := json.Unmarshal([]byte(rest[1]), &obj); err != nil || obj == nil {
			return fmt.Errorf("the arguments %q are not a JSON object", rest[1])
		}
		c.arguments = json.RawMessage(rest[1])
	}
	return nil
}

// script sets the scripted answers: from -answers FILE, or from -accept,
// -decline and -cancel in order (not both); -open-cmd makes a run scripted
// too.
func (c *caller) script(answersFile string, answers []Answer, openCmd string) error {
	if answersFile != "" {
		if len(answers) > 0 {
			return errors.New("give -answers or -accept/-decline/-cancel, not both")
		}
		var err error
		if answers, err = readAnswers(answersFile); err != nil {
			return fmt.Errorf("-answers: %w", err)
		}
	}
	if answersFile != "" || len(answers) > 0 || openCmd != "" {
		c.scripted = true
		c.answers = answers
	}
	c.openCmd = strings.Fields(openCmd)
	return nil
}

// caller is one `mcpgen-call` run.
type caller struct {
	endpoint  string   // a Streamable HTTP endpoint, or
	command   []string // a stdio server's command line
	headers   http.Header
	protocol  string
	tool      string // "" lists the tools
	arguments json.RawMessage
	wire      bool
	timeout   time.Duration

	scripted bool     // answers given in advance: never read the terminal
	answers  []Answer // consumed in order by each elicitation
	used     int      // how many of answers were consumed
	openCmd  []string

	stdin          io.Reader
	stdout, stderr io.Writer

	orders propertyOrders
	clock  *clock                  // -timeout
	pages  map[string]bool         // URL-mode pages asked (elicitationId, URL), at most MaxURLOpens; under mu
	ctx    context.Context         // the run's, ended by cancel
	cancel context.CancelCauseFunc // ends the run: a timeout, an interrupt

	terminal sync.Mutex // one form on screen at a time (a round may ask several at once)

	mu      sync.Mutex
	failure error  // why an elicitation could not be answered
	form    string // the message of the form on screen, if any
}

func (c *caller) run(ctx context.Context) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-call", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{},
			URL:  &mcp.URLElicitationCapabilities{},
		}},
		ElicitationHandler: c.elicit,
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			fmt.Fprintf(c.stderr, "The server reports the page is complete (elicitation %s).\n", clean(req.Params.ElicitationID))
		},
	})
	var wire *wireLog
	if c.wire {
		wire = &wireLog{w: c.stderr}
	}
	var t mcp.Transport
	where := c.endpoint
	if c.command != nil {
		where = strings.Join(c.command, " ")
	}
	c.clock = newClock(c.timeout, where, c.cancel)
	defer c.clock.stop()
	budget := &readBudget{max: MaxReadBytes, over: c.cancel}
	if c.command != nil {
		cmd := exec.CommandContext(ctx, c.command[0], c.command[1:]...)
		cmd.Stderr = &cleanWriter{w: c.stderr} // the server's log: it may carry escapes too
		t = stdioTransport{cmd: cmd, budget: budget}
	} else {
		t = &mcp.StreamableClientTransport{Endpoint: c.endpoint, MaxRetries: -1,
			HTTPClient: &http.Client{Transport: headerTransport{c.headers,
				statusTransport{budgetTransport{http.DefaultTransport, budget}, wire}}}}
	}
	tap := tapTransport{Transport: t, where: where, orders: &c.orders, wire: wire, clock: c.clock}
	var conn *tapConn
	cs, err := client.Connect(ctx, connRecorder{tap, &conn}, &mcp.ClientSessionOptions{ProtocolVersion: c.protocol})
	if err != nil {
		if conn != nil && conn.failed() != nil {
			return conn.failed()
		}
		return fmt.Errorf("connecting to %s: %w", where, err)
	}
	defer cs.Close()
	var res *mcp.CallToolResult
	if c.tool == "" {
		err = c.list(ctx, cs)
	} else if res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.arguments}); err != nil {
		err = fmt.Errorf("tools/call %s: %w", c.tool, err)
	}
	c.mu.Lock()
	failure := c.failure
	c.mu.Unlock()
	switch {
	case failure != nil: // a form that could not be answered
		return failure
	case err != nil && conn.failed() != nil: // a request that could not be sent
		return conn.failed()
	case err != nil:
		return err
	case res != nil:
		err = c.print(res)
	}
	return errors.Join(err, c.unused())
}

// unused is the error for scripted answers left when the call ended: a
// script that gives more answers than the server asks forms is wrong about
// the flow it tests.
func (c *caller) unused() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) == 0 {
		return nil
	}
	var which []string
	for i, a := range c.answers {
		s := fmt.Sprintf("answer %d (%s", c.used+i+1, a.Action)
		if a.Content != nil {
			b, _ := json.Marshal(a.Content)
			s += " " + string(b)
		}
		which = append(which, s+")")
	}
	return fmt.Errorf("%s not used (the server asked %s): %s",
		plural(len(c.answers), "scripted answer was", "scripted answers were"), plural(c.used, "form", "forms"), strings.Join(which, ", "))
}

// plural is "1 one" or "n many" ("no many" for 0).
func plural(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// connRecorder hands Connect the tap and keeps its connection.
type connRecorder struct {
	tapTransport
	conn **tapConn
}

func (r connRecorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.tapTransport.Connect(ctx)
	if err == nil {
		*r.conn = c.(*tapConn)
	}
	return c, err
}

// print writes a tool result: each text content on its own line, other
// content and the structured content as JSON; isError is exit status 1.
func (c *caller) print(res *mcp.CallToolResult) error {
	for _, content := range res.Content {
		if t, ok := content.(*mcp.TextContent); ok {
			fmt.Fprintln(c.stdout, clean(t.Text))
			continue
		}
		b, _ := json.Marshal(content)
		fmt.Fprintln(c.stdout, clean(string(b)))
	}
	if res.StructuredContent != nil {
		b, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err != nil {
			return fmt.Errorf("structured content: %v", err)
		}
		fmt.Fprintln(c.stdout, clean(string(b)))
	}
	if res.IsError {
		return fmt.Errorf("the tool %s returned an error result (isError)", c.tool)
	}
	return nil
}

// fail records why an elicitation could not be answered (reported in place
// of the transport's error) and returns it for go-sdk to send.
func (c *caller) fail(err error) error {
	c.mu.Lock()
	if c.failure == nil {
		c.failure = err
	}
	c.mu.Unlock()
	return err
}

// next takes the next scripted answer, if one is left.
func (c *caller) next() (Answer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) == 0 {
		return Answer{}, false
	}
	a := c.answers[0]
	c.answers = c.answers[1:]
	c.used++
	return a, true
}

// elicit answers one elicitation/create (a server request in 2025-11-25,
// an input request of an input-required result in 2026-07-28).
func (c *caller) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p := req.Params
	if p.Mode == "url" {
		return c.elicitURL(ctx, p)
	}
	fields, err := parseSchema(p.RequestedSchema, c.orders.lookup)
	if err != nil {
		return nil, c.fail(fmt.Errorf("the form %q: %w", clean(p.Message), err))
	}
	if c.scripted {
		// Sent as given, but for what go-sdk would refuse (sdkCheck): the
		// server checks the answer and asks again with its reason, which
		// the script sees here.
		fmt.Fprintf(c.stderr, "The server asks: %s\n", clean(p.Message))
		a, ok := c.next()
		if !ok {
			return nil, c.fail(fmt.Errorf("the server asked a form the answers do not cover: %q (fields %s)", p.Message, fieldNames(fields)))
		}
		if a.Action == "accept" {
			if a.Content == nil {
				a.Content = map[string]any{}
			}
			if err := sdkCheck(fields, a.Content); err != nil {
				return nil, c.fail(fmt.Errorf("answer to %q: %v", p.Message, err))
			}
		}
		return &mcp.ElicitResult{Action: a.Action, Content: a.Content}, nil
	}
	if !isTerminal(c.stdin) {
		return nil, c.fail(fmt.Errorf("the server asks a form (%q) and stdin is not a terminal: answer it with -answers FILE or -accept '{json}' (or -decline, -cancel)", p.Message))
	}
	defer c.clock.pause()()
	c.terminal.Lock()
	defer c.terminal.Unlock()
	ctx, stop := c.within(ctx)
	defer stop()
	defer c.showing(p.Message)()
	res, err := runForm(ctx, c.stdin, c.stderr, clean(p.Message), fields, c.interruptKeys)
	if err != nil {
		return nil, c.fail(err)
	}
	return res, nil
}

// within is ctx, also ended when the run is (an interrupt, in particular
// Ctrl-C in the form itself).
func (c *caller) within(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(c.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// showing notes the form on screen (for an interrupt's report) until the
// returned function is called.
func (c *caller) showing(message string) func() {
	c.mu.Lock()
	c.form = message
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.form = ""
		c.mu.Unlock()
	}
}

func fieldNames(fields []field) string {
	var names []string
	for _, f := range fields {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// isTerminal reports whether r is a terminal (not merely a character
// device such as /dev/null).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
