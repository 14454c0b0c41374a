package golden

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/gen"
)

// TestSchemaValue holds gen.RequestedSchema, the requestedSchema built from
// the model at generation time (what mcpgen preview shows), to the
// generated RequestedSchema of every golden struct, byte for byte.
func TestSchemaValue(t *testing.T) {
	models := map[string]*annotate.Package{}
	for _, c := range Cases(t) {
		models[c.Name] = Load(t, c)
	}
	for _, gs := range goldenStructs() {
		t.Run(gs.Case+"."+gs.Name, func(t *testing.T) {
			var s *annotate.Struct
			for _, m := range models[gs.Case].Structs {
				if m.Name == gs.Name {
					s = m
				}
			}
			require.NotNil(t, s)
			want, err := json.Marshal(gs.Def.New().RequestedSchema(gs.Def.Fields...))
			require.NoError(t, err)
			got, err := json.Marshal(gen.RequestedSchema(s))
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		})
	}
}
