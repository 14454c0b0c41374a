package callclient

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/racebuild"
)

// The examples' servers, built once per test binary, and their endpoints.
var (
	bookflightBin string
	bookflight    string // bookflight's Streamable HTTP endpoint
	billing       string // billing's (bearer tokens alice-token, bob-token)
	connectBin    string // examples/connect (the same tokens; a URL-mode question)
)

func TestMain(m *testing.M) {
	racebuild.ShareBuild() // the go commands the tests run build as this binary was built
	if who := os.Getenv(envBrowser); who != "" {
		os.Exit(openPage(who, os.Args[len(os.Args)-1]))
	}
	if os.Getenv(envHugeStdio) != "" {
		os.Exit(hugeStdioServer())
	}
	os.Exit(func() int {
		var stops []func()
		defer func() {
			for _, stop := range stops {
				stop()
			}
		}()
		for _, ex := range []struct {
			name string
			url  *string
		}{{"bookflight", &bookflight}, {"billing", &billing}, {"connect", nil}} {
			bin, err := racebuild.Program(".", "../../../examples/"+ex.name)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if ex.url == nil {
				connectBin = bin // started by each test: it keeps users' keys
				continue
			}
			url, stop, err := serve(bin)
			if err != nil {
				fmt.Fprintln(os.Stderr, ex.name+":", err)
				return 1
			}
			stops = append(stops, stop)
			*ex.url = url
			if ex.name == "bookflight" {
				bookflightBin = bin
			}
		}
		return m.Run()
	}())
}

// serve starts an example's binary on a free loopback port and returns its
// endpoint, read from the line it logs when it listens.
func serve(bin string) (string, func(), error) {
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://\S+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case url := <-found:
		return url, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, fmt.Errorf("%s logged no url= line in 30s", bin)
	}
}

// call runs `mcpgen-call args…` in process with stdin not a terminal.
func call(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const bookArgs = `{"origin":"CDG","destination":"JFK"}`

var eras = []string{Protocol2026, Protocol2025}

func TestBookFromAnswersFile(t *testing.T) {
	answers := filepath.Join(t.TempDir(), "answers.json")
	require.NoError(t, os.WriteFile(answers, []byte(`[{"action":"accept","content":{"date":"2026-09-01","window":"evening","passengers":2}}]`), 0o600))
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			code, out, errs := call(t, "-protocol", era, "-answers", answers, bookflight, "book_flight", bookArgs)
			assert.Equal(t, 0, code, errs)
			assert.Equal(t, "Booked 2 passengers from CDG to JFK on 2026-09-01 (evening).\n", out)
		})
	}
}

func TestDeclineAndCancel(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			code, out, errs := call(t, "-protocol", era, "-decline", bookflight, "book_flight", bookArgs)
			assert.Equal(t, 0, code, errs)
			assert.Equal(t, "The user declined to give date, window, passengers: nothing booked.\n", out)
			code, out, errs = call(t, "-protocol", era, "-cancel", bookflight, "book_flight", bookArgs)
			assert.Equal(t, 0, code, errs)
			assert.Equal(t, "Booking cancelled by the user; nothing booked.\n", out)
		})
	}
}

// A default the answer leaves out is filled in (passengers: 1), and the
// answer given by -accept is sent as given.
func TestAcceptFlagAndDefault(t *testing.T) {
	for _, era := range eras {
		code, out, errs := call(t, "-protocol", era, "-accept", `{"date":"2026-10-02"}`, bookflight, "book_flight", bookArgs)
		assert.Equal(t, 0, code, errs)
		assert.Equal(t, "Booked 1 passenger from CDG to JFK on 2026-10-02.\n", out, era)
	}
}

func TestWireShowsElicitation(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			code, _, errs := call(t, "-wire", "-protocol", era, "-decline", bookflight, "book_flight", bookArgs)
			require.Equal(t, 0, code, errs)
			assert.Contains(t, errs, `sent: {"jsonrpc":"2.0","id":2,"method":"tools/call"`)
			assert.Regexp(t, `(?m)^received: .*"method":"elicitation/create","params":\{"mode":"form","message":"Which day should the flight leave`, errs)
			assert.Regexp(t, `(?m)^sent: .*"action":"decline"`, errs)
			assert.NotContains(t, errs, "read error")
		})
	}
}

