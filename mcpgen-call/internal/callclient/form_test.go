package callclient

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The form is the first screen: keys typed into it answer it. Enter on the
// last field accepts with the content typed, Ctrl-D declines, Esc cancels;
// no menu comes before the fields.
func TestFormKeys(t *testing.T) {
	four := 4
	fields := []field{{Name: "code", Title: "Code", Kind: "string", Required: true, MinLength: &four}}
	for _, tc := range []struct {
		name, keys string
		action     string
		content    map[string]any
	}{
		{"accept", "2026\r", "accept", map[string]any{"code": "2026"}},
		{"too short, then accept", "abc\r" + "d\r", "accept", map[string]any{"code": "abcd"}},
		{"decline", "ab\x04", "decline", nil},
		{"cancel", "\x1b", "cancel", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, keys := io.Pipe()
			go func() { _, _ = io.WriteString(keys, tc.keys) }()
			defer keys.Close()
			res, err := runForm(context.Background(), in, io.Discard, "Which code?", fields, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.action, res.Action)
			assert.Equal(t, tc.content, res.Content)
		})
	}
}
