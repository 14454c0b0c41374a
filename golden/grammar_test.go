package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/impl"
)

// checkRequestedSchema checks a requestedSchema's JSON against the restricted
// grammar of MCP 2026-07-28 client/elicitation: a flat object
// whose properties are each exactly one of the listed shapes, with no other
// keyword, no type array (so no ["null", T]), required naming only
// properties, and defaults of the property's own kind. legacy admits the
// deprecated {"type":"string","enum","enumNames"} form.
func checkRequestedSchema(raw []byte, legacy bool) error {
	var top map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&top); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if err := onlyKeys(top, "type", "properties", "required", "$schema"); err != nil {
		return fmt.Errorf("top level: %v", err)
	}
	if top["type"] != "object" {
		return fmt.Errorf(`top level: type is %#v, want "object"`, top["type"])
	}
	props, ok := top["properties"].(map[string]any)
	if !ok {
		return fmt.Errorf("top level: properties is %T, want an object", top["properties"])
	}
	if r, has := top["required"]; has {
		list, ok := r.([]any)
		if !ok {
			return fmt.Errorf("required is %T, want an array", r)
		}
		seen := map[string]bool{}
		for _, x := range list {
			name, ok := x.(string)
			if !ok || seen[name] {
				return fmt.Errorf("required has %#v: want distinct property names", x)
			}
			if _, ok := props[name]; !ok {
				return fmt.Errorf("required names %q, which is not a property", name)
			}
			seen[name] = true
		}
	}
	for name, p := range props {
		obj, ok := p.(map[string]any)
		if !ok {
			return fmt.Errorf("property %q is %T, want an object", name, p)
		}
		if err := checkProperty(obj, legacy); err != nil {
			return fmt.Errorf("property %q: %v", name, err)
		}
	}
	return nil
}

