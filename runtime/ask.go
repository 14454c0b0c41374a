package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
)

var (
	// ErrInputRequired is what [Ask], [AskURL] return while the user has not
	// answered yet in this request. Return it from the branch unchanged
	// (`if err != nil { return nil, err }`): the flow then answers the request
	// with an input-required result for that question (MCP 2026-07-28,
	// basic/patterns/mrtr) and runs the branch again, from the top, on the
	// client's retry.
	ErrInputRequired = engine.ErrInputRequired
	// ErrUnaskable is what [Ask] and [AskURL] return (errors.Is matches it;
	// the error's text is the tool error below) when the client of the
	// request cannot be asked the question: it declared no form elicitation
	// (or no URL-mode elicitation, for a URL-mode question or AskURL; MCP
	// 2026-07-28, client/elicitation, capabilities; for a 2025-era client,
	// MCP 2025-11-25, basic/lifecycle: what it declared at initialize), or
	// the adapter cannot send it a request at all ([protocol.Client].Unaskable).
	// Nothing is asked, and asking again in this request returns it again.
	//
	// A branch can act on it: point the user elsewhere, or go on without the
	// answer when that is safe. A branch that returns it (wrapped or not)
	// ends the call exactly as an unanswerable question always did: a tool
	// error that names every field of the question with its title and
	// constraints ("… needs the user to answer a question (…), but this
	// client declared no form elicitation, so it cannot be asked"), or
	// JSON-RPC -32021 with data.requiredCapabilities under
	// [ProtocolErrorOnMissingCapability] (URL mode: -32021 for a 2026-07-28
	// client, a tool error for an older one).
	ErrUnaskable = engine.ErrUnaskable
)

// AskOptions shape a question at run time, from what the branch computed.
// Everything in them is part of the question: when a retry computes other
// options (the data changed), an earlier answer is not applied and the new
// question is asked.
//
// Its fields:
//
//   - Message (string) is shown above the form; "" uses the question struct's
//     //mcpgen:message, or "Please provide: " and the fields' titles.
//   - Choices (map[string][]Choice) gives, by JSON name, the options of each
//     elicit:"choices" field: an answer must be one of them.
//   - Equal (map[string]string) gives, by JSON name, the exact string an
//     answer must be (a typed echo: "type the service name to confirm"); a
//     different answer is asked again with the reason.
//   - Defaults (map[string]any) gives, by JSON name, values the form
//     pre-fills (MCP 2026-07-28, client/elicitation: default) and an optional
//     field left unanswered takes.
//   - Descriptions (map[string]string) gives, by JSON name, the field's
//     description in this form in place of the tag's (MCP 2026-07-28,
//     client/elicitation: a property's description, the help text a client
//     shows): what only the branch knows, such as "Type octo/hello exactly".
//   - Check (func(ctx context.Context) error), when set, judges an accepted
//     answer once it passed every rule and q holds it (a key the service it
//     unlocks refuses, an account that is closed): a non-nil error refuses
//     the answer, and the question is asked again with the error's text as
//     the reason (shown to the user: never put a secret in it), within the
//     round limit.
type AskOptions = engine.AskOptions

// Ask asks the user question q — a struct with a //mcpgen:question directive
// and elicit tags, whose methods mcpgen generated — under name, from a
// branch of a generated flow (Accept, Decline, Cancel) or an exchange
// handler (MCP 2026-07-28, client/elicitation, form mode). The branch runs
// again from the top on every round, on any instance, so code before the
// last question must be free of side effects.
//
// It returns:
//
//   - Accept, nil: q holds the user's valid answer (from this request, or
//     sealed from an earlier round: an answered question is not asked again
//     while it stays the same question);
//
//   - Decline or Cancel, nil: the user refused or walked away; q is
//     unchanged and the branch decides what that means;
//
//   - "", ErrInputRequired: not answered yet; return the error unchanged.
//     An accepted answer that breaks a rule (of the tags or of opts) is
//     asked again for just the failing fields, with the reason, within the
//     round limit, without returning to the branch.
//
//   - "", an error errors.Is reports as [ErrUnaskable]: the client of this
//     request cannot be asked the question (it declared no form
//     elicitation, or, for a URL-mode question, no URL-mode elicitation).
//     Nothing is asked. The branch may act on it (point elsewhere, go on
//     without the answer when that is safe); returned unchanged it ends
//     the call in the tool error (or -32021) that names the question's
//     fields, as before.
//
// Other errors: ctx is not a branch's or exchange handler's context; name is
// empty; the answer is malformed (a *protocol.Error -32602).
func Ask(ctx context.Context, name string, q Args, opts *AskOptions) (Action, error) {
	return engine.Ask(ctx, name, q, opts)
}

