// Command driver drives book_flight flows through a load balancer in front of
// several bookflight instances (examples/loadbalanced/run starts them behind
// nginx) and checks that every flow completes with its own answers.
//
// Each flow is one tool call of -rounds input-required rounds: the first
// call asks for the date; the driver answers -rounds-1 times with a date that
// is not a date (each answer asks again, on whichever instance the balancer
// picks) and then with the flow's own date and passenger count, and checks
// that the booking text names exactly that date, route and count. The rounds
// are driven by hand (go-sdk client, MultiRoundTrip disabled) so that every
// request goes through the balancer.
//
// With -replays N it then runs N more flows of one round whose final retry
// (the same answer and requestState) is sent -copies times at once through
// the balancer, as a client that retries a lost response would: every copy
// must answer with the flow's own booking (the branch's response, or the
// record of it another instance wrote), or be refused with JSON-RPC -32603
// "retry later" when another copy is still running the branch. How many
// branches ran is what the instances report (examples/loadbalanced/run
// counts their "booked" log lines).
//
// Usage:
//
//	driver -url http://127.0.0.1:8080/mcp [-flows 200] [-concurrency 200] [-rounds 3] [-replays 100 -copies 5]
//	driver -free-ports 4     # print 4 free loopback TCP ports, for scripts
//
// It prints one line, "flows=N completed=C errors=E elapsed=D", with
// -replays a second, "replays: flows=N completed=C sent=S answered=A
// refused=R errors=E", then up to ten errors, and exits 1 when any flow
// failed, 2 on usage errors.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("driver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("url", "", "MCP endpoint behind the load balancer, e.g. http://127.0.0.1:8080/mcp")
	flows := fs.Int("flows", 200, "number of flows (tool calls)")
	concurrency := fs.Int("concurrency", 0, "flows in flight at once (default: all)")
	rounds := fs.Int("rounds", 3, "input-required rounds per flow, 1 to 3 (the server's default limit)")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this long")
	freePorts := fs.Int("free-ports", 0, "print this many free loopback TCP ports and exit")
	replays := fs.Int("replays", 0, "then this many one-round flows whose final retry is sent -copies times at once")
	copies := fs.Int("copies", 5, "copies of each replayed final retry")
	saveFinals := fs.String("save-finals", "", "with -replays, write each replayed flow's final retry to this file")
	replayFinals := fs.String("replay-finals", "", "only send once more each final retry this file holds")
	want := fs.String("want", "recorded", "with -replay-finals: recorded (every retry gets its booking) or refused (every retry gets -32602)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *replayFinals != "" {
		if *endpoint == "" || (*want != "recorded" && *want != "refused") {
			fmt.Fprintln(stderr, "driver: -replay-finals needs -url and -want recorded|refused")
			return 2
		}
		return sendFinals(*endpoint, *replayFinals, *want == "recorded", *timeout, stdout)
	}
	if *freePorts > 0 {
		ports, err := pickPorts(*freePorts)
		if err != nil {
			fmt.Fprintln(stderr, "driver:", err)
			return 1
		}
		fmt.Fprintln(stdout, strings.Join(ports, " "))
		return 0
	}
	if *endpoint == "" || *flows < 1 || *rounds < 1 || *rounds > 3 || *concurrency < 0 || *replays < 0 || *copies < 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "driver: need -url, -flows >= 1, -rounds 1..3, -replays >= 0, -copies >= 1 and no other arguments")
		fs.Usage()
		return 2
	}
	if *concurrency == 0 {
		*concurrency = *flows
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	start := time.Now()
	var completed atomic.Int64
	var mu sync.Mutex
	var errs []error
	sem := make(chan struct{}, *concurrency)
	var wg sync.WaitGroup
	for i := 0; i < *flows; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := flow(ctx, *endpoint, i, *rounds); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("flow %d: %w", i, err))
				mu.Unlock()
				return
			}
			completed.Add(1)
		}()
	}
	wg.Wait()
	fmt.Fprintf(stdout, "flows=%d completed=%d errors=%d elapsed=%s\n", *flows, completed.Load(), len(errs), time.Since(start).Round(time.Millisecond))
	var finals *finalsFile
	if *saveFinals != "" {
		f, err := os.Create(*saveFinals)
		if err != nil {
			fmt.Fprintln(stderr, "driver:", err)
			return 1
		}
		defer f.Close()
		finals = &finalsFile{enc: json.NewEncoder(f)}
	}
	if *replays > 0 {
		var done, answered, refused atomic.Int64
		nerrs := len(errs)
		for i := 0; i < *replays; i++ {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				a, r, err := replay(ctx, *endpoint, *flows+i, *copies, finals)
				answered.Add(int64(a))
				refused.Add(int64(r))
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("replayed flow %d: %w", *flows+i, err))
					mu.Unlock()
					return
				}
				done.Add(1)
			}()
		}
		wg.Wait()
		fmt.Fprintf(stdout, "replays: flows=%d completed=%d sent=%d answered=%d refused=%d errors=%d\n",
			*replays, done.Load(), *replays**copies, answered.Load(), refused.Load(), len(errs)-nerrs)
	}
	for i, err := range errs {
		if i == 10 {
			fmt.Fprintf(stdout, "… and %d more\n", len(errs)-10)
			break
		}
		fmt.Fprintln(stdout, "error:", err)
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// flow runs one tool call of rounds input-required rounds and checks that the
// booking is its own.
func flow(ctx context.Context, endpoint string, i, rounds int) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "loadbalanced-driver", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		// Declares form elicitation; the rounds are answered below, not here.
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by hand")
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()

	origin, destination := fmt.Sprintf("O%03d", i%1000), fmt.Sprintf("D%03d", (i*7)%1000)
	date := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%700).Format(time.DateOnly)
	passengers := 1 + i%9
	params := &mcp.CallToolParams{Name: "book_flight", Arguments: map[string]any{"origin": origin, "destination": destination}}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return fmt.Errorf("round 1: %w", err)
	}
	for round := 1; round <= rounds; round++ {
		if !res.NeedsInput() || len(res.InputRequests) != 1 {
			return fmt.Errorf("round %d: want one question, got %s", round, describe(res))
		}
		var key string
		for k := range res.InputRequests {
			key = k
		}
		content := map[string]any{"date": fmt.Sprintf("%d/%d", i, round), "passengers": passengers}
		if round == rounds {
			content["date"] = date
		}
		params.InputResponses = mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept", Content: content}}
		params.RequestState = res.RequestState
		if res, err = cs.CallTool(ctx, params); err != nil {
			return fmt.Errorf("answer %d: %w", round, err)
		}
	}
	want := fmt.Sprintf("Booked %d passenger%s from %s to %s on %s.", passengers, plural(passengers), origin, destination, date)
	if got := text(res); res.NeedsInput() || res.IsError || got != want {
		return fmt.Errorf("got %s, want %q", describe(res), want)
	}
	return nil
}