func checkProperty(p map[string]any, legacy bool) error {
	for _, k := range []string{"title", "description"} {
		if v, has := p[k]; has {
			if _, ok := v.(string); !ok {
				return fmt.Errorf("%s is %T, want a string", k, v)
			}
		}
	}
	typ, ok := p["type"].(string)
	if !ok {
		return fmt.Errorf("type is %#v: want one of string, number, integer, boolean, array (never a list such as [\"null\", T])", p["type"])
	}
	switch typ {
	case "string":
		switch {
		case has(p, "enum"):
			keys := []string{"type", "title", "description", "enum", "default"}
			if legacy {
				keys = append(keys, "enumNames")
			}
			if err := onlyKeys(p, keys...); err != nil {
				return fmt.Errorf("single select: %v", err)
			}
			choices, err := stringList(p["enum"], true)
			if err != nil {
				return fmt.Errorf("enum: %v", err)
			}
			if n, has := p["enumNames"]; has {
				names, err := stringList(n, false)
				if err != nil || len(names) != len(choices) {
					return fmt.Errorf("enumNames must be %d strings, got %#v", len(choices), n)
				}
			}
			return checkChoiceDefault(p, choices)
		case has(p, "oneOf"):
			if err := onlyKeys(p, "type", "title", "description", "oneOf", "default"); err != nil {
				return fmt.Errorf("titled single select: %v", err)
			}
			choices, err := constTitles(p["oneOf"])
			if err != nil {
				return fmt.Errorf("oneOf: %v", err)
			}
			return checkChoiceDefault(p, choices)
		}
		if err := onlyKeys(p, "type", "title", "description", "minLength", "maxLength", "format", "default"); err != nil {
			return fmt.Errorf("string: %v", err)
		}
		lo, err := count(p, "minLength")
		if err != nil {
			return err
		}
		hi, err := count(p, "maxLength")
		if err != nil {
			return err
		}
		if lo >= 0 && hi >= 0 && lo > hi {
			return fmt.Errorf("minLength %d > maxLength %d", lo, hi)
		}
		if f, has := p["format"]; has && !slices.Contains([]any{"email", "uri", "date", "date-time"}, f) {
			return fmt.Errorf("format %#v is not email, uri, date or date-time", f)
		}
		if d, has := p["default"]; has {
			if _, ok := d.(string); !ok {
				return fmt.Errorf("default %#v is not a string", d)
			}
		}
	case "number", "integer":
		if err := onlyKeys(p, "type", "title", "description", "minimum", "maximum", "default"); err != nil {
			return fmt.Errorf("%s: %v", typ, err)
		}
		var lo, hi *big.Rat
		for _, k := range []string{"minimum", "maximum", "default"} {
			v, has := p[k]
			if !has {
				continue
			}
			n, ok := v.(json.Number)
			if !ok {
				return fmt.Errorf("%s %#v is not a number", k, v)
			}
			r, ok := new(big.Rat).SetString(string(n))
			if !ok {
				return fmt.Errorf("%s %s is not a number", k, n)
			}
			switch k {
			case "minimum":
				lo = r
			case "maximum":
				hi = r
			}
		}
		if lo != nil && hi != nil && lo.Cmp(hi) > 0 {
			return fmt.Errorf("minimum > maximum")
		}
	case "boolean":
		if err := onlyKeys(p, "type", "title", "description", "default"); err != nil {
			return fmt.Errorf("boolean: %v", err)
		}
		if d, has := p["default"]; has {
			if _, ok := d.(bool); !ok {
				return fmt.Errorf("default %#v is not a boolean", d)
			}
		}
	case "array":
		if err := onlyKeys(p, "type", "title", "description", "minItems", "maxItems", "items", "default"); err != nil {
			return fmt.Errorf("multi select: %v", err)
		}
		lo, err := count(p, "minItems")
		if err != nil {
			return err
		}
		hi, err := count(p, "maxItems")
		if err != nil {
			return err
		}
		if lo >= 0 && hi >= 0 && lo > hi {
			return fmt.Errorf("minItems %d > maxItems %d", lo, hi)
		}
		items, ok := p["items"].(map[string]any)
		if !ok {
			return fmt.Errorf("items is %#v, want an object", p["items"])
		}
		var choices []string
		if has(items, "anyOf") {
			if err := onlyKeys(items, "anyOf"); err != nil {
				return fmt.Errorf("titled multi select items (no type): %v", err)
			}
			if choices, err = constTitles(items["anyOf"]); err != nil {
				return fmt.Errorf("items.anyOf: %v", err)
			}
		} else {
			if err := onlyKeys(items, "type", "enum"); err != nil {
				return fmt.Errorf("multi select items: %v", err)
			}
			if items["type"] != "string" {
				return fmt.Errorf(`items.type is %#v, want "string"`, items["type"])
			}
			if choices, err = stringList(items["enum"], true); err != nil {
				return fmt.Errorf("items.enum: %v", err)
			}
		}
		if d, has := p["default"]; has {
			list, err := stringList(d, true)
			if err != nil {
				return fmt.Errorf("default: %v", err)
			}
			for _, x := range list {
				if !slices.Contains(choices, x) {
					return fmt.Errorf("default item %q is not a choice", x)
				}
			}
		}
	default:
		return fmt.Errorf("type %q is not in the grammar", typ)
	}
	return nil
}

func has(m map[string]any, k string) bool { _, ok := m[k]; return ok }

func onlyKeys(m map[string]any, allowed ...string) error {
	var extra []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("keywords %v are not allowed here (allowed: %v)", extra, allowed)
	}
	return nil
}

// count reads a non-negative integer keyword; -1 when absent.
func count(p map[string]any, k string) (int64, error) {
	v, has := p[k]
	if !has {
		return -1, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s %#v is not a number", k, v)
	}
	i, err := n.Int64()
	if err != nil || i < 0 {
		return 0, fmt.Errorf("%s %s is not a non-negative integer", k, n)
	}
	return i, nil
}

func stringList(v any, distinct bool) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%#v is not an array", v)
	}
	var out []string
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("item %#v is not a string", x)
		}
		if distinct && slices.Contains(out, s) {
			return nil, fmt.Errorf("item %q twice", s)
		}
		out = append(out, s)
	}
	return out, nil
}

