package engine

import (
	"bytes"
	"encoding/json"
	"slices"
)

// dropEmptyAnswers returns raw, the arguments object of a call, without the
// members whose key is one of fields (elicitable fields' JSON names, matched
// exactly) and whose value is the empty string: such a field holds no
// answer and is asked, not refused (a client's tool form sends a field the
// user cleared as ""; MCP 2026-07-28, server/tools, leaves what a client
// sends for an argument to the client). Other members keep their order and
// their text. raw is returned as it is when it holds no "" or does not
// decode as an object (decoding it reports why).
func dropEmptyAnswers(raw json.RawMessage, fields []string) json.RawMessage {
	if len(fields) == 0 || !bytes.Contains(raw, []byte(`""`)) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw
	}
	out := make([]byte, 0, len(raw))
	out = append(out, '{')
	dropped := false
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return raw
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw
		}
		if string(v) == `""` && slices.Contains(fields, key) {
			dropped = true
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(key)
		out = append(append(append(out, k...), ':'), v...)
	}
	if !dropped {
		return raw
	}
	return append(out, '}')
}
