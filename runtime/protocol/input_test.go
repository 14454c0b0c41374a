package protocol

import (
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
)

func TestCapabilitiesSupportsAndFilter(t *testing.T) {
	all := map[string]InputRequest{
		"form":  &ElicitRequest{Message: "m", RequestedSchema: &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}},
		"llm":   &SamplingRequest{MaxTokens: 1},
		"roots": &RootsRequest{},
	}
	cases := []struct {
		caps Capabilities
		want []string
	}{
		{Capabilities{}, nil},
		{Capabilities{Sampling: true}, []string{"llm"}},
		{Capabilities{FormElicitation: true, Roots: true}, []string{"form", "roots"}},
		{Capabilities{FormElicitation: true, Sampling: true, Roots: true}, []string{"form", "llm", "roots"}},
	}
	for _, tc := range cases {
		got := tc.caps.Filter(all)
		var keys []string
		for k := range got {
			keys = append(keys, k)
			assert.True(t, tc.caps.Supports(all[k]))
		}
		assert.ElementsMatch(t, tc.want, keys, "%+v", tc.caps)
		if tc.want == nil {
			assert.Nil(t, got)
		}
	}
	assert.False(t, Capabilities{FormElicitation: true, Sampling: true, Roots: true}.Supports(nil), "an unknown request is never supported")
}