func constTitles(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("%#v is not a non-empty array", v)
	}
	var out []string
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("entry %#v is not an object", x)
		}
		if err := onlyKeys(m, "const", "title"); err != nil {
			return nil, err
		}
		c, ok1 := m["const"].(string)
		t, ok2 := m["title"].(string)
		if !ok1 || !ok2 || c == "" || t == "" {
			return nil, fmt.Errorf("entry %#v needs a non-empty string const and title", x)
		}
		if slices.Contains(out, c) {
			return nil, fmt.Errorf("const %q twice", c)
		}
		out = append(out, c)
	}
	return out, nil
}

func checkChoiceDefault(p map[string]any, choices []string) error {
	if d, has := p["default"]; has {
		s, ok := d.(string)
		if !ok || !slices.Contains(choices, s) {
			return fmt.Errorf("default %#v is not one of %v", d, choices)
		}
	}
	return nil
}

// subsets returns every subset of fields when there are at most 10, and
// otherwise the empty set, every single field, every pair, the whole list and
// 500 random subsets (fixed seed).
func subsets(fields []string) [][]string {
	n := len(fields)
	var out [][]string
	pick := func(mask uint64) []string {
		var s []string
		for i, f := range fields {
			if mask&(1<<i) != 0 {
				s = append(s, f)
			}
		}
		return s
	}
	if n <= 10 {
		for m := uint64(0); m < 1<<n; m++ {
			out = append(out, pick(m))
		}
		return out
	}
	out = append(out, nil, fields)
	for i := range fields {
		out = append(out, pick(1<<i))
		for j := i + 1; j < n; j++ {
			out = append(out, pick(1<<i|1<<j))
		}
	}
	r := rand.New(rand.NewPCG(3, uint64(n)))
	for range 500 {
		out = append(out, pick(r.Uint64()&(1<<n-1)))
	}
	return out
}

// TestRequestedSchemaGrammar runs the grammar checker on every golden
// struct's RequestedSchema for every subset of its fields, checks that a
// subset's schema is exactly the full schema restricted to the subset, and
// that every default is valid for its own property (by the JSON Schema
// validator).
func TestRequestedSchemaGrammar(t *testing.T) {
	for _, gs := range goldenStructs() {
		t.Run(gs.Case+"."+gs.Name, func(t *testing.T) {
			t.Parallel()
			args := gs.Def.New()
			full := args.RequestedSchema(gs.Def.Fields...)
			require.Equal(t, len(gs.Def.Fields), full.Properties.Len(), "every elicitable field has a property")
			for _, sub := range subsets(gs.Def.Fields) {
				s := args.RequestedSchema(sub...)
				if len(sub) == 0 {
					s = args.RequestedSchema("no-such-field") // no names means "all missing"
				}
				raw, err := json.Marshal(s)
				require.NoError(t, err)
				require.NoError(t, checkRequestedSchema(raw, gs.Legacy), "fields %v: %s", sub, raw)
				// Restriction: same properties, in field order, same required.
				var names []string
				for p := s.Properties.Oldest(); p != nil; p = p.Next() {
					names = append(names, p.Key)
					fp, _ := full.Properties.Get(p.Key)
					a, _ := json.Marshal(p.Value)
					b, _ := json.Marshal(fp)
					require.JSONEq(t, string(b), string(a))
				}
				var want, wantReq []string
				for _, f := range gs.Def.Fields {
					if slices.Contains(sub, f) {
						want = append(want, f)
						if slices.Contains(full.Required, f) {
							wantReq = append(wantReq, f)
						}
					}
				}
				require.Equal(t, want, names)
				require.Equal(t, wantReq, s.Required)
			}
			// Defaults satisfy their property.
			for p := full.Properties.Oldest(); p != nil; p = p.Next() {
				if p.Value.Default == nil {
					continue
				}
				alone := impl.NewObjectSchema()
				alone.Properties.Set(p.Key, p.Value)
				v := compileSchema(t, alone)
				doc := fmt.Sprintf(`{%q:%s}`, p.Key, mustJSON(t, p.Value.Default))
				require.NoError(t, v.Validate(decodeForValidator(t, []byte(doc))), "default of %s", p.Key)
			}
		})
	}
}

