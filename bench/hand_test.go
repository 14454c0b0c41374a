package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"reflect"
	"strconv"
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
}

// handWritten is the handler of the hand-written tool name; records is nil
// for the one that keeps none.
func handWritten(keys *runtime.KeyRing, name string, schema []byte, records *handRecords) mcp.ToolHandler {
	const message = "Which day should the flight leave, and how many people are flying?"
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
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
