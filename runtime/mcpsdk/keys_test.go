package mcpsdk_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// TestRegistrationWithoutKeysPanics: every registration seals state, so each
// refuses options without a key ring at once, naming itself and what it
// registers, rather than failing on the first call.
func TestRegistrationWithoutKeysPanics(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	for _, opts := range []*mcpsdk.Options{nil, {}} {
		for want, register := range map[string]func(){
			`mcpsdk.AddTool "topic": Options.Flow.Keys is required`:   func() { mcpsdk.AddTool(s, topicFlow(), opts) },
			`mcpsdk.AddPrompt "topic": Options.Flow.Keys is required`: func() { mcpsdk.AddPrompt(s, topicFlow(), opts) },
			`mcpsdk.AddExchangeTool "capital": Options.Flow.Keys is required`: func() {
				mcpsdk.AddExchangeTool(s, &mcp.Tool{Name: "capital"}, opts, capitalTool)
			},
			`mcpsdk.AddExchangePrompt "p": Options.Flow.Keys is required`: func() {
				mcpsdk.AddExchangePrompt(s, &mcp.Prompt{Name: "p"}, opts, capitalTool)
			},
			`mcpsdk.AddExchangeResource "test://r": Options.Flow.Keys is required`: func() {
				mcpsdk.AddExchangeResource(s, &mcp.Resource{URI: "test://r"}, opts, confirmRead)
			},
			`mcpsdk.AddExchangeResourceTemplate "test://doc/{id}": Options.Flow.Keys is required`: func() {
				mcpsdk.AddExchangeResourceTemplate(s, &mcp.ResourceTemplate{URITemplate: "test://doc/{id}"}, opts, confirmRead)
			},
		} {
			assert.PanicsWithValue(t, want, register)
		}
	}
}
