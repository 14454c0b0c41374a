package mcpsdk_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mrt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// Keys that differ from a field's JSON name only in case, which
// encoding/json alone would put in the field ("ſ", the long s, folds to s).
var (
	budgetVariants = []string{"Budget", "BUDGET", "bUDGET", "budgeT"}
	speedVariants  = []string{"Speed", "SPEED", "speeD", "\u017fpeed"}
)

// exactServer serves plan_trip and ship over Streamable HTTP (stateless for
// 2026-07-28, sessions for older clients). Ship's options are slow and fast.
func exactServer(t *testing.T) (url string, trip *fixture.TripRecorder, ship *fixture.ShipRecorder) {
	t.Helper()
	trip, ship = &fixture.TripRecorder{}, &fixture.ShipRecorder{Price: 7, Stock: 3}
	ship.Speeds = []mrt.Choice{{Value: "slow"}, {Value: "fast"}}
	s := server(keys(), trip, &fixture.PicksRecorder{})
	mcpsdk.AddTool(s, fixture.NewShipFlow(ship), keys())
	srv := httptest.NewServer(mcpsdk.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	return srv.URL, trip, ship
}

// A key that differs from a field's JSON name only in case fills no field,
// over the wire, for a 2026-07-28 client and a 2025-11-25 session alike: a
// plain argument's bounds (budget, maximum 5000) cannot be passed by
// spelling it "Budget", and a run-time choice (ship's speed, one of slow
// and fast) cannot be given as "Speed": the field stays missing and is
// asked for.
func TestCaseVariantKeysFillNoField(t *testing.T) {
	ctx := context.Background()
	full := func(extra string, v any) map[string]any {
		args := map[string]any{"city": "Paris", "name": "Ada", "email": "ada@example.com", "nights": 2}
		args[extra] = v
		return args
	}
	eras := map[string]func(t *testing.T, url string, asked *[]*mcp.ElicitParams) *mcp.ClientSession{
		"2026-07-28": func(t *testing.T, url string, _ *[]*mcp.ElicitParams) *mcp.ClientSession {
			return connect(t, url, true, nil)
		},
		"2025-11-25": func(t *testing.T, url string, asked *[]*mcp.ElicitParams) *mcp.ClientSession {
			c := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					*asked = append(*asked, req.Params)
					return &mcp.ElicitResult{Action: "cancel"}, nil
				},
			})
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			require.NoError(t, err)
			require.NotEmpty(t, cs.ID(), "a session")
			t.Cleanup(func() { cs.Close() })
			return cs
		},
	}
	for era, dial := range eras {
		t.Run(era, func(t *testing.T) {
			url, trip, ship := exactServer(t)
			var asked []*mcp.ElicitParams
			cs := dial(t, url, &asked)

			// The exact name is held to the input schema's maximum.
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plan_trip", Arguments: full("budget", 999999)})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, text(res), "invalid arguments")
			assert.Zero(t, trip.Count())

			for _, key := range budgetVariants {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plan_trip", Arguments: full(key, 999999)})
				require.NoError(t, err, key)
				require.False(t, res.IsError, "%s: %s", key, text(res))
			}
			for i, run := range trip.Runs() {
				assert.NotContains(t, string(run.Args), "999999", "run %d saw %s", i, run.Args)
				assert.Equal(t, mrt.Accept, run.Action)
			}
			assert.Equal(t, len(budgetVariants), trip.Count())

			for _, key := range speedVariants {
				asked = nil
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ship", Arguments: map[string]any{"parcel": "P1", key: "teleport"}})
				require.NoError(t, err, key)
				if era == "2026-07-28" {
					k, ep, err := onlyKey(res)
					require.NoError(t, err, key)
					assert.Equal(t, "ship", k)
					assert.Contains(t, schemaOf(t, ep)["properties"], "speed", "%s: speed is still missing", key)
				} else {
					require.Len(t, asked, 1, "%s: the bridge asked for speed", key)
					assert.Contains(t, schemaOf(t, asked[0])["properties"], "speed")
				}
			}
			for _, run := range ship.Runs() {
				assert.NotContains(t, string(run.Args), "teleport")
			}
		})
	}
}
