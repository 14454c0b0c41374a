package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/golden/testdata/allkinds"
	"github.com/mcpgen/mcpgen/runtime"
)

// FuzzApplyContent feeds arbitrary form content (and arbitrary starting
// arguments) to the generated ApplyContent of the allkinds golden case: it
// must never panic; when it returns nil the struct must Validate and
// ApplyPartial must agree; when it returns an error, it must be a
// *runtime.ValidationError and nothing may have been set.
func FuzzApplyContent(f *testing.F) {
	for _, seed := range [][2]string{
		{`{}`, `{}`},
		{`{}`, `{"email":"a@example.com","name":"Ada","count":3,"agree":true,"size":"m","confirm":"yes"}`},
		{`{}`, `{"email":"a@example.com","name":"Ada","count":3,"agree":true,"size":"s","confirm":"yes","website":"https://x.org/","birthday":"2026-02-28","meeting":"2026-07-28T09:30:00Z","small":5,"big":18446744073709551615,"ratio":2.5,"weight":1e38,"newsletter":true,"meal":"fish, grilled","level":"low","color":"red","tags":["a","b"],"colors":["red","green"]}`},
		{`{}`, `{"email":"not-an-email","name":"A","count":101,"agree":"yes","size":"xl","confirm":"no","small":-6,"big":-1,"ratio":3,"weight":1e39,"tags":["a","a","d"],"colors":"red"}`},
		{`{}`, `{"count":1.5,"small":1e300,"tags":[],"meeting":"2026-13-01T00:00:00Z","birthday":"2026-02-30"}`},
		{`{"email":"b@example.com","name":"Bob","confirm":"yes"}`, `{"count":7,"agree":false,"size":"l","confirm":"yes"}`},
		{`{"count":200}`, `{"email":null,"name":null}`},
		{`{}`, `{"name":"\u0000\uffff","email":"a@b","count":"7","tags":[null],"colors":[1]}`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, args, content []byte) {
		var a allkinds.AllKinds
		if json.Unmarshal(args, &a) != nil {
			return
		}
		startValid := onlyRequired(a.Validate())
		var c map[string]any
		if json.Unmarshal(content, &c) != nil {
			return
		}
		before, err := json.Marshal(&a)
		if err != nil {
			t.Fatal(err)
		}
		var p allkinds.AllKinds
		_ = json.Unmarshal(args, &p)
		perr := p.ApplyPartial(c)
		partial, _ := json.Marshal(&p)
		err = a.ApplyContent(c)
		after, merr := json.Marshal(&a)
		if merr != nil {
			t.Fatal(merr)
		}
		if err != nil {
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) || len(ve.Errors) == 0 {
				t.Fatalf("ApplyContent(%s) = %v (%T), want a non-empty *runtime.ValidationError", content, err, err)
			}
			if !bytes.Equal(before, after) {
				t.Fatalf("ApplyContent(%s) failed (%v) but changed the struct:\nbefore %s\nafter  %s", content, err, before, after)
			}
			return
		}
		// ApplyPartial sets at least what ApplyContent sets: when all is
		// valid they agree.
		if perr != nil || !bytes.Equal(partial, after) {
			t.Fatalf("ApplyContent(%s) = nil, but ApplyPartial = %v and sets %s instead of %s", content, perr, partial, after)
		}
		if startValid {
			if err := a.Validate(); err != nil {
				t.Fatalf("ApplyContent(%s) = nil on %s, but Validate() = %v; struct %s", content, args, err, after)
			}
		}
	})
}

// onlyRequired reports whether err is nil or lists only missing required
// fields: the arguments break no rule that ApplyContent would not repair.
func onlyRequired(err error) bool {
	if err == nil {
		return true
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	for _, fe := range ve.Errors {
		if fe.Keyword != "required" {
			return false
		}
	}
	return true
}
