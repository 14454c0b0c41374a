package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/impl"
)

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
// would bind (tool, arguments, expiry), and for the tool with an at-most-once
// record, the flow's random id.
type handState struct {
	Tool    string `json:"t"`
	Args    []byte `json:"a"`
	Expires int64  `json:"e"`
	Flow    []byte `json:"f,omitempty"`
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

// addHandWritten registers the baselines: raw go-sdk tools doing the same
// round by hand with the same sealing (runtime.KeyRing). They declare the
// same input schema, check the arguments, ask for a missing date with the
// same requestedSchema (built and encoded once), and on retry open the
// state, check its binding and read the answer. book_flight_hand keeps no
// record, so a replay of its state books again; book_flight_hand_once also
// does what at most once needs at the least (see handRecords).
func addHandWritten(s *mcp.Server, keys *runtime.KeyRing) {
	// The requestedSchema is encoded once, as the engine encodes a form
	// without run-time rules once (invopop's encoder takes about 20 µs a
	// call: encoding it on every call would charge the baseline for it).
	schema, err := json.Marshal((&bookflight.BookFlightArgs{}).RequestedSchema())
	if err != nil {
		panic(err)
	}
	var schemaJSON bytes.Buffer
	if err := json.Compact(&schemaJSON, []byte(handInputSchema)); err != nil {
		panic(err)
	}
	for _, name := range []string{toolHand, toolHandOnce} {
		var records *handRecords
		if name == toolHandOnce {
			records = &handRecords{}
		}
		tool := &mcp.Tool{Name: name, InputSchema: json.RawMessage(schemaJSON.Bytes())}
		s.AddTool(tool, handWritten(keys, name, schema, records))
	}
	s.AddTool(&mcp.Tool{Name: toolHandSession, InputSchema: json.RawMessage(schemaJSON.Bytes())}, handSession(handForms()))
}

// handWritten is the handler of the hand-written tool name; records is nil
// for the one that keeps none.
func handWritten(keys *runtime.KeyRing, name string, schema []byte, records *handRecords) mcp.ToolHandler {
	const message = "Which day should the flight leave, and how many people are flying?"
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args handArgs
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil || args.Origin == "" || args.Destination == "" {
			return toolError("origin and destination are required"), nil
		}
		if args.Date != "" {
			return text(booked(max(args.Passengers, 1), args.Origin, args.Destination, args.Date)), nil
		}
		digest := sha256.Sum256(req.Params.Arguments)
		if req.Params.RequestState == "" {
			st := handState{Tool: name, Args: digest[:], Expires: time.Now().Add(10 * time.Minute).Unix()}
			if records != nil {
				st.Flow = make([]byte, 16)
				_, _ = rand.Read(st.Flow)
			}
			sealed, _ := json.Marshal(st)
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{inputKey: &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: json.RawMessage(schema)}},
				RequestState:  keys.Seal(sealed),
			}, nil
		}
		pt, err := keys.Open(req.Params.RequestState, 16<<10)
		var st handState
		if err == nil {
			err = json.Unmarshal(pt, &st)
		}
		if err != nil || st.Tool != name || string(st.Args) != string(digest[:]) || time.Now().Unix() > st.Expires ||
			(records != nil && len(st.Flow) != 16) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState"}
		}
		answer := func() *mcp.CallToolResult {
			er, ok := req.Params.InputResponses[inputKey].(*mcp.ElicitResult)
			if !ok || er.Action != "accept" {
				return text("nothing booked")
			}
			date, _ := er.Content["date"].(string)
			if !impl.IsDate(date) {
				return toolError("date must be YYYY-MM-DD")
			}
			passengers := 1
			if p, ok := er.Content["passengers"].(float64); ok {
				if p < 1 || p > 9 || p != float64(int(p)) {
					return toolError("passengers must be 1 to 9")
				}
				passengers = int(p)
			}
			if w, ok := er.Content["window"].(string); ok && w != "morning" && w != "afternoon" && w != "evening" {
				return toolError("window must be morning, afternoon or evening")
			}
			return text(booked(passengers, args.Origin, args.Destination, date))
		}
		if records == nil {
			return answer(), nil
		}
		return records.do(st.Flow, answer), nil
	}
}

