package golden

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/everykind"
	"github.com/mcpgen/mcpgen/runtime"
)

// An accepted answer's content is matched to the fields by exact JSON name:
// a key that differs from a field's name only in case fills nothing (the
// required field stays missing), an unknown key is ignored, and a null under
// a field's own name is a type error for that field.
func TestContentKeysAreExact(t *testing.T) {
	exact := map[string]any{
		"name": "Ada Lovelace", "email": "ada@example.com", "arrival": "2026-07-28T09:30:00Z",
		"guests": float64(2), "newsletter": true, "ticket": "speaker", "tracks": []any{"go"},
	}
	for _, variant := range []func(string) string{strings.ToUpper, func(k string) string { return strings.ToUpper(k[:1]) + k[1:] }} {
		content := map[string]any{"unknown": "x"}
		for k, v := range exact {
			content[variant(k)] = v
		}
		var a everykind.Registration
		err := a.ApplyContent(content)
		var ve *runtime.ValidationError
		require.ErrorAs(t, err, &ve)
		for k := range exact {
			assert.True(t, ve.Has(k), "%s: no error for %q, answered only as %q", err, k, variant(k))
		}
		assert.Equal(t, everykind.Registration{}, a, "ApplyContent set fields from keys that differ in case")
		require.Error(t, a.ApplyPartial(content))
		assert.Equal(t, everykind.Registration{}, a, "ApplyPartial set fields from keys that differ in case")
	}

	content := map[string]any{"Unknown": 1}
	for k, v := range exact {
		content[k] = v
	}
	var a everykind.Registration
	require.NoError(t, a.ApplyContent(content))
	assert.Equal(t, "Ada Lovelace", a.Name)
	require.NotNil(t, a.Guests)
	assert.Equal(t, 2, *a.Guests)

	content["email"] = nil
	var b everykind.Registration
	err := b.ApplyContent(content)
	var ve *runtime.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, []string{"email"}, ve.Fields())
}
