package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// envServer makes the test binary serve the round-trip benchmark's tools
// instead of running tests: the server runs in its own process so that its
// CPU time can be measured apart from the client's.
const envServer = "MCPGEN_BENCH_SERVER"

// envServerProfile, when set, names a file the server process writes its CPU
// profile to (bench/run -profile sets it).
const envServerProfile = "MCPGEN_BENCH_SERVER_CPUPROFILE"

func TestMain(m *testing.M) {
	if os.Getenv(envServer) == "1" {
		if path := os.Getenv(envServerProfile); path != "" {
			f, err := os.Create(path)
			if err == nil {
				err = pprof.StartCPUProfile(f)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench server:", err)
				os.Exit(1)
			}
			defer pprof.StopCPUProfile()
		}
		if err := serve(); err != nil {
			fmt.Fprintln(os.Stderr, "bench server:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// The tools the server offers.
const (
	toolGenerated = "book_flight"      // the generated flow, through runtime/mcpsdk
	toolHand      = "book_flight_hand" // the hand-written baseline
	inputKey      = "book_flight"      // the inputRequests key both use
)

// serve listens on a loopback port, prints its base URL on stdout, and serves
// /mcp (stateless Streamable HTTP) and /cpu (this process's CPU time in
// nanoseconds, user plus system) until stdin closes.
func serve() error {
	keys := runtime.EphemeralKeyRing()
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}), &mcpsdk.Options{Flow: runtime.Options{Keys: keys, Store: benchStore()}})
	addHandWritten(s, keys)

	mux := http.NewServeMux()
	h := mcpsdk.HTTPHandler(s)
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		pprof.Do(r.Context(), pprof.Labels("tool", r.Header.Get("Mcp-Name")), func(context.Context) { h.ServeHTTP(w, r) })
	})
	mux.HandleFunc("/cpu", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, processCPU())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println("http://" + ln.Addr().String())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); _ = ln.Close() }()
	if err := http.Serve(ln, mux); err != nil && !strings.Contains(err.Error(), "closed") {
		return err
	}
	return nil
}

// processCPU returns the CPU time this process has used, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// bookHandler is the generated tool's handler: it answers like the
// hand-written tool.
type bookHandler struct{}

func (bookHandler) Accept(_ context.Context, a *bookflight.BookFlightArgs) (*runtime.Result, error) {
	return runtime.Text(booked(a.Passengers, a.Origin, a.Destination, a.Date)), nil
}

func (bookHandler) Decline(context.Context, *bookflight.BookFlightArgs, []string) (*runtime.Result, error) {
	return runtime.Text("nothing booked"), nil
}

func (bookHandler) Cancel(context.Context, *bookflight.BookFlightArgs) (*runtime.Result, error) {
	return runtime.Text("cancelled"), nil
}

func booked(passengers int, origin, destination, date string) string {
	noun := " passengers from "
	if passengers == 1 {
		noun = " passenger from "
	}
	return "Booked " + strconv.Itoa(passengers) + noun + origin + " to " + destination + " on " + date + "."
}

// handState is what the hand-written tool seals: the least a careful author
// would bind (tool, arguments, expiry).
type handState struct {
	Tool    string `json:"t"`
	Args    []byte `json:"a"`
	Expires int64  `json:"e"`
}

// handInputSchema is the hand-written tool's input schema, written out by
// hand: the same properties, descriptions and rules the generated tool
// declares (TestHandInputSchema holds the two equal). It must be the same
// document: go-sdk v1.8.0 re-encodes and re-parses a tool's input schema on
// every tools/call (to find x-mcp-header annotations), a cost that grows with
// the schema; a baseline with a barer schema would charge that cost of the
// tool's own descriptions to mcpgen.
const handInputSchema = `{"type":"object","required":["origin","destination"],"properties":{
	"origin":{"type":"string","description":"IATA code of the departure airport, e.g. CDG"},
	"destination":{"type":"string","description":"IATA code of the arrival airport, e.g. JFK"},
	"date":{"type":"string","format":"date","title":"Departure date","description":"The day the flight leaves (YYYY-MM-DD)"},
	"window":{"type":"string","title":"Time of day","oneOf":[{"const":"morning","title":"Morning"},
		{"const":"afternoon","title":"Afternoon"},{"const":"evening","title":"Evening"}]},
	"passengers":{"type":"integer","title":"Passengers","minimum":1,"maximum":9}}}`