// final is a flow's final retry as -save-finals writes it: what to send
// again, and the booking it must answer with.
type final struct {
	Args  map[string]any `json:"args"`
	Date  string         `json:"date"`
	State string         `json:"state"`
	Want  string         `json:"want"`
}

// finalsFile is the -save-finals file, written by concurrent flows.
type finalsFile struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (f *finalsFile) add(fl final) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = f.enc.Encode(fl)
}

// replay runs flow i with one round and sends its final retry copies times
// at once (and saves it to finals, when set). It returns how many copies
// answered with the flow's own booking and how many were refused with -32603
// (another copy held the flow longer than the server's ClaimWait); anything
// else, or no copy answering, is an error.
func replay(ctx context.Context, endpoint string, i, copies int, finals *finalsFile) (answered, refused int, err error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "loadbalanced-driver", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by hand")
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	origin, destination := fmt.Sprintf("R%03d", i%1000), fmt.Sprintf("S%03d", (i*7)%1000)
	date := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%700).Format(time.DateOnly)
	args := map[string]any{"origin": origin, "destination": destination}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: args})
	if err != nil {
		return 0, 0, fmt.Errorf("round 1: %w", err)
	}
	if !res.NeedsInput() {
		return 0, 0, fmt.Errorf("round 1: want a question, got %s", describe(res))
	}
	want := fmt.Sprintf("Booked 1 passenger from %s to %s on %s.", origin, destination, date)
	finals.add(final{Args: args, Date: date, State: res.RequestState, Want: want})
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range copies {
		wg.Go(func() {
			got, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: args,
				InputResponses: mcp.InputResponseMap{"book_flight": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": date}}},
				RequestState:   res.RequestState})
			mu.Lock()
			defer mu.Unlock()
			var je *jsonrpc.Error
			switch {
			case errors.As(err, &je) && je.Code == -32603:
				refused++
			case err != nil:
				errs = append(errs, err)
			case got.NeedsInput() || got.IsError || text(got) != want:
				errs = append(errs, fmt.Errorf("got %s, want %q", describe(got), want))
			default:
				answered++
			}
		})
	}
	wg.Wait()
	if len(errs) == 0 && answered == 0 {
		errs = append(errs, errors.New("every copy was refused"))
	}
	return answered, refused, errors.Join(errs...)
}