// The tools, their descriptions, and the arguments in the server's order.
func TestListTools(t *testing.T) {
	for _, era := range eras {
		code, out, errs := call(t, "-protocol", era, bookflight)
		require.Equal(t, 0, code, errs)
		assert.Equal(t, `book_flight
  Book a flight between two airports; asks the user for the date and details it lacks.
  arguments:
    origin (string, required): IATA code of the departure airport, e.g. CDG
    destination (string, required): IATA code of the arrival airport, e.g. JFK
    date (string): The day the flight leaves (YYYY-MM-DD)
    window (string)
    passengers (integer)
`, out, era)
	}
}

// A stdio server started after --, the tool and its arguments before.
func TestStdio(t *testing.T) {
	for _, era := range eras {
		code, out, errs := call(t, "-protocol", era, "-accept", `{"date":"2026-11-03","window":"morning"}`, "book_flight", bookArgs, "--", bookflightBin, "-stdio")
		assert.Equal(t, 0, code, errs)
		assert.Equal(t, "Booked 1 passenger from CDG to JFK on 2026-11-03 (morning).\n", out, era)
	}
}

// A scripted answer that go-sdk's client would refuse to send (sdkCheck:
// types, bounds, enums, required) is refused before it is sent, naming the
// field and the rule.
func TestInvalidAnswerRefused(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{`{"date":"2026-02-03","passengers":12}`, `"passengers": Passengers must be at most 9`},
		{`{"date":"2026-02-03","passengers":1.5}`, `"passengers": Passengers must be a whole number`},
		{`{"date":"2026-02-03","window":"night"}`, `"window": Time of day must be one of ["morning","afternoon","evening"]`},
		{`{"window":"morning"}`, `"date" (Departure date) is required`},
	} {
		code, out, errs := call(t, "-accept", tc.content, bookflight, "book_flight", bookArgs)
		assert.Equal(t, 1, code, tc.content)
		assert.Empty(t, out)
		assert.Contains(t, errs, tc.want)
	}
}

func TestNoAnswerLeft(t *testing.T) {
	code, _, errs := call(t, "-answers", writeFile(t, `[]`), bookflight, "book_flight", bookArgs)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, `mcpgen-call: the server asked a form the answers do not cover: "Which day should the flight leave, and how many people are flying?" (fields date, window, passengers)`)
}

func TestNotATerminal(t *testing.T) {
	code, _, errs := call(t, bookflight, "book_flight", bookArgs)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "stdin is not a terminal: answer it with -answers FILE or -accept '{json}'")
}

// A tool the server does not have: a protocol error, exit status 1.
func TestUnknownTool(t *testing.T) {
	code, _, errs := call(t, bookflight, "no_such_tool", "{}")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, `mcpgen-call: tools/call no_such_tool at `+bookflight+`: unknown tool "no_such_tool"`)
	assert.Contains(t, errs, `no_such_tool`)
}

// Bearer tokens from -H and from the environment; none is HTTP 401.
func TestHeaders(t *testing.T) {
	code, _, errs := call(t, billing)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "Unauthorized")

	code, out, errs := call(t, "-H", "Authorization: Bearer alice-token", billing)
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "pay_invoice\n")

	t.Setenv(EnvHeaders, "Authorization: Bearer nobody\nX-Trace: 1")
	code, _, _ = call(t, billing)
	assert.Equal(t, 1, code, "a token billing does not know")
	code, out, errs = call(t, "-H", "authorization: Bearer bob-token", billing)
	assert.Equal(t, 0, code, "-H replaces the environment's header: %s", errs)
	assert.Contains(t, out, "pay_invoice\n")
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"localhost:8080"}, `"localhost:8080" is not an http:// or https:// URL`},
		{[]string{"-protocol", "2025-06-18", bookflight}, `-protocol "2025-06-18": want 2026-07-28 or 2025-11-25`},
		{[]string{bookflight, "book_flight", "[1]"}, `the arguments "[1]" are not a JSON object`},
		{[]string{bookflight, "book_flight", "{}", "-wire"}, `unexpected "-wire" after the tool's arguments (flags go before the URL)`},
		{[]string{"-accept", "nope", bookflight}, `want the form's content as a JSON object`},
		{[]string{"-H", "Bearer x", bookflight}, `header "Bearer x": want Name: value`},
		{[]string{"-answers", writeFile(t, `[{"action":"maybe"}]`), bookflight}, `action "maybe": want accept, decline or cancel`},
		{[]string{"book_flight", "--"}, `no command after --`},
	} {
		code, _, errs := call(t, tc.args...)
		assert.Equal(t, 2, code, tc.args)
		assert.Contains(t, errs, tc.want, tc.args)
	}
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.json")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}
