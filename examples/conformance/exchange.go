package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The fixtures that ask for sampling/createMessage and roots/list answers
// (and mix them with a form) are hand-written on runtime.Exchange: the
// runtime seals and checks their requestState and only sends what the
// client declared; these handlers only decide what to ask.

func addExchangeFixtures(s *mcp.Server, opts *mcpsdk.Options) {
	mcpsdk.AddExchangeTool(s, &mcp.Tool{
		Name:        "test_input_required_result_sampling",
		Description: "MRTR (SEP-2322): asks the client's model a question with an in-band sampling request",
	}, opts, samplingFixture)
	mcpsdk.AddExchangeTool(s, &mcp.Tool{
		Name:        "test_input_required_result_list_roots",
		Description: "MRTR (SEP-2322): asks for the client's roots with an in-band roots/list request",
	}, opts, listRootsFixture)
	mcpsdk.AddExchangeTool(s, &mcp.Tool{
		Name:        "test_input_required_result_multiple_inputs",
		Description: "MRTR (SEP-2322): asks for a form, a sampling answer and the roots in one round",
	}, opts, multipleInputsFixture)
	mcpsdk.AddExchangeTool(s, &mcp.Tool{
		Name:        "test_input_required_result_capabilities",
		Description: "MRTR (SEP-2322): asks only for the kinds of input the request's declared client capabilities cover",
	}, opts, capabilitiesFixture)
}

func done(format string, args ...any) (*runtime.Response, error) {
	return &runtime.Response{Result: runtime.Textf(format, args...)}, nil
}

func question(text string, maxTokens int64) *protocol.SamplingRequest {
	return &protocol.SamplingRequest{
		Messages:  []protocol.SamplingMessage{{Role: "user", Text: text}},
		MaxTokens: maxTokens,
	}
}

func nameForm() *protocol.ElicitRequest {
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	s.Properties.Set("name", &jsonschema.Schema{Type: "string", Title: "Name", MaxLength: new(uint64(100))})
	s.Required = []string{"name"}
	return &protocol.ElicitRequest{Mode: "form", Message: "What is your name?", RequestedSchema: s}
}

func rootURIs(r *protocol.RootsResult) string {
	uris := make([]string, 0, len(r.Roots))
	for _, root := range r.Roots {
		uris = append(uris, root.URI)
	}
	return strings.Join(uris, ", ")
}

func samplingFixture(_ context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	if ans, ok := x.Sampling("capital_question"); ok {
		return done("Sampling response: %s", ans.Text)
	}
	return x.InputRequired(map[string]protocol.InputRequest{
		"capital_question": question("What is the capital of France?", 100),
	}, nil)
}

func listRootsFixture(_ context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	if ans, ok := x.Roots("client_roots"); ok {
		return done("%d root(s): %s", len(ans.Roots), rootURIs(ans))
	}
	return x.InputRequired(map[string]protocol.InputRequest{"client_roots": &protocol.RootsRequest{}}, nil)
}

// gathered is what multipleInputsFixture carries from round to round, so
// that a retry answering only some requests is asked only for the rest.
type gathered struct {
	Name     *string `json:"n,omitempty"`
	Greeting *string `json:"g,omitempty"`
	Roots    *string `json:"r,omitempty"`
}

func multipleInputsFixture(_ context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	var g gathered
	if _, err := x.Carried(&g); err != nil {
		return nil, err
	}
	if ans, ok := x.Elicitation("user_name"); ok {
		if ans.Action != protocol.Accept {
			return done("Nothing done: the user chose %s for the name form.", ans.Action)
		}
		if name, _ := ans.Content["name"].(string); name != "" {
			g.Name = &name
		}
	}
	if ans, ok := x.Sampling("greeting"); ok {
		g.Greeting = &ans.Text
	}
	if ans, ok := x.Roots("client_roots"); ok {
		uris := rootURIs(ans)
		g.Roots = &uris
	}
	ask := map[string]protocol.InputRequest{}
	if g.Name == nil {
		ask["user_name"] = nameForm()
	}
	if g.Greeting == nil {
		ask["greeting"] = question("Generate a greeting", 50)
	}
	if g.Roots == nil {
		ask["client_roots"] = &protocol.RootsRequest{}
	}
	if len(ask) > 0 {
		return x.InputRequired(ask, g)
	}
	return done("%s %s (roots: %s)", *g.Greeting, *g.Name, *g.Roots)
}

func capabilitiesFixture(ctx context.Context, x *runtime.Exchange) (*runtime.Response, error) {
	var got []string
	if ans, ok := x.Elicitation("user_name"); ok {
		got = append(got, fmt.Sprintf("form: %s %v", ans.Action, ans.Content))
	}
	if ans, ok := x.Sampling("greeting"); ok {
		got = append(got, "sampling: "+ans.Text)
	}
	if ans, ok := x.Roots("client_roots"); ok {
		got = append(got, "roots: "+rootURIs(ans))
	}
	if len(got) > 0 {
		return done("Answered: %s", strings.Join(got, "; "))
	}
	ask := runtime.ClientOf(ctx).Filter(map[string]protocol.InputRequest{
		"user_name":    nameForm(),
		"greeting":     question("Generate a short greeting", 50),
		"client_roots": &protocol.RootsRequest{},
	})
	if len(ask) == 0 {
		return &runtime.Response{Result: runtime.ToolError(
			"this tool needs the client to declare elicitation, sampling or roots")}, nil
	}
	return x.InputRequired(ask, nil)
}