// handArgs are book_flight's arguments as the hand-written tools decode them.
type handArgs struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date"`
	Window      string `json:"window"`
	Passengers  int    `json:"passengers"`
}

// handRecords is the least a hand-written tool can do for at most once, in
// one process: the first result of each flow (by the random id in its
// state), kept for the process's life, is every later retry's result, and a
// duplicate that arrives while the first runs waits for it. mcpgen's
// in-memory store does this and more (claims with a lease, a record encoded
// to bytes, an expiry, a bound on its memory, an epoch): comparing mcpgen
// with this tool shows what mcpgen costs beyond what the guarantee itself
// needs.
type handRecords struct{ m sync.Map } // string(flow id) → *handRecord

type handRecord struct {
	once    sync.Once
	text    string
	isError bool
}

// do returns flow's recorded result, running answer once for the flow's
// first retry.
func (h *handRecords) do(flow []byte, answer func() *mcp.CallToolResult) *mcp.CallToolResult {
	v, ok := h.m.Load(string(flow))
	if !ok {
		v, _ = h.m.LoadOrStore(string(flow), new(handRecord))
	}
	rec := v.(*handRecord)
	rec.once.Do(func() {
		res := answer()
		rec.text, rec.isError = res.Content[0].(*mcp.TextContent).Text, res.IsError
	})
	res := text(rec.text)
	res.IsError = rec.isError
	return res
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func toolError(s string) *mcp.CallToolResult {
	r := text(s)
	r.IsError = true
	return r
}

// TestHandOnceRecords checks the two baselines against a replayed state:
// book_flight_hand_once returns the first result (its flow is done),
// book_flight_hand books again with the replay's answer.
func TestHandOnceRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	srv := startServer(t)
	ctx := context.Background()
	for _, c := range []struct{ tool, replay string }{
		{toolHandOnce, wantText},
		{toolHand, "Booked 3 passengers from CDG to JFK on 2026-12-24."},
	} {
		t.Run(c.tool, func(t *testing.T) {
			rc := connectMode(t, srv.url, roundTripMode{tool: c.tool, round: true})
			got, state, err := rc.callState(ctx)
			if err != nil || got != wantText {
				t.Fatalf("round: %q, %v", got, err)
			}
			res, err := rc.cs.CallTool(ctx, &mcp.CallToolParams{
				Name: c.tool, Arguments: routeArgs, RequestState: state,
				InputResponses: mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept",
					Content: map[string]any{"date": "2026-12-24", "passengers": 3}}},
			})
			if err != nil || res.IsError || len(res.Content) != 1 {
				t.Fatalf("replay: %+v, %v", res, err)
			}
			if got := res.Content[0].(*mcp.TextContent).Text; got != c.replay {
				t.Errorf("replay: got %q, want %q", got, c.replay)
			}
		})
	}
}

// handMaxRounds is the hand-written session tool's round limit: the
// engine's default (runtime.DefaultMaxRounds).
const handMaxRounds = runtime.DefaultMaxRounds

// handForms returns the requestedSchema of every set of book_flight's
// elicitable fields, encoded once, by the fields' JSON names in field order
// joined with commas ("date", "date,window,passengers", …): what the
// hand-written session tool asks, the whole form first and then the fields
// whose answers were bad (the same documents the engine sends, as
// addHandWritten's tools borrow theirs).
func handForms() map[string]json.RawMessage {
	names := []string{"date", "window", "passengers"}
	forms := map[string]json.RawMessage{}
	for set := 1; set < 1<<len(names); set++ {
		var fields []string
		for i, n := range names {
			if set&(1<<i) != 0 {
				fields = append(fields, n)
			}
		}
		b, err := json.Marshal((&bookflight.BookFlightArgs{}).RequestedSchema(fields...))
		if err != nil {
			panic(err)
		}
		forms[strings.Join(fields, ",")] = b
	}
	return forms
}