// TestHandInputSchema keeps the baseline's input schema the generated tool's.
func TestHandInputSchema(t *testing.T) {
	gen, err := json.Marshal(bookflight.NewBookFlightArgsFlow(bookHandler{}).InputSchema())
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(gen, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(handInputSchema), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the hand-written tool's input schema differs from the generated tool's:\nhand %s\ngen  %s", handInputSchema, gen)
	}
}

// addHandWritten registers the baseline: a raw go-sdk tool doing the same
// round by hand with the same sealing (runtime.KeyRing). It declares the
// same input schema, checks the arguments, asks for a missing date with the
// same requestedSchema (built and encoded once), and on retry opens the
// state, checks its binding and reads the answer.
func addHandWritten(s *mcp.Server, keys *runtime.KeyRing) {
	// The requestedSchema is encoded once, as the engine encodes a form
	// without run-time rules once (invopop's encoder takes about 20 µs a
	// call: encoding it on every call would charge the baseline for it).
	schema, err := json.Marshal((&bookflight.BookFlightArgs{}).RequestedSchema())
	if err != nil {
		panic(err)
	}
	const message = "Which day should the flight leave, and how many people are flying?"
	var schemaJSON bytes.Buffer
	if err := json.Compact(&schemaJSON, []byte(handInputSchema)); err != nil {
		panic(err)
	}
	tool := &mcp.Tool{Name: toolHand, InputSchema: json.RawMessage(schemaJSON.Bytes())}
	s.AddTool(tool, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			Origin      string `json:"origin"`
			Destination string `json:"destination"`
			Date        string `json:"date"`
			Window      string `json:"window"`
			Passengers  int    `json:"passengers"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil || args.Origin == "" || args.Destination == "" {
			return toolError("origin and destination are required"), nil
		}
		if args.Date != "" {
			return text(booked(max(args.Passengers, 1), args.Origin, args.Destination, args.Date)), nil
		}
		digest := sha256.Sum256(req.Params.Arguments)
		if req.Params.RequestState == "" {
			st, _ := json.Marshal(handState{Tool: toolHand, Args: digest[:], Expires: time.Now().Add(10 * time.Minute).Unix()})
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{inputKey: &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: json.RawMessage(schema)}},
				RequestState:  keys.Seal(st),
			}, nil
		}
		pt, err := keys.Open(req.Params.RequestState, 16<<10)
		var st handState
		if err == nil {
			err = json.Unmarshal(pt, &st)
		}
		if err != nil || st.Tool != toolHand || string(st.Args) != string(digest[:]) || time.Now().Unix() > st.Expires {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState"}
		}
		er, ok := req.Params.InputResponses[inputKey].(*mcp.ElicitResult)
		if !ok || er.Action != "accept" {
			return text("nothing booked"), nil
		}
		date, _ := er.Content["date"].(string)
		if !impl.IsDate(date) {
			return toolError("date must be YYYY-MM-DD"), nil
		}
		passengers := 1
		if p, ok := er.Content["passengers"].(float64); ok {
			if p < 1 || p > 9 || p != float64(int(p)) {
				return toolError("passengers must be 1 to 9"), nil
			}
			passengers = int(p)
		}
		if w, ok := er.Content["window"].(string); ok && w != "morning" && w != "afternoon" && w != "evening" {
			return toolError("window must be morning, afternoon or evening"), nil
		}
		return text(booked(passengers, args.Origin, args.Destination, date)), nil
	})
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func toolError(s string) *mcp.CallToolResult {
	r := text(s)
	r.IsError = true
	return r
}

// benchServer is the server process, started by the benchmark.
type benchServer struct {
	url   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startServer runs this test binary as the server (see [TestMain]) and waits
// for its URL. The process ends when its stdin is closed (b.Cleanup).
func startServer(tb testing.TB) *benchServer {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServer+"=1")
	return runServer(tb, cmd, "bench server")
}

// runServer starts cmd, a server process that prints its URL on the first
// line of its stdout and ends when its stdin is closed, and waits for that
// line. When tb ends it closes the stdin and waits up to 5 s for the
// process to exit before killing it. what names the server in errors.
func runServer(tb testing.TB, cmd *exec.Cmd, what string) *benchServer {
	tb.Helper()
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		tb.Fatalf("%s did not start: %v", what, err)
	}
	return &benchServer{url: strings.TrimSpace(line), cmd: cmd, stdin: stdin}
}

// cpu returns the server process's CPU time so far, in nanoseconds.
func (s *benchServer) cpu(tb testing.TB) int64 {
	tb.Helper()
	resp, err := http.Get(s.url + "/cpu")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}
