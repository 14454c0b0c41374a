package callclient

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
)

// propertyOrders remembers the order in which the server wrote the
// properties of every schema it sent (an input schema in tools/list, a
// requestedSchema in elicitation/create or in an input-required result).
// go-sdk decodes schemas into maps, which have no order; a form must show
// its fields in the server's order (MCP 2026-07-28 client/elicitation: the
// schema's properties are the form's fields), so the client reads the order
// from the messages themselves as they arrive. Orders are keyed by the set
// of property names, which is what the schema's map still holds.
type propertyOrders struct {
	mu     sync.Mutex
	orders map[string][]string
}

func nameSetKey(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	return strings.Join(s, "\x00")
}

// lookup returns the wire order of the properties named by keys of props.
func (o *propertyOrders) lookup(names []string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.orders[nameSetKey(names)]
}

// record walks one message's JSON and remembers the key order of every
// object held by a "properties" member.
func (o *propertyOrders) record(raw []byte) {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"properties"`)) {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var walk func(underProperties bool) error
	walk = func(underProperties bool) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			var keys []string
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				keys = append(keys, key)
				if err := walk(key == "properties"); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil { // '}'
				return err
			}
			if underProperties && len(keys) > 0 {
				o.mu.Lock()
				if o.orders == nil {
					o.orders = map[string][]string{}
				}
				o.orders[nameSetKey(keys)] = keys
				o.mu.Unlock()
			}
		case json.Delim('['):
			for dec.More() {
				if err := walk(false); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil { // ']'
				return err
			}
		}
		return nil
	}
	_ = walk(false) // a message go-sdk cannot read either: it reports it
}
