package impl

import (
	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/internal/urlmode"
)

// RegisterURLQuestion records q's type, a struct with the directive
// //mcpgen:question url, as a URL-mode question (MCP 2026-07-28,
// client/elicitation, "URL Mode Elicitation Requests"): runtime.Ask then asks
// it through the server's own page (package runtime/page), and that page
// shows form, the HTML of the question's fields that mcpgen wrote from its
// elicit tags (escaped), and validates what it receives with q's generated
// ApplyContent. Generated code calls it from an init function; q is a nil
// pointer of the type, e.g. (*APIKey)(nil). It panics when a type is
// registered twice.
func RegisterURLQuestion(q engine.Args, form string) {
	urlmode.Register(q, form)
}
