package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTSClientAcceptsSchemas hands every golden struct's requestedSchema (all
// fields, each field alone, and the subsets of TestRequestedSchemaGrammar) to
// the official TypeScript client's own check of an elicitation/create
// request (golden/tsclient/check.mjs), which must accept each one and keep
// every keyword. It runs when MCPGEN_TSCLIENT names a folder where
// @modelcontextprotocol/client and core 2.4.0 are installed:
// golden/tsclient/run does that, and .ci/run runs it.
func TestTSClientAcceptsSchemas(t *testing.T) {
	dir := os.Getenv("MCPGEN_TSCLIENT")
	if dir == "" {
		t.Skip("MCPGEN_TSCLIENT is not set; golden/tsclient/run installs the TypeScript client and runs this test")
	}
	script, err := os.ReadFile(filepath.Join("tsclient", "check.mjs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "check.mjs"), script, 0o644))

	type entry struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
	}
	var entries []entry
	for _, gs := range goldenStructs() {
		args := gs.Def.New()
		for _, sub := range subsets(gs.Def.Fields) {
			if len(sub) == 0 {
				continue
			}
			entries = append(entries, entry{gs.Case + "." + gs.Name + mustJSON(t, sub), json.RawMessage(mustJSON(t, args.RequestedSchema(sub...)))})
		}
	}
	// Controls: what the grammar leaves out must fail, or passing means nothing.
	bad := map[string]string{
		"bad: null union": `{"type":"object","properties":{"a":{"type":["null","string"]}}}`,
		"bad: pattern":    `{"type":"object","properties":{"a":{"type":"string","pattern":"x"}}}`,
		"bad: nested":     `{"type":"object","properties":{"a":{"type":"object","properties":{}}}}`,
		"bad: no type":    `{"type":"object","properties":{"a":{"oneOf":[{"const":"x","title":"X"}]}}}`,
	}
	for name, doc := range bad {
		entries = append(entries, entry{name, json.RawMessage(doc)})
	}
	cmd := exec.Command("node", filepath.Join(dir, "check.mjs"))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader([]byte(mustJSON(t, entries)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	var results []struct {
		Name  string `json:"name"`
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal(out, &results))
	require.Len(t, results, len(entries))
	for _, r := range results {
		if _, isBad := bad[r.Name]; isBad {
			require.False(t, r.OK, "the TypeScript client accepted %s", r.Name)
			continue
		}
		require.True(t, r.OK, "the TypeScript client refused %s: %s", r.Name, r.Error)
	}
	t.Logf("%d schemas accepted by @modelcontextprotocol/client 2.4.0's request check", len(results)-len(bad))
}
