package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/fixture"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// noForms is req from a client that declared no form elicitation.
func noForms(args string) *protocol.Request {
	r := req(args, "", nil)
	r.FormElicitation = false
	return r
}

func tripOpts() *engine.Options {
	return &engine.Options{Keys: engine.EphemeralKeyRing(), Store: engine.NewMemoryStore()}
}

// withUnaskable returns the trip flow with fallback as its handler's
// Unaskable method.
func withUnaskable(fallback func(ctx context.Context, args engine.Args, missing []string, why string) (*engine.Result, error)) *engine.Flow {
	return engine.Redefine(fixture.NewTripFlow(&fixture.TripRecorder{}), func(d *engine.Def) {
		d.Unaskable = fallback
	})
}

// A handler without Unaskable keeps the runtime's tool error; one whose
// Unaskable returns engine.DefaultUnaskable answers exactly the same.
func TestUnaskableDefaultIsTodaysError(t *testing.T) {
	plain, err := fixture.NewTripFlow(&fixture.TripRecorder{}).Call(t.Context(), tripOpts(), noForms(paris))
	require.NoError(t, err)
	require.NotNil(t, plain.Result)
	assert.True(t, plain.Result.IsError)
	assert.Contains(t, plain.Result.Text, "plan_trip needs input from the user, but this client declared no form elicitation, so it cannot be asked.")
	assert.Contains(t, plain.Result.Text, "Pass these as arguments and call again:")

	skeleton := withUnaskable(func(ctx context.Context, _ engine.Args, _ []string, _ string) (*engine.Result, error) {
		return engine.DefaultUnaskable(ctx)
	})
	got, err := skeleton.Call(t.Context(), tripOpts(), noForms(paris))
	require.NoError(t, err)
	assert.Equal(t, plain.Result, got.Result)

	// Under ProtocolErrorOnMissingCapability both are -32021.
	opts := tripOpts()
	opts.MissingCapability = engine.ProtocolErrorOnMissingCapability
	_, perr := fixture.NewTripFlow(&fixture.TripRecorder{}).Call(t.Context(), opts, noForms(paris))
	_, serr := skeleton.Call(t.Context(), opts, noForms(paris))
	requireCode(t, perr, protocol.CodeMissingCapability)
	requireCode(t, serr, protocol.CodeMissingCapability)
	assert.Equal(t, perr.Error(), serr.Error())

	_, err = engine.DefaultUnaskable(t.Context())
	assert.ErrorContains(t, err, "outside a handler's Unaskable method")
}

// The fallback gets the fields the form would ask and why, runs like a
// branch (FlowID, ClientOf), and its result is the call's; a client that
// can be asked never reaches it.
func TestUnaskableFallback(t *testing.T) {
	var gotMissing []string
	var gotWhy, flowID string
	var client protocol.Client
	flow := withUnaskable(func(ctx context.Context, args engine.Args, missing []string, why string) (*engine.Result, error) {
		gotMissing, gotWhy, flowID, client = missing, why, engine.FlowID(ctx), engine.ClientOf(ctx)
		return engine.Textf("Open https://trips.example/plan?city=%s to finish.", args.(*fixture.Trip).City), nil
	})
	resp, err := flow.Call(t.Context(), tripOpts(), noForms(paris))
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.Equal(t, "Open https://trips.example/plan?city=Paris to finish.", resp.Result.Text)
	assert.False(t, resp.Result.IsError)
	assert.Equal(t, []string{"name", "email", "nights", "meal", "tags", "quiet"}, gotMissing, "the fields of the form, optional ones too")
	assert.Equal(t, "this client declared no form elicitation", gotWhy)
	assert.NotEmpty(t, flowID)
	assert.False(t, client.CanAsk())
	assert.True(t, client.MRTR())

	// The adapter's reason, when it has one, is why.
	r := noForms(paris)
	r.Unaskable = "this client reached the server over stateless HTTP"
	_, err = flow.Call(t.Context(), tripOpts(), r)
	require.NoError(t, err)
	assert.Equal(t, "this client reached the server over stateless HTTP", gotWhy)

	// A client that can be asked is asked.
	gotWhy = ""
	resp, err = flow.Call(t.Context(), tripOpts(), req(paris, "", nil))
	require.NoError(t, err)
	assert.NotEmpty(t, resp.InputRequests)
	assert.Empty(t, gotWhy)
}

