package realclients

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	mgclient "github.com/mark3labs/mcp-go/client"
	mgtransport "github.com/mark3labs/mcp-go/client/transport"
	mg "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// go-sdk's client (v1.8.0) and mcp-go's (v1.2.1), each pinned to 2025-11-25
// and to 2025-06-18, over Streamable HTTP (a session) and over stdio, drive
// every scenario: each question of a call is an elicitation/create on that
// open tools/call, answered by the client's elicitation handler.

// versions are the protocol versions the clients are pinned to.
var versions = []string{"2025-11-25", "2025-06-18"}

// caller opens a connection to an example and makes one tools/call on it.
type caller func(t *testing.T, version string, target target, tool string, args map[string]any, ask func(question) answer) (string, bool, error)

// target is where a client connects: an HTTP endpoint with a bearer token
// ("": none), or a stdio command. urlMode declares URL-mode elicitation
// besides forms.
type target struct {
	url, token string
	command    string
	urlMode    bool
}

func (tg target) String() string {
	if tg.command != "" {
		return "stdio"
	}
	return "http"
}

// bearer adds a bearer token to every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func goSDKCall(t *testing.T, version string, tg target, tool string, args map[string]any, ask func(question) answer) (string, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			q := question{Message: r.Params.Message, Mode: r.Params.Mode, URL: r.Params.URL}
			if err := remarshal(r.Params.RequestedSchema, &q.Schema); err != nil {
				return nil, err
			}
			a := ask(q)
			return &mcp.ElicitResult{Action: a.Action, Content: a.Content}, nil
		},
	}
	if tg.urlMode {
		opts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "realclients-go-sdk", Version: "1"}, opts)
	var tr mcp.Transport
	if tg.command != "" {
		tr = &mcp.CommandTransport{Command: exec.Command(tg.command, "-stdio")}
	} else {
		ht := &mcp.StreamableClientTransport{Endpoint: tg.url}
		if tg.token != "" {
			ht.HTTPClient = &http.Client{Transport: bearer(tg.token)}
		}
		tr = ht
	}
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return "", false, err
	}
	defer cs.Close()
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion, "negotiated")
	if tg.command == "" {
		require.NotEmpty(t, cs.ID(), "a Streamable HTTP session")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", false, err
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError, nil
}

// mcpGoAsker is mcp-go's elicitation handler.
type mcpGoAsker func(question) answer

func (f mcpGoAsker) Elicit(_ context.Context, r mg.ElicitationRequest) (*mg.ElicitationResult, error) {
	q := question{Message: r.Params.Message, Mode: r.Params.Mode, URL: r.Params.URL}
	if err := remarshal(r.Params.RequestedSchema, &q.Schema); err != nil {
		return nil, err
	}
	a := f(q)
	res := &mg.ElicitationResult{}
	res.Action = mg.ElicitationResponseAction(a.Action)
	if a.Content != nil {
		res.Content = a.Content
	}
	return res, nil
}

func mcpGoCall(t *testing.T, version string, tg target, tool string, args map[string]any, ask func(question) answer) (string, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var tr mgtransport.Interface
	if tg.command != "" {
		tr = mgtransport.NewStdio(tg.command, nil, "-stdio")
	} else {
		var opts []mgtransport.StreamableHTTPCOption
		if tg.token != "" {
			opts = append(opts, mgtransport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tg.token}))
		}
		ht, err := mgtransport.NewStreamableHTTP(tg.url, opts...)
		if err != nil {
			return "", false, err
		}
		tr = ht
	}
	c := mgclient.NewClient(tr, mgclient.WithElicitationHandler(mcpGoAsker(ask)), mgclient.WithProtocolVersion(version))
	if err := c.Start(ctx); err != nil {
		return "", false, err
	}
	defer c.Close()
	init := mg.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mg.Implementation{Name: "realclients-mcp-go", Version: "1"}
	init.Params.Capabilities.Elicitation = &mg.ElicitationCapability{}
	if tg.urlMode {
		init.Params.Capabilities.Elicitation = &mg.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
	}
	ir, err := c.Initialize(ctx, init)
	if err != nil {
		return "", false, err
	}
	require.Equal(t, version, ir.ProtocolVersion, "negotiated")
	if tg.command == "" {
		require.NotEmpty(t, c.GetSessionId(), "a Streamable HTTP session")
	}
	req := mg.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", false, err
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mg.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError, nil
}

// remarshal copies v into out through JSON.
func remarshal(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// TestGoClients drives every scenario with both Go clients, both versions,
// over HTTP (deploy and billing as alice, with her bearer token) and stdio
// (where the examples run as alice).
func TestGoClients(t *testing.T) {
	clients := []struct {
		name string
		call caller
	}{{"go-sdk", goSDKCall}, {"mcp-go", mcpGoCall}}
	servers := map[string]*server{}
	for _, sc := range scenarios {
		if servers[sc.example] == nil {
			servers[sc.example] = serveHTTP(t, sc.example)
		}
	}
	for _, cl := range clients {
		for _, version := range versions {
			for _, sc := range scenarios {
				for _, tg := range []target{
					{url: servers[sc.example].url, token: "alice-token"},
					{command: binary(t, sc.example)},
				} {
					t.Run(fmt.Sprintf("%s/%s/%s/%s", cl.name, version, tg, sc.name), func(t *testing.T) {
						sc.run(t, func(ask func(question) answer) (string, bool, error) {
							return cl.call(t, version, tg, sc.tool, sc.args, ask)
						})
					})
				}
			}
		}
	}
}

// On 2025-06-18 the forms are downgraded to what that version knows: the
// titled selects of bookflight's window and billing's accounts become enum
// + enumNames; on 2025-11-25 they stay oneOf of const and title.
func TestGoClientsSeeTheirVersionsSchema(t *testing.T) {
	s := serveHTTP(t, "billing")
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			var account map[string]any
			_, _, err := goSDKCall(t, version, target{url: s.url, token: "alice-token"}, "pay_invoice",
				map[string]any{"invoice": "INV-8", "amount": 1}, func(q question) answer {
					account = q.prop("account")
					return answer{Action: "cancel"}
				})
			require.NoError(t, err)
			require.NotNil(t, account)
			if version == "2025-06-18" {
				assert.Equal(t, []any{"chk-001", "sav-002", "crd-003"}, account["enum"])
				assert.Len(t, account["enumNames"], 3)
				assert.NotContains(t, account, "oneOf")
			} else {
				assert.Len(t, account["oneOf"], 3)
				assert.NotContains(t, account, "enum")
			}
		})
	}
}
