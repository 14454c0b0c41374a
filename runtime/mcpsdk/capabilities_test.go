package mcpsdk

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// sdkCapabilities is what go-sdk's ClientCapabilities makes of meta, in the
// flow's terms (a request without a session).
func sdkCapabilities(meta map[string]any) protocol.Capabilities {
	req := &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Meta: meta}}
	return capabilities(req.ClientCapabilities())
}

// TestMetaCapabilitiesAgreesWithSDK holds metaCapabilities to go-sdk's
// decoding of the same _meta: where it answers, it answers alike, and it
// answers for what clients send.
func TestMetaCapabilitiesAgreesWithSDK(t *testing.T) {
	for _, c := range []struct {
		caps    string
		answers bool // metaCapabilities must answer (not leave it to the SDK)
	}{
		{`{"elicitation":{"form":{}}}`, true},
		{`{"elicitation":{}}`, true},
		{`{"elicitation":{"url":{}}}`, true},
		{`{"elicitation":{"form":{},"url":{}}}`, true},
		{`{"elicitation":{"form":{"x":1},"other":5}}`, true},
		{`{"elicitation":null}`, true},
		{`{"elicitation":{"form":null}}`, true},
		{`{"elicitation":{"form":null,"url":{}}}`, true},
		{`{}`, true},
		{`{"sampling":{},"roots":{"listChanged":true}}`, true},
		{`{"sampling":{"context":{},"tools":{}},"roots":{}}`, true},
		{`{"roots":{"listChanged":false}}`, true},
		{`{"roots":null,"sampling":null}`, true},
		{`{"experimental":{"a":[1]},"extensions":{"io.x/y":{}},"elicitation":{"form":{}}}`, true},
		{`{"tasks":{"x":1},"elicitation":{"form":{}}}`, true},
		{`{"Elicitation":{"form":{}}}`, true}, // names match exactly: ignored by both
		{`{"elicitation":{"Form":{}}}`, true},
		{`{"elicitation":{"form":true}}`, false},
		{`{"elicitation":{"url":"yes"}}`, false},
		{`{"elicitation":[],"sampling":{}}`, false},
		{`{"roots":{"listChanged":"yes"},"elicitation":{"form":{}}}`, false},
		{`{"sampling":{"tools":1},"elicitation":{"form":{}}}`, false},
		{`{"experimental":[],"elicitation":{"form":{}}}`, false},
		{`{"extensions":5,"elicitation":{"form":{}}}`, false},
		{`null`, false},
		{`"form"`, false},
	} {
		var meta map[string]any
		if err := json.Unmarshal([]byte(`{"`+mcp.MetaKeyClientCapabilities+`":`+c.caps+`}`), &meta); err != nil {
			t.Fatal(err)
		}
		got, ok := metaCapabilities(meta)
		if ok != c.answers {
			t.Errorf("%s: answers %v, want %v", c.caps, ok, c.answers)
		}
		if want := sdkCapabilities(meta); ok && got != want {
			t.Errorf("%s: %+v, the SDK's %+v", c.caps, got, want)
		}
	}
	if _, ok := metaCapabilities(nil); ok {
		t.Error("no _meta: answered")
	}
}
