package impl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// ReadArguments yields the members of an arguments object in order, with
// their keys unescaped, on the in-place path and encoding/json's alike, and
// says when the arguments are not one JSON object.
func TestReadArguments(t *testing.T) {
	type member struct{ key, val string }
	for _, tc := range []struct {
		raw  string
		want []member
		err  bool
	}{
		{raw: ``},
		{raw: ` null `},
		{raw: `{}`},
		{raw: `{"a":1,"b":[1,{"c":"d"}],"a":"x"}`, want: []member{{"a", "1"}, {"b", `[1,{"c":"d"}]`}, {"a", `"x"`}}},
		{raw: ` { "a" : true } `, want: []member{{"a", "true"}}},
		{raw: `{"\u0061cc":"é","b\"":null}`, want: []member{{"acc", `"é"`}, {`b"`, "null"}}},
		{raw: `{"k":"v\"w"}`, want: []member{{"k", `"v\"w"`}}},
		{raw: `[1]`, err: true},
		{raw: `"x"`, err: true},
		{raw: `{"a":1} x`, want: []member{{"a", "1"}}, err: true},
		{raw: `{"a":}`, err: true},
	} {
		a := ReadArguments([]byte(tc.raw))
		var got []member
		for a.Next() {
			got = append(got, member{string(a.Key()), string(a.Value())})
		}
		assert.Equal(t, tc.want, got, "%s", tc.raw)
		assert.Equal(t, tc.err, a.Err() != nil, "%s: %v", tc.raw, a.Err())
	}
}