// sendFinals sends once more each final retry the file at path holds, one
// client, 20 at a time, and checks that each gets its recorded booking
// (recorded) or JSON-RPC -32602 telling the client to start the call again.
func sendFinals(endpoint, path string, recorded bool, timeout time.Duration, stdout io.Writer) int {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stdout, "error:", err)
		return 1
	}
	defer f.Close()
	var finals []final
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var fl final
		if err := json.Unmarshal(sc.Bytes(), &fl); err != nil {
			fmt.Fprintln(stdout, "error:", err)
			return 1
		}
		finals = append(finals, fl)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "loadbalanced-driver", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("rounds are driven by hand")
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		fmt.Fprintln(stdout, "error: connect:", err)
		return 1
	}
	defer cs.Close()
	var gotRecord, gotRefused atomic.Int64
	var mu sync.Mutex
	var errs []error
	sem := make(chan struct{}, 20)
	var wg sync.WaitGroup
	for i, fl := range finals {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			got, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book_flight", Arguments: fl.Args,
				InputResponses: mcp.InputResponseMap{"book_flight": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"date": fl.Date}}},
				RequestState:   fl.State})
			var je *jsonrpc.Error
			switch {
			case recorded && err == nil && !got.NeedsInput() && !got.IsError && text(got) == fl.Want:
				gotRecord.Add(1)
				return
			case !recorded && errors.As(err, &je) && je.Code == -32602 && strings.Contains(je.Message, "start the call again"):
				gotRefused.Add(1)
				return
			case err == nil:
				err = fmt.Errorf("got %s", describe(got))
			}
			mu.Lock()
			errs = append(errs, fmt.Errorf("final %d: %w", i, err))
			mu.Unlock()
		})
	}
	wg.Wait()
	fmt.Fprintf(stdout, "finals: sent=%d recorded=%d refused=%d errors=%d\n", len(finals), gotRecord.Load(), gotRefused.Load(), len(errs))
	for i, err := range errs {
		if i == 10 {
			fmt.Fprintf(stdout, "… and %d more\n", len(errs)-10)
			break
		}
		fmt.Fprintln(stdout, "error:", err)
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func describe(res *mcp.CallToolResult) string {
	if res.NeedsInput() {
		return fmt.Sprintf("%d input requests", len(res.InputRequests))
	}
	return fmt.Sprintf("result (isError %v) %q", res.IsError, text(res))
}

// pickPorts asks the kernel for n free loopback ports and releases them.
func pickPorts(n int) ([]string, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	var ports []string
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		ports = append(ports, fmt.Sprint(ln.Addr().(*net.TCPAddr).Port))
	}
	return ports, nil
}

// plural is "s" unless n is 1, as the bookflight server writes its result.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
