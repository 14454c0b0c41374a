package exact

import (
	"encoding/json"
	"reflect"
	"testing"
)

type argErrInner struct {
	X int `json:"x"`
}

type argErrArgs struct {
	Replicas *int     `json:"replicas"`
	Tags     []string `json:"tags"`
	N        int8     `json:"n"`
	U        uint     `json:"u"`
	F        float32  `json:"f"`
	Name     string   `json:"name"`
	Ok       *bool    `json:"ok"`
	argErrInner
	Sub struct {
		Y bool `json:"y"`
	} `json:"sub"`
}

// TestErrorText: wrong-typed arguments are described like wrong-typed
// form answers: JSON path, JSON Schema type name, the JSON type that came.
func TestErrorText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"replicas":"3"}`, "replicas: must be an integer, got string"},
		{`{"replicas":{}}`, "replicas: must be an integer, got object"},
		{`{"n":1.5}`, "n: must be an integer, got number"},
		{`{"n":300}`, "n: does not fit in int8"},
		{`{"u":-1}`, "u: does not fit in uint"},
		{`{"f":1e39}`, "f: does not fit in float32"},
		{`{"f":"x"}`, "f: must be a number, got string"},
		{`{"name":1}`, "name: must be a string, got number"},
		{`{"ok":"yes"}`, "ok: must be a boolean, got string"},
		{`{"tags":"a"}`, "tags: must be an array, got string"},
		{`{"tags":["a",1]}`, "tags: must be an array of strings, got number in the array"},
		{`{"x":true}`, "x: must be an integer, got boolean"},
		{`{"sub":[]}`, "sub: must be an object, got array"},
		{`{"sub":{"y":1}}`, "sub.y: must be a boolean, got number"},
		{`[1]`, "arguments: must be an object, got array"},
	} {
		var a argErrArgs
		err := json.Unmarshal([]byte(c.in), &a)
		if err == nil {
			t.Fatalf("%s: no error", c.in)
		}
		if got := ErrorText(err, reflect.TypeOf(&a), "arguments"); got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
}

// For one argument, its key names the value and prefixes paths within it.
func TestErrorTextOfOneArgument(t *testing.T) {
	var sub struct {
		Y bool `json:"y"`
	}
	err := json.Unmarshal([]byte(`{"y":1}`), &sub)
	if got := ErrorText(err, reflect.TypeOf(&sub), "sub"); got != "sub.y: must be a boolean, got number" {
		t.Errorf("%q", got)
	}
	var n []int
	err = json.Unmarshal([]byte(`"x"`), &n)
	if got := ErrorText(err, reflect.TypeOf(&n), "tags"); got != "tags: must be an array, got string" {
		t.Errorf("%q", got)
	}
}
