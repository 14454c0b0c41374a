package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/devauth"
)

const greetTool = `package main

// GreetArgs are the arguments of the greet tool.
//
//mcpgen:tool greet Greet someone by name.
type GreetArgs struct {
	Name string ` + "`" + `json:"name" elicit:"title=Your name"` + "`" + `
}
`

// mcpgen init in a fresh module with one tagged struct writes a main.go
// that builds as written, serves over HTTP with the development tokens, and
// runs the tool: go-sdk's client answers the form and gets the skeleton's
// result. A second init refuses to overwrite it.
func TestInitServes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	dir := newModule(t, map[string]string{"greet.go": greetTool})
	code, _, stderr := mcpgen(t, "init", "-v")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "mcpgen: wrote main.go\n", stderr)
	main, err := os.ReadFile(filepath.Join(dir, "main.go"))
	require.NoError(t, err)
	assert.Contains(t, string(main), "mcpsdk.AddTools(s, Flows(Handlers{}), opts)")

	code, _, stderr = mcpgen(t, "init")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, filepath.Join(dir, "main.go")+": exists; mcpgen init never overwrites a file")

	code, _, stderr = mcpgen(t) // the tool's generated files, after init as before it
	require.Equal(t, 0, code, stderr)
	bin := filepath.Join(t.TempDir(), "greet")
	if out, err := commandIn(t, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build of the main mcpgen init wrote: %v\n%s", err, out)
	}

	// A non-loopback address is refused before anything is served.
	out, err := exec.Command(bin, "-http", "0.0.0.0:0").CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), `refusing to serve development bearer tokens`)
	assert.Contains(t, string(out), devauth.EnvAnyAddr+"=1")

	srv := exec.Command(bin, "-http", "127.0.0.1:0")
	srv.Env = append(os.Environ(), "MCPGEN_STATE_KEYS=", "MCPGEN_REDIS_URL=")
	logs, err := srv.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, srv.Start())
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	lines := bufio.NewScanner(logs)
	var url, seen string
	for url == "" && lines.Scan() {
		seen += lines.Text() + "\n"
		if m := regexp.MustCompile(`url=(http://\S+/mcp)`).FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	require.NotEmpty(t, url, "no url logged:\n%s", seen)
	assert.Contains(t, seen, "MCPGEN_STATE_KEYS is not set", "the multi-instance warning")
	rest := make(chan string)
	go func() {
		var b strings.Builder
		for lines.Scan() {
			b.WriteString(lines.Text() + "\n")
		}
		rest <- b.String()
	}()

	var asked []string
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, r.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: devauth.Client("alice-token")}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	assert.Equal(t, `greet: done with {"name":"Ada"}`, res.Content[0].(*mcp.TextContent).Text)
	assert.Len(t, asked, 1)

	_, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: devauth.Client("mallory-token")}, nil)
	assert.Error(t, err, "an unknown token is refused")

	// SIGINT after the client has gone: a graceful shutdown, exit status 0.
	cs.Close()
	require.NoError(t, srv.Process.Signal(os.Interrupt))
	logged := <-rest
	assert.NoError(t, srv.Wait(), logged)
	assert.Regexp(t, `msg="mcpgen round".*tool=greet`, logged, "the round log, through runtime.Options.Logger")
}

// What mcpgen init refuses, each naming the file or package at fault.
func TestInitRefuses(t *testing.T) {
	t.Parallel()
	dir := newModule(t, map[string]string{
		"greet.go":     greetTool,
		"lib/lib.go":   strings.Replace(greetTool, "package main", "package lib", 1),
		"own/own.go":   greetTool + "\nfunc main() {}\n",
		"none/none.go": "package main\n\ntype T struct{ A int }\n",
		"bad/bad.go":   strings.Replace(greetTool, "title=Your name", "titel=x", 1),
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-pkg", "lib"}, "package lib is not package main"},
		{[]string{"-pkg", "own"}, filepath.Join(dir, "own", "own.go") + ":10:1: the package already declares func main"},
		{[]string{"-pkg", "none"}, "no tool: mark a struct //mcpgen:tool"},
		{[]string{"-o", "lib/main.go"}, "not in " + dir},
		{[]string{"-pkg", "bad"}, `bad/bad.go:7:`},
		{[]string{"-pkg", "nowhere"}, "mcpgen init: -pkg nowhere: no such directory"},
		{[]string{"-pkg", "lib/lib.go"}, "mcpgen init: -pkg lib/lib.go: no such directory"},
	} {
		code, _, stderr := mcpgen(t, append([]string{"init"}, c.args...)...)
		assert.Equal(t, 1, code, c.args)
		assert.Contains(t, stderr, c.want, c.args)
	}
	code, _, stderr := mcpgen(t, "init", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unexpected argument "extra"`)
	for _, d := range []string{".", "lib", "own", "none", "bad"} {
		assert.NoFileExists(t, filepath.Join(dir, d, "main.go"))
	}
}
