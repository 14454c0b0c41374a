package fallback

import (
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/require"
)

func TestText(t *testing.T) {
	s := &jsonschema.Schema{}
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{
		"confirm":{"type":"string","title":"Service name","minLength":1},
		"mode":{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}},"required":["confirm"]}`), s))
	require.Equal(t, `deploy needs the user to answer a question ("Please provide: Service name, mode"), but this client declared no form elicitation, so it cannot be asked:
- confirm ("Service name"): required string, minLength 1
- mode: optional array of strings, one of a`,
		Text(Form{Tool: "deploy", Question: "confirm", Schema: s, Why: "this client declared no form elicitation"}))
	require.Equal(t, `deploy needs input from the user, but it is busy, so it cannot be asked.
These must be confirmed by the user in a form, so this call cannot complete with this client:
- confirm ("Service name"): required string, minLength 1
Optional; pass them as arguments if known:
- mode: optional array of strings, one of a
Problem with the last answer: confirm: too short`,
		Text(Form{Tool: "deploy", Schema: s, AskAlways: []string{"confirm"}, Why: "it is busy", Problem: "confirm: too short"}))
	require.Equal(t, "connect needs the user to complete a step at a URL (api_key), but this client declared no URL-mode elicitation",
		URLText("connect", "api_key", "this client declared no URL-mode elicitation"))
}
