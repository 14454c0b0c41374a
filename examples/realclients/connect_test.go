package realclients

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/examples/internal/browsertest"
)

// The development keys of examples/connect's contacts service: alice's, and
// one shaped like a key that no account has.
const (
	alicesKey  = "ck-alice-123"
	unknownKey = "ck-alice-999"
)

// enterKey plays alice in Chromium on a URL-mode page: opens link, signs in
// on the development sign-in page when asked (it comes back to the link),
// enters key and submits; a screenshot of each page is kept.
func enterKey(t *testing.T, p *browsertest.Page, link, key string) {
	t.Helper()
	require.Equal(t, http.StatusOK, p.Open(link))
	if p.Has(`input[name="username"]`) {
		p.Screenshot("sign-in")
		p.Fill("username", "alice")
		p.Fill("password", "alice-password")
		require.Equal(t, http.StatusOK, p.Submit())
	}
	require.Equal(t, link, p.Location(), "back on the page after signing in")
	require.True(t, p.Has(`input[name="api_key"]`), "the key's form")
	p.Screenshot("key-form")
	p.Fill("api_key", key)
	require.Equal(t, http.StatusOK, p.Submit())
	assert.Equal(t, "Received", p.Heading())
	p.Screenshot("received")
}

// TestTSSDKConnect runs tssdk.mjs's connect scenario: the TypeScript SDK
// (@modelcontextprotocol/sdk 1.32.2, a 2025-11-25 session) calls
// import_contacts as alice; the key is asked in URL mode, and this test
// completes each page it prints in Chromium: a key no account has first
// (refused, and asked again on a new page with the reason), then alice's.
// The call must end with her contacts imported, the key never seen by the
// client. It runs when MCPGEN_TSSDK names the folder where the SDK is
// installed (run-tssdk does that).
func TestTSSDKConnect(t *testing.T) {
	dir := os.Getenv("MCPGEN_TSSDK")
	if dir == "" {
		t.Skip("MCPGEN_TSSDK is not set; examples/realclients/run-tssdk installs the TypeScript SDK and runs this test")
	}
	b := browsertest.Start(t)
	script, err := os.ReadFile("tssdk.mjs")
	require.NoError(t, err)
	// Node resolves imports next to the script: run a copy inside dir.
	run := filepath.Join(dir, "mcpgen-tssdk.mjs")
	require.NoError(t, os.WriteFile(run, script, 0o644))
	s := serveHTTP(t, "connect")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", run, "http", s.url, "alice-token", "--", "connect")
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	var out []string
	keys := []string{unknownKey, alicesKey}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		out = append(out, line)
		if link, ok := strings.CutPrefix(line, "url "); ok {
			require.NotEmpty(t, keys, "asked more pages than the test has keys: %s", strings.Join(out, "\n"))
			enterKey(t, b.NewPage(), link, keys[0])
			keys = keys[1:]
		}
	}
	err = cmd.Wait()
	all := strings.Join(out, "\n")
	require.NoError(t, err, "node: %s\n%s", all, stderr.String())
	assert.Empty(t, keys, "pages asked")
	assert.Contains(t, all, "tssdk connect: protocol 2025-11-25, session ")
	assert.Contains(t, out, "tssdk: ok, 1 scenarios")
	assert.Regexp(t, `(?m)^tssdk connect: protocol 2025-11-25, session [^:]+: Imported 3 contacts for alice\.$`, all)
	assert.NotContains(t, all+stderr.String(), alicesKey, "the client never saw the key")
	assert.NotContains(t, s.log.String(), alicesKey)
}

// TestGoClientsConnect: go-sdk's and mcp-go's clients on 2025-11-25 (URL
// mode came with that version), declaring URL-mode elicitation, call
// import_contacts as alice over Streamable HTTP. Each URL-mode request's
// page is completed by the test in headless Chromium before the client's
// handler accepts (as a person clicks "done" after the page): a key no
// account has first, asked again on a new page with the reason, then
// alice's key. Each client gets a fresh server, which keeps the key once
// entered.
func TestGoClientsConnect(t *testing.T) {
	for _, cl := range []struct {
		name string
		call caller
	}{{"go-sdk", goSDKCall}, {"mcp-go", mcpGoCall}} {
		t.Run(cl.name, func(t *testing.T) {
			b := browsertest.Start(t)
			s := serveHTTP(t, "connect")
			pages := make(chan string)
			done := make(chan struct{})
			type out struct {
				text    string
				isError bool
				err     error
				asked   []question
			}
			result := make(chan out, 1)
			go func() {
				var asked []question
				text, isError, err := cl.call(t, "2025-11-25", target{url: s.url, token: "alice-token", urlMode: true},
					"import_contacts", map[string]any{}, func(q question) answer {
						asked = append(asked, q)
						if q.Mode != "url" || q.URL == "" {
							return answer{Action: "cancel"}
						}
						pages <- q.URL
						<-done
						return answer{Action: "accept"}
					})
				result <- out{text, isError, err, asked}
			}()
			keys := []string{unknownKey, alicesKey}
			var o out
		loop:
			for {
				select {
				case link := <-pages:
					require.NotEmpty(t, keys, "asked more pages than the test has keys")
					enterKey(t, b.NewPage(), link, keys[0])
					keys = keys[1:]
					done <- struct{}{}
				case o = <-result:
					break loop
				case <-time.After(time.Minute):
					t.Fatal("import_contacts did not return")
				}
			}
			require.NoError(t, o.err)
			require.False(t, o.isError, o.text)
			assert.Equal(t, "Imported 3 contacts for alice.", o.text)
			assert.Empty(t, keys, "pages asked")
			require.Len(t, o.asked, 2)
			assert.Contains(t, o.asked[1].Message, "no account has this key")
			assert.NotEqual(t, o.asked[0].URL, o.asked[1].URL, "a new page")
			assert.NotContains(t, s.log.String(), alicesKey)
		})
	}
}