// handSession is the hand-written baseline for a client on a session
// (protocol 2025-11-25): the tool a go-sdk author writes without mcpgen,
// asking within the one tools/call with ServerSession.Elicit in a loop. It
// asks the same questions as the generated tool on a session (the same
// message and requestedSchema; after a bad answer, the fields that were bad,
// with the same "Please check" reason, keeping the good ones), checks the
// answer by the same rules, asks again when go-sdk refused the answer
// before the tool saw it, gives up after the same number of rounds with the
// same tool error, and books once, after the answer that passes.
//
// What it gives for at most once: one goroutine runs the whole
// conversation and books at most once per tools/call, and only after an
// accepted answer that passes its checks; a call that ends before that (a
// decline, a cancel, a client that answers with an error, goes away or
// closes its session) books nothing. What it does not give: a client that
// sends the tools/call again (its connection broke after the booking, before
// the result arrived) books again, since nothing in the call says it is the
// same one; and a server that stops in the middle loses the call. The
// generated tool on a session does no better: its requestState never
// leaves the server, so each tools/call is a new flow with a new id, and
// the at-most-once record it claims and writes on every call guards only
// the call it is in.
func handSession(forms map[string]json.RawMessage) mcp.ToolHandler {
	const message = "Which day should the flight leave, and how many people are flying?"
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args handArgs
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil || args.Origin == "" || args.Destination == "" {
			return toolError("origin and destination are required"), nil
		}
		if args.Date != "" {
			return text(booked(max(args.Passengers, 1), args.Origin, args.Destination, args.Date)), nil
		}
		date, window, passengers := "", args.Window, args.Passengers
		var problem string
		for round := 1; ; round++ {
			if round > handMaxRounds {
				return toolError(fmt.Sprintf("%s: gave up after %d rounds of input requests without a usable answer; last problem: %s",
					toolGenerated, handMaxRounds, problem)), nil
			}
			asked := make([]string, 0, 3)
			if date == "" {
				asked = append(asked, "date")
			}
			if window == "" {
				asked = append(asked, "window")
			}
			if passengers == 0 {
				asked = append(asked, "passengers")
			}
			msg := message
			if problem != "" {
				msg += "\n\nPlease check: " + problem
			}
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: forms[strings.Join(asked, ",")]})
			if err != nil {
				if _, why, ok := strings.Cut(err.Error(), handSchemaMismatch); ok {
					problem = handRefusedReason(why) // go-sdk's own check refused it: ask again
					continue
				}
				return nil, err // nothing booked
			}
			switch res.Action {
			case "decline":
				return text("nothing booked"), nil
			case "cancel":
				return text("cancelled"), nil
			case "accept":
			default:
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown action " + strconv.Quote(res.Action)}
			}
			var problems []string
			for _, f := range asked {
				v, ok := res.Content[f]
				switch f {
				case "date":
					s, _ := v.(string)
					switch {
					case !ok:
						problems = append(problems, "date: is required")
					case !impl.IsDate(s):
						problems = append(problems, "date: must be a date as YYYY-MM-DD (RFC 3339 full-date)")
					default:
						date = s
					}
				case "window":
					switch s, _ := v.(string); {
					case !ok:
					case s == "morning" || s == "afternoon" || s == "evening":
						window = s
					default:
						problems = append(problems, "window: must be one of: morning, afternoon, evening")
					}
				case "passengers":
					p, _ := v.(float64)
					switch {
					case !ok:
						passengers = 1
					case p < 1:
						problems = append(problems, "passengers: must be at least 1")
					case p > 9:
						problems = append(problems, "passengers: must be at most 9")
					default:
						passengers = int(p)
					}
				}
			}
			if len(problems) == 0 {
				return text(booked(passengers, args.Origin, args.Destination, date)), nil
			}
			problem = strings.Join(problems, "; ")
		}
	}
}

// handSchemaMismatch starts the error go-sdk v1.8.0's ServerSession.Elicit
// returns when its own check of an accepted answer against the
// requestedSchema refused it.
const handSchemaMismatch = "elicitation result content does not match requested schema: "

// handRefusedReason words go-sdk's reason for refusing an answer by field
// and rule ("passengers breaks its maximum rule"), as a careful author
// would, not to show the model the value the user typed (the engine's
// adapter words it the same way).
func handRefusedReason(why string) string {
	why = strings.TrimPrefix(why, "validating root: ")
	if rest, ok := strings.CutPrefix(why, "validating /properties/"); ok {
		field, tail, _ := strings.Cut(rest, ": ")
		keyword, _, _ := strings.Cut(tail, ":")
		return field + " breaks its " + keyword + " rule"
	}
	return why
}