// askingQuote is a quote handler that asks Approve and, when the client
// cannot be asked, points elsewhere (or, with passThrough, returns the
// error unchanged).
type askingQuote struct {
	passThrough bool
	client      *protocol.Client
}

func (h askingQuote) Accept(ctx context.Context, args *fixture.Quote) (*engine.Result, error) {
	if h.client != nil {
		*h.client = engine.ClientOf(ctx)
	}
	var q fixture.Approve
	action, err := engine.Ask(ctx, "approve", &q, &engine.AskOptions{Equal: map[string]string{"code": args.Parcel}})
	if errors.Is(err, engine.ErrUnaskable) && !h.passThrough {
		return engine.Textf("Approve %s at https://orders.example/approve instead.", args.Parcel), nil
	}
	if err != nil {
		return nil, err
	}
	return engine.Textf("%s: %s", action, q.Code), nil
}

// A question mid-branch to a client that cannot be asked: Ask returns
// ErrUnaskable to the branch, which can act on it; returned unchanged it ends
// the call in the tool error naming the question's fields, as before.
func TestAskUnaskable(t *testing.T) {
	resp, err := fixture.NewQuoteFlow(askingQuote{}).Call(t.Context(), tripOpts(), noForms(`{"parcel":"P1","count":3}`))
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.Equal(t, "Approve P1 at https://orders.example/approve instead.", resp.Result.Text)

	resp, err = fixture.NewQuoteFlow(askingQuote{passThrough: true}).Call(t.Context(), tripOpts(), noForms(`{"parcel":"P1","count":3}`))
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.True(t, resp.Result.IsError)
	assert.Contains(t, resp.Result.Text, `quote needs the user to answer a question ("Approve the shipment."), but this client declared no form elicitation, so it cannot be asked:`)
	assert.Contains(t, resp.Result.Text, `- code ("Parcel code")`)

	// The recorder of the fixture returns the error unchanged too: the same.
	old, err := fixture.NewQuoteFlow(&fixture.QuoteRecorder{Limit: 1}).Call(t.Context(), tripOpts(), noForms(`{"parcel":"P1","count":3}`))
	require.NoError(t, err)
	assert.True(t, old.Result.IsError)
	assert.Contains(t, old.Result.Text, "but this client declared no form elicitation, so it cannot be asked:")

	opts := tripOpts()
	opts.MissingCapability = engine.ProtocolErrorOnMissingCapability
	_, err = fixture.NewQuoteFlow(askingQuote{passThrough: true}).Call(t.Context(), opts, noForms(`{"parcel":"P1","count":3}`))
	requireCode(t, err, protocol.CodeMissingCapability)

	// A client that declares forms is asked, and sees what it declared.
	var client protocol.Client
	resp, err = fixture.NewQuoteFlow(askingQuote{client: &client}).Call(t.Context(), tripOpts(), req(`{"parcel":"P1","count":3}`, "", nil))
	require.NoError(t, err)
	assert.Contains(t, resp.InputRequests, "approve")
	assert.True(t, client.CanAsk())
	assert.Equal(t, protocol.VersionMRTR, client.ProtocolVersion)
}

// urlQuote asks a step at a URL.
type urlQuote struct{}

func (urlQuote) Accept(ctx context.Context, args *fixture.Quote) (*engine.Result, error) {
	action, err := engine.AskURL(ctx, "pay", "Pay the order.", "https://pay.example/o/1", func(context.Context) (bool, error) { return false, nil })
	if errors.Is(err, engine.ErrUnaskable) {
		return engine.Text("pay at https://pay.example/o/1, then call again"), nil
	}
	if err != nil {
		return nil, err
	}
	return engine.Text(string(action)), nil
}