// AskURL asks the user, under name, to complete a step out of band at url
// (MCP 2026-07-28, client/elicitation, "URL Mode Elicitation Requests"):
// signing in, paying, entering a secret that must not pass through the
// client. done reports whether the step has finished; it is the
// application's answer, checked on every round, never the client's. It
// returns Accept once done says so, Decline or Cancel when the user refused
// the URL, ErrInputRequired while waiting (return it unchanged, as with
// [Ask]), and [ErrUnaskable] when the client declared no URL-mode
// elicitation (nothing is asked).
//
// A client's accept only says that the user went to the URL (VS Code
// accepts as soon as it opened the browser), so a retry that accepts waits
// for the step as a hosted page's retry does: it calls done again, backing
// off from 100 ms to 1 s, for up to [Options].PageWait (15 s by default; on
// a 2025-era session, as for a hosted page, until the flow expires), and
// returns Accept as soon as done says so. When the wait ends first, the same
// URL is asked again with "the step at the URL has not finished yet", which
// does not count towards the round limit (the flow's TTL still bounds the
// call). The wait runs inside the branch, holding the flow's at-most-once
// claim: a duplicate of the retry waits Options.ClaimWait for it. A retry
// without an answer, a decline or a cancel does not wait.
//
// The URL must carry no credentials or user data and must not be
// pre-authenticated; done must check that whoever completed the step is the
// caller. Errors from done are returned as they are.
func AskURL(ctx context.Context, name, message, url string, done func(context.Context) (bool, error)) (Action, error) {
	return engine.AskURL(ctx, name, message, url, done)
}

// Keep returns the value stored under name by an earlier round of this call,
// or computes it, stores it and returns it: a plan or a price quote computed
// once rides in the sealed requestState, so that later rounds see the same
// value instead of recomputing data that may change. Values are JSON-encoded
// (they add to the state's size, bounded by Options.MaxStateSize) and are
// sealed only when the request asks a question after computing them. Outside
// a flow branch or exchange handler it simply calls compute.
func Keep[T any](ctx context.Context, name string, compute func() (T, error)) (T, error) {
	return engine.Keep(ctx, name, compute)
}

// Choice is one option of a select whose options are known only at run time
// (a field tagged elicit:"choices"): the caller's own accounts, the files in
// a folder. Value is what the answer holds. When every choice of a field has
// a Title the select is titled (oneOf / items.anyOf of const+title, MCP
// 2026-07-28 client/elicitation, "Enum schemas"); otherwise it is a plain
// enum of the values.
//
// Its fields:
//
//   - Value, Title (string)
type Choice = engine.Choice

// DefaultUnaskable returns what the flow answers, without an Unaskable
// method on the handler, when the tool's own form must be asked but the
// client cannot be asked (it declared no form elicitation, MCP 2026-07-28,
// client/elicitation, capabilities; or the adapter cannot send it a request):
// the tool error naming each field with its title and constraints, which
// ones the model can pass as arguments and call again and which only the
// user can confirm; or, under [ProtocolErrorOnMissingCapability], nil and
// the JSON-RPC -32021 *protocol.Error with data.requiredCapabilities
// ({"elicitation":{"form":{}}}). It is the generated Unaskable skeleton's
// one line. Outside an Unaskable method it returns an error.
func DefaultUnaskable(ctx context.Context) (*Result, error) { return engine.DefaultUnaskable(ctx) }
