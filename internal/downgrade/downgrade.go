// Package downgrade is the requestedSchema an older client is sent: a
// client that negotiated MCP 2025-06-18 knows a smaller grammar than
// 2026-07-28's. The runtime sends what [Schema] returns, and `mcpgen
// preview` shows it in such a client's column; it imports nothing of
// runtime/ so that the generator can link it.
package downgrade

import (
	"errors"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// Full is the first protocol version whose form elicitation knows the
// whole 2026-07-28 grammar (runtime/protocol's Version20251125).
const Full = "2025-11-25"

// Schema returns a copy of a requestedSchema that a client on an
// older protocol version can render (the grammars of MCP 2025-06-18 and
// MCP 2025-11-25, client/elicitation):
//   - 2025-11-25 knows the whole 2026-07-28 grammar: returned unchanged;
//   - 2025-06-18 knows no arrays, no titled oneOf/anyOf selects and no
//     defaults except on booleans: titled selects become enum + enumNames,
//     non-boolean defaults are dropped, an optional multi select is left out,
//     and a required multi select is an error naming it (the caller turns it
//     into a tool error).
func Schema(s *jsonschema.Schema, version string) (*jsonschema.Schema, error) {
	if version >= Full {
		return s, nil
	}
	out := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	var unrenderable []string
	for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
		name, p := pair.Key, pair.Value
		required := slices.Contains(s.Required, name)
		if p.Type == "array" {
			if required {
				unrenderable = append(unrenderable, name)
			}
			continue
		}
		cp := *p
		if cp.Type != "boolean" {
			cp.Default = nil
		}
		if len(cp.OneOf) > 0 {
			var enum []any
			var names []string
			for _, alt := range cp.OneOf {
				enum = append(enum, alt.Const)
				names = append(names, alt.Title)
			}
			cp.OneOf = nil
			cp.Enum = enum
			cp.Extras = map[string]any{"enumNames": names}
		}
		out.Properties.Set(name, &cp)
		if required {
			out.Required = append(out.Required, name)
		}
	}
	if len(unrenderable) > 0 {
		return nil, errors.New("protocol " + version + " clients cannot show a multi-select, so pass these as arguments: " + strings.Join(unrenderable, ", "))
	}
	return out, nil
}
