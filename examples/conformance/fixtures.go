//lint:file-ignore SA1019 the suite's server-stateless scenario checks that logging (deprecated by SEP-2577) is dropped without a logLevel.

package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The suite's plain fixtures (tools-*, resources-*, prompts-*,
// completion-complete and the diagnostic tools of server-stateless), written
// directly on go-sdk as in its conformance/everything-server: none of them
// asks the user anything, so mcpgen has no part in them.

// A 1×1 PNG and a silent WAV, as in the suite's own example server.
const (
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	pngData = mustDecode(pngBase64)
	wavData = mustDecode(wavBase64)
)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// static adds a tool without arguments that returns res.
func static(s *mcp.Server, name, description string, res func() *mcp.CallToolResult) {
	mcp.AddTool(s, &mcp.Tool{Name: name, Description: description},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			return res(), nil, nil
		})
}

func addPlainTools(s *mcp.Server) {
	static(s, "test_simple_text", "Returns one text item", func() *mcp.CallToolResult {
		return text("This is a simple text response for testing.")
	})
	static(s, "test_image_content", "Returns one PNG image", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: pngData, MIMEType: "image/png"}}}
	})
	static(s, "test_audio_content", "Returns one WAV clip", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wavData, MIMEType: "audio/wav"}}}
	})
	static(s, "test_embedded_resource", "Returns an embedded text resource", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
			URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}}}}
	})
	static(s, "test_multiple_content_types", "Returns text, an image and a resource", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "Multiple content types test:"},
			&mcp.ImageContent{Data: pngData, MIMEType: "image/png"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}},
		}}
	})
	static(s, "test_error_handling", "Always returns a tool error result", func() *mcp.CallToolResult {
		r := text("This tool intentionally returns an error for testing")
		r.IsError = true
		return r
	})
	static(s, "test_streaming_elicitation", "Returns a plain result; its response stream carries no server requests (SEP-2575)", func() *mcp.CallToolResult {
		return text("result frames only, no requests on the response stream")
	})
	mcp.AddTool(s, &mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			token := req.Params.GetProgressToken()
			for _, p := range []float64{0, 50, 100} {
				if token != nil {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: p, Total: 100, Message: fmt.Sprintf("step %.0f of 100", p)})
				}
				time.Sleep(50 * time.Millisecond)
			}
			return text(fmt.Sprint(token)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_logging_tool", Description: "Tries to log; the SDK drops it unless the request set a logLevel (SEP-2575)"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "test_logging_tool ran"})
			return text("log attempted"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_missing_capability", Description: "Needs the sampling client capability; without it fails with -32021 (SEP-2575)"},
		func(_ context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			if caps := req.ClientCapabilities(); caps != nil && caps.Sampling != nil {
				return text("the client declared sampling"), nil, nil
			}
			data, err := json.Marshal(mcp.MissingRequiredClientCapabilityData{
				RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
			if err != nil {
				return nil, nil, err
			}
			return nil, nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
				Message: "this tool needs the sampling capability", Data: data}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_trigger_tool_change", Description: "Changes the tool list (notifications/tools/list_changed)"},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			static(s, "transient_tool", "Added by test_trigger_tool_change", func() *mcp.CallToolResult { return text("transient") })
			return text("tools/list changed"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_trigger_prompt_change", Description: "Changes the prompt list (notifications/prompts/list_changed)"},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			s.AddPrompt(&mcp.Prompt{Name: "transient_prompt", Description: "Added by test_trigger_prompt_change"},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "transient"}}}}, nil
				})
			return text("prompts/list changed"), nil, nil
		})
	// Not scored at 2026-07-28 (pending): a 2020-12 schema that must survive
	// tools/list verbatim, and an x-mcp-header argument (SEP-2243).
	mcp.AddTool(s, &mcp.Tool{Name: "json_schema_2020_12_tool", Description: "Tool whose input schema uses JSON Schema 2020-12 features",
		InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
			"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},
			"phone":{"type":"string"},"email":{"type":"string"}},
			"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
			"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},
			"additionalProperties":false}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in json.RawMessage) (*mcp.CallToolResult, any, error) {
			return text("called with " + string(in)), nil, nil
		})
	type headerArgs struct {
		Region string `json:"region,omitempty"`
		Level  int    `json:"level,omitempty"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "test_x_mcp_header", Description: "Has an argument mirrored into the Mcp-Param-Region header (SEP-2243)",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"level":{"type":"integer"}}}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in headerArgs) (*mcp.CallToolResult, any, error) {
			return text("region=" + in.Region), nil, nil
		})
}

var templateID = regexp.MustCompile(`^test://template/([^/]+)/data$`)

func addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{Name: "static-text", Description: "A static text resource", MIMEType: "text/plain", URI: "test://static-text"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: req.Params.URI, MIMEType: "text/plain", Text: "This is the content of the static text resource."}}}, nil
		})
	s.AddResource(&mcp.Resource{Name: "static-binary", Description: "A static PNG image", MIMEType: "image/png", URI: "test://static-binary"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: pngData}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "template", Description: "Data by id", MIMEType: "application/json",
		URITemplate: "test://template/{id}/data"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			m := templateID.FindStringSubmatch(req.Params.URI)
			if m == nil {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			body, err := json.Marshal(map[string]any{"id": m[1], "templateTest": true, "data": "Data for ID: " + m[1]})
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(body)}}}, nil
		})
}

func prompt(s *mcp.Server, p *mcp.Prompt, messages func(args map[string]string) []*mcp.PromptMessage) {
	s.AddPrompt(p, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		for _, a := range p.Arguments {
			if a.Required && req.Params.Arguments[a.Name] == "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing argument " + a.Name}
			}
		}
		return &mcp.GetPromptResult{Description: p.Description, Messages: messages(req.Params.Arguments)}, nil
	})
}

func addPrompts(s *mcp.Server) {
	prompt(s, &mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments"},
		func(map[string]string) []*mcp.PromptMessage {
			return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "This is a simple prompt for testing."}}}
		})
	prompt(s, &mcp.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with two arguments",
		Arguments: []*mcp.PromptArgument{
			{Name: "arg1", Description: "First argument", Required: true},
			{Name: "arg2", Description: "Second argument", Required: true},
		}},
		func(a map[string]string) []*mcp.PromptMessage {
			return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{
				Text: fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"])}}}
		})
	prompt(s, &mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt embedding a resource",
		Arguments: []*mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		func(a map[string]string) []*mcp.PromptMessage {
			return []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: a["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing."}}},
				{Role: "user", Content: &mcp.TextContent{Text: "Please process the embedded resource above."}},
			}
		})
	prompt(s, &mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image"},
		func(map[string]string) []*mcp.PromptMessage {
			return []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.ImageContent{Data: pngData, MIMEType: "image/png"}},
				{Role: "user", Content: &mcp.TextContent{Text: "Please analyze the image above."}},
			}
		})
}

// complete answers completion/complete with no suggestions: the suite only
// checks the shape.
func complete(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, nil
}
