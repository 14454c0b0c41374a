package main

import (
	"bytes"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime"
)

// The demo narrates each step in plain sentences, with the form's schema
// once and the state shortened; -wire adds the full JSON. The server's logs
// hold one line per request and no answer value or state.
func TestDemoNarratesAndLogsNoAnswersOrState(t *testing.T) {
	t.Parallel()
	var out, logs bytes.Buffer
	require.NoError(t, demo(&out, runtime.EphemeralKeyRing(), false, slog.New(slog.NewTextHandler(&logs, nil))))
	text := out.String()
	for _, want := range []string{
		"instead of a result it returns an input-required result",
		"any instance holding the same key can finish the call",
		"the same form as in call 1",
		`result: "Booked 2 passengers from CDG to JFK on 2026-12-24 (morning)."`,
	} {
		assert.Contains(t, text, want)
	}
	assert.Equal(t, 1, strings.Count(text, `"required":["date"]`), "the schema is printed once")
	form := regexp.MustCompile(`form (\{.*\}),`).FindStringSubmatch(text)
	require.NotNil(t, form, "the form is printed")
	assert.Regexp(t, `^\{"properties":\{"date":.*\},"window":.*\},"passengers":`, form[1],
		"the form's properties in the struct's field order (date, window, passengers), as sent")
	assert.NotContains(t, text, `"jsonrpc"`, "no raw JSON-RPC without -wire")

	states := regexp.MustCompile(`requestState=(\S+)…`).FindAllStringSubmatch(text, -1)
	require.NotEmpty(t, states)
	log := logs.String()
	assert.Equal(t, 6, strings.Count(log, `msg="mcpgen round"`), "one line per request")
	for _, leak := range []string{"2026-12-24", "morning", "passengers", "CDG", "JFK"} {
		assert.NotContains(t, log, leak, "an answer or argument value in the logs")
	}
	for _, s := range states {
		assert.NotContains(t, log, s[1], "the state in the logs")
	}

	out.Reset()
	require.NoError(t, demo(&out, runtime.EphemeralKeyRing(), true, quiet))
	assert.Contains(t, out.String(), `"jsonrpc": "2.0"`, "-wire prints the full JSON")
	assert.Contains(t, out.String(), `"requestState": "`)
}
