package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
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
	toolGenerated   = "book_flight"              // the generated flow, through runtime/mcpsdk
	toolHand        = "book_flight_hand"         // the hand-written baseline
	toolHandOnce    = "book_flight_hand_once"    // the baseline with an at-most-once record
	toolHandSession = "book_flight_hand_session" // the baseline for a session's client: ServerSession.Elicit in a loop
	inputKey        = "book_flight"              // the inputRequests key both use
)

// serve listens on a loopback port, prints its base URL on stdout, and serves
// /mcp (Streamable HTTP through mcpsdk.NewHTTPHandler: stateless for 2026-07-28
// clients, sessions for older ones) and /cpu (this process's CPU time in
// nanoseconds, user plus system) until stdin closes.
func serve() error {
	keys := runtime.EphemeralKeyRing()
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcpsdk.AddTool(s, bookflight.NewBookFlightArgsFlow(bookHandler{}), &mcpsdk.Options{Flow: runtime.Options{MaxFlowsPerPrincipal: -1, Keys: keys, Store: benchStore()}})
	addHandWritten(s, keys)

	mux := http.NewServeMux()
	h := mcpsdk.NewHTTPHandler(s, nil)
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