// AskURL to a client without URL-mode elicitation returns ErrUnaskable.
func TestAskURLUnaskable(t *testing.T) {
	resp, err := fixture.NewQuoteFlow(urlQuote{}).Call(t.Context(), tripOpts(), req(`{"parcel":"P1","count":3}`, "", nil))
	require.NoError(t, err)
	require.NotNil(t, resp.Result)
	assert.Equal(t, "pay at https://pay.example/o/1, then call again", resp.Result.Text)

	r := req(`{"parcel":"P1","count":3}`, "", nil)
	r.URLElicitation = true
	resp, err = fixture.NewQuoteFlow(urlQuote{}).Call(t.Context(), tripOpts(), r)
	require.NoError(t, err)
	assert.Contains(t, resp.InputRequests, "pay")
}

// ClientOf answers in FormOptions (and Choices functions) with the
// request's capabilities and era; a 2025-era session is not MRTR.
func TestClientOfInFormOptions(t *testing.T) {
	var seen []protocol.Client
	flow := engine.Redefine(fixture.NewTripFlow(&fixture.TripRecorder{}), func(d *engine.Def) {
		d.Form = func(ctx context.Context, _ engine.Args) (*engine.AskOptions, error) {
			seen = append(seen, engine.ClientOf(ctx))
			return nil, nil
		}
	})
	r := req(paris, "", nil)
	r.ProtocolVersion, r.Sampling = protocol.Version20251125, true
	_, err := flow.Call(t.Context(), tripOpts(), r)
	require.NoError(t, err)
	require.Len(t, seen, 1)
	assert.Equal(t, protocol.Client{Capabilities: protocol.Capabilities{FormElicitation: true, Sampling: true},
		ProtocolVersion: protocol.Version20251125}, seen[0])
	assert.False(t, seen[0].MRTR())
	assert.Equal(t, protocol.Client{}, engine.ClientOf(t.Context()), "outside a flow: nothing declared")
}

// ClientOf answers in an exchange handler too.
func TestClientOfInExchange(t *testing.T) {
	r := req(`{}`, "", nil)
	r.Roots = true
	x, err := engine.NewExchange("roots", tripOpts(), r)
	require.NoError(t, err)
	var got protocol.Client
	_, err = x.Run(t.Context(), func(ctx context.Context) (*engine.Response, error) {
		got = engine.ClientOf(ctx)
		return &engine.Response{Result: engine.Text("ok")}, nil
	})
	require.NoError(t, err)
	assert.True(t, got.Roots)
	assert.True(t, got.CanAsk())
}

// A client that accepts the form twice with nothing filled in cannot show
// it: the fallback runs with that reason, and DefaultUnaskable answers with
// the tool error the flow gives without one.
func TestUnaskableAfterEmptyAccepts(t *testing.T) {
	var whys []string
	flow := withUnaskable(func(ctx context.Context, _ engine.Args, _ []string, why string) (*engine.Result, error) {
		whys = append(whys, why)
		return engine.DefaultUnaskable(ctx)
	})
	opts := tripOpts()
	r1, err := flow.Call(t.Context(), opts, req(paris, "", nil))
	require.NoError(t, err)
	key, _, _ := question(t, r1)
	r2, err := flow.Call(t.Context(), opts, req(paris, r1.RequestState, accept(key, map[string]any{})))
	require.NoError(t, err)
	key2, _, _ := question(t, r2)
	r3, err := flow.Call(t.Context(), opts, req(paris, r2.RequestState, accept(key2, nil)))
	require.NoError(t, err)
	require.NotNil(t, r3.Result)
	assert.Equal(t, []string{"the client accepted the form twice with nothing filled in (it may be unable to show it)"}, whys)
	assert.Contains(t, r3.Result.Text, "accepted the form twice with nothing filled in")
	assert.Contains(t, r3.Result.Text, "Pass these as arguments and call again")
}