// TestGrammarCheckerRejects makes sure the checker fails what the grammar of MCP
// 2026-07-28 client/elicitation leaves out, so that its passing means something.
func TestGrammarCheckerRejects(t *testing.T) {
	bad := map[string]string{
		"null union":         `{"type":"object","properties":{"a":{"type":["null","string"]}}}`,
		"nested object":      `{"type":"object","properties":{"a":{"type":"object","properties":{}}}}`,
		"pattern":            `{"type":"object","properties":{"a":{"type":"string","pattern":"x"}}}`,
		"unknown format":     `{"type":"object","properties":{"a":{"type":"string","format":"ipv4"}}}`,
		"untyped oneOf":      `{"type":"object","properties":{"a":{"oneOf":[{"const":"x","title":"X"}]}}}`,
		"typed titled items": `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","anyOf":[{"const":"x","title":"X"}]}}}}`,
		"untyped items":      `{"type":"object","properties":{"a":{"type":"array","items":{"enum":["x"]}}}}`,
		"enumNames":          `{"type":"object","properties":{"a":{"type":"string","enum":["x"],"enumNames":["X"]}}}`,
		"required unknown":   `{"type":"object","properties":{},"required":["a"]}`,
		"extra top keyword":  `{"type":"object","properties":{},"additionalProperties":false}`,
		"bad default":        `{"type":"object","properties":{"a":{"type":"string","enum":["x"],"default":"y"}}}`,
		"number as string":   `{"type":"object","properties":{"a":{"type":"integer","minimum":"1"}}}`,
		"uniqueItems":        `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true,"items":{"type":"string","enum":["x"]}}}}`,
	}
	for name, doc := range bad {
		require.Error(t, checkRequestedSchema([]byte(doc), false), name)
	}
	require.NoError(t, checkRequestedSchema([]byte(bad["enumNames"]), true))
}

// TestGoSDKClientAcceptsSchemas sends every golden struct's requestedSchema
// (every field, and each field alone) to go-sdk v1.8.0's own client in an
// input-required result over in-memory transports. The client checks each
// schema (mcp/client.go validateElicitSchema: it refuses what it cannot
// render) before its ElicitationHandler sees it, and fails the call
// otherwise.
func TestGoSDKClientAcceptsSchemas(t *testing.T) {
	ctx := context.Background()
	var current any
	server := mcp.NewServer(&mcp.Implementation{Name: "grammar", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "probe", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"q": &mcp.ElicitParams{Mode: "form", Message: "probe", RequestedSchema: current},
			}}, nil
		})
	var seen any
	client := mcp.NewClient(&mcp.Implementation{Name: "grammar-client", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			seen = req.Params.RequestedSchema
			return &mcp.ElicitResult{Action: "cancel"}, nil
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer cs.Close()

	send := func(t *testing.T, raw json.RawMessage) error {
		current, seen = raw, nil
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{}})
		if err != nil {
			return err
		}
		require.NotNil(t, seen, "the client's elicitation handler never saw the form")
		require.False(t, res.NeedsInput())
		return nil
	}
	// The check is real: the client refuses a ["null", T] type (what
	// jsonschema.For makes of a pointer field).
	require.ErrorContains(t, send(t, json.RawMessage(`{"type":"object","properties":{"a":{"type":["null","string"]}}}`)), "unsupported type")

	for _, gs := range goldenStructs() {
		t.Run(gs.Case+"."+gs.Name, func(t *testing.T) {
			args := gs.Def.New()
			schemas := [][]string{gs.Def.Fields}
			for _, f := range gs.Def.Fields {
				schemas = append(schemas, []string{f})
			}
			for _, fields := range schemas {
				raw, err := json.Marshal(args.RequestedSchema(fields...))
				require.NoError(t, err)
				require.NoError(t, send(t, raw), "go-sdk client refused %s", raw)
				got, err := json.Marshal(seen)
				require.NoError(t, err)
				require.JSONEq(t, string(raw), string(got), "the handler saw another schema")
			}
		})
	}
}

func mustJSON(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
