package mcpsdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mrt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// rewrite is a client transport that replaces from with to in every
// request body, once each, and counts the bodies it changed: it makes
// go-sdk's client send JSON its encoder never writes (an object with a key
// twice, keys the client's own schema check would refuse).
type rewrite struct {
	from, to string
	n        atomic.Int32
}

func (rw *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if bytes.Contains(b, []byte(rw.from)) {
			b = bytes.Replace(b, []byte(rw.from), []byte(rw.to), 1)
			rw.n.Add(1)
		}
		r = r.Clone(r.Context())
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// answerEra answers plan_trip's form (city Paris) on url with each content
// in turn, over go-sdk's client of one era through hc (nil: the default),
// until the call completes or the answers run out; it returns the final
// result and the form's properties each time it was asked.
type answerEra func(t *testing.T, url string, hc *http.Client, contents ...map[string]any) (*mcp.CallToolResult, [][]string)

var contentEras = map[string]answerEra{
	"2026-07-28": func(t *testing.T, url string, hc *http.Client, contents ...map[string]any) (*mcp.CallToolResult, [][]string) {
		cs := connect(t, url, true, hc)
		args := map[string]any{"city": "Paris"}
		res, err := callTrip(cs, args, nil, "")
		require.NoError(t, err)
		var asked [][]string
		for _, content := range contents {
			key, ep, err := onlyKey(res)
			require.NoError(t, err)
			asked = append(asked, propertyNames(t, ep))
			res, err = callTrip(cs, args, accept(key, content), res.RequestState)
			require.NoError(t, err)
			if !res.NeedsInput() {
				return res, asked
			}
		}
		_, ep, err := onlyKey(res)
		require.NoError(t, err)
		return res, append(asked, propertyNames(t, ep))
	},
	"2025-11-25": func(t *testing.T, url string, hc *http.Client, contents ...map[string]any) (*mcp.CallToolResult, [][]string) {
		var mu sync.Mutex
		var asked [][]string
		c := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, propertyNames(t, req.Params))
				if len(asked) > len(contents) {
					return &mcp.ElicitResult{Action: "cancel"}, nil
				}
				return &mcp.ElicitResult{Action: "accept", Content: contents[len(asked)-1]}, nil
			},
		})
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		require.NotEmpty(t, cs.ID(), "a session")
		t.Cleanup(func() { cs.Close() })
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip", Arguments: map[string]any{"city": "Paris"}})
		require.NoError(t, err)
		mu.Lock()
		defer mu.Unlock()
		return res, asked
	},
}

// propertyNames returns the requested schema's property names, sorted.
func propertyNames(t *testing.T, p *mcp.ElicitParams) []string {
	t.Helper()
	props, _ := schemaOf(t, p)["properties"].(map[string]any)
	return slices.Sorted(maps.Keys(props))
}

// tripServer serves plan_trip and picks over Streamable HTTP (stateless for
// 2026-07-28, sessions for older clients).
func tripServer(t *testing.T) (string, *fixture.TripRecorder) {
	t.Helper()
	trip := &fixture.TripRecorder{}
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(server(keys(), trip, &fixture.PicksRecorder{}), nil))
	t.Cleanup(srv.Close)
	return srv.URL, trip
}

// ranArgs decodes the argument struct of the only branch run.
func ranArgs(t *testing.T, trip *fixture.TripRecorder) map[string]any {
	t.Helper()
	runs := trip.Runs()
	require.Len(t, runs, 1)
	assert.Equal(t, mrt.Accept, runs[0].Action)
	var m map[string]any
	require.NoError(t, json.Unmarshal(runs[0].Args, &m))
	return m
}

// Keys of a form answer's content (an accept's content: a 2026-07-28
// retry's inputResponses, a 2025-11-25 session's elicitation/create
// result) that differ from a property's name only in case fill no field,
// as for a tool's arguments (TestCaseVariantKeysFillNoField): "Nights" for
// a required nights leaves it missing, and it is asked again, alone; an
// out-of-range "NIGHTS" is neither taken nor judged; "Meal" for an optional
// meal leaves it empty. (The keys are put on the wire by the client's
// transport: go-sdk's client refuses to send an answer that lacks a
// required property, a server must still judge one that does.)
func TestCaseVariantContentKeysFillNoField(t *testing.T) {
	for era, answer := range contentEras {
		t.Run(era, func(t *testing.T) {
			url, trip := tripServer(t)
			rw := &rewrite{
				from: `"meal":"veg","name":"Ada","nights":2`,
				to:   `"Meal":"fish","NIGHTS":99,"name":"Ada","Nights":2`,
			}
			hc := &http.Client{Transport: rw}
			res, asked := answer(t, url, hc,
				map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2, "meal": "veg"},
				map[string]any{"nights": 3})
			require.Equal(t, int32(1), rw.n.Load(), "the first answer went out with the case variants")
			require.False(t, res.IsError, text(res))
			require.Len(t, asked, 2, "asked again")
			assert.Contains(t, asked[0], "nights")
			assert.Equal(t, []string{"nights"}, asked[1], "only nights, which no case variant filled")
			args := ranArgs(t, trip)
			assert.EqualValues(t, 3, args["nights"])
			assert.Nil(t, args["meal"], "Meal fills no meal")
			assert.Equal(t, "Ada", args["name"])
		})
	}
}

// A key twice in a form answer's content. Unlike a tool's arguments, which
// reach the engine as their raw bytes and are refused with a key twice
// (the canonical form, "arguments have the key %q twice"), an answer's
// content reaches no code of the server but as the map go-sdk v1.8.0
// decoded it into (mcp.ElicitResult.Content, map[string]any: from a
// session's elicitation/create result in jsonrpc2's AsyncCall.Await, from
// a retry's inputResponses in InputResponseMap.UnmarshalJSON), and that
// decoder keeps the last member, as encoding/json does. The flow judges
// that value, the only one anything reads, by its own rules: the first
// member neither fills the field nor passes a check for it. "nights":2
// then "nights":99 is the 99 the form's maximum refuses (nights asked
// again); "nights":99 then "nights":2 runs with 2.
func TestDuplicateContentKeyLastWins(t *testing.T) {
	for era, answer := range contentEras {
		t.Run(era, func(t *testing.T) {
			for _, c := range []struct {
				name, to string
				reasked  bool
			}{
				{"last out of range", `"nights":2,"nights":99`, true},
				{"last in range", `"nights":99,"nights":2`, false},
			} {
				t.Run(c.name, func(t *testing.T) {
					url, trip := tripServer(t)
					rw := &rewrite{from: `"nights":2`, to: c.to}
					hc := &http.Client{Transport: rw}
					res, asked := answer(t, url, hc,
						map[string]any{"name": "Ada", "email": "ada@example.com", "nights": 2},
						map[string]any{"nights": 3})
					require.Equal(t, int32(1), rw.n.Load(), "the first answer went out with nights twice")
					require.False(t, res.IsError, text(res))
					args := ranArgs(t, trip)
					if c.reasked {
						require.Len(t, asked, 2, "nights asked again")
						assert.Equal(t, []string{"nights"}, asked[1])
						assert.EqualValues(t, 3, args["nights"])
					} else {
						require.Len(t, asked, 1)
						assert.EqualValues(t, 2, args["nights"])
					}
				})
			}
		})
	}
}
