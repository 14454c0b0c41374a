package shape

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

type before struct {
	Name       string `json:"name"`
	Passengers int    `json:"passengers" elicit:"optional,maximum=12"`
	Window     *window
}

type window struct{ From, To string }

// The same struct after edits that go generate did not see.
type (
	tagChanged struct {
		Name       string `json:"name"`
		Passengers int    `json:"passengers" elicit:"optional,maximum=20"`
		Window     *window
	}
	typeChanged struct {
		Name       string `json:"name"`
		Passengers int64  `json:"passengers" elicit:"optional,maximum=12"`
		Window     *window
	}
	added struct {
		Name       string `json:"name"`
		Passengers int    `json:"passengers" elicit:"optional,maximum=12"`
		Window     *window
		Seat       string
	}
	removed struct {
		Name   string `json:"name"`
		Window *window
	}
	reordered struct {
		Passengers int    `json:"passengers" elicit:"optional,maximum=12"`
		Name       string `json:"name"`
		Window     *window
	}
	nestedChanged struct {
		Name       string `json:"name"`
		Passengers int    `json:"passengers" elicit:"optional,maximum=12"`
		Window     *window2
	}
	window2 struct{ From, Until string }
)

// TestCheck: the digest of a struct holds it; each kind of change is
// refused with a message that names the file, the struct, what changed and
// go generate.
func TestCheck(t *testing.T) {
	want := Entries(Of(reflect.TypeFor[before]()))
	if err := Check(reflect.TypeFor[before](), "before_elicit.go", want); err != nil {
		t.Fatalf("the same struct: %v", err)
	}
	if err := Check(reflect.TypeFor[tagChanged](), "x_elicit.go", nil); err != nil {
		t.Errorf("no digest (a struct the generator could not spell) checked: %v", err)
	}
	for _, c := range []struct {
		t    reflect.Type
		says string
	}{
		{reflect.TypeFor[tagChanged](), "(field Passengers: tag changed)"},
		{reflect.TypeFor[typeChanged](), "(field Passengers: type changed)"},
		{reflect.TypeFor[added](), "(field Seat added)"},
		{reflect.TypeFor[removed](), "(field Passengers removed)"},
		{reflect.TypeFor[reordered](), "(fields reordered)"},
		{reflect.TypeFor[nestedChanged](), "(field Window: type changed)"},
	} {
		err := Check(c.t, "before_elicit.go", want)
		if err == nil {
			t.Errorf("%s: no error", c.t.Name())
			continue
		}
		msg := err.Error()
		for _, part := range []string{"before_elicit.go is stale", "struct " + c.t.Name(), "package github.com/mcpgen/mcpgen/internal/shape", c.says, "go generate"} {
			if !strings.Contains(msg, part) {
				t.Errorf("%s: %q does not say %q", c.t.Name(), msg, part)
			}
		}
		if again := Check(c.t, "before_elicit.go", want); again == nil || again.Error() != msg {
			t.Errorf("%s: a second check says %v", c.t.Name(), again)
		}
	}
}

// TestDiffBounded: many changes are summed up after three.
func TestDiffBounded(t *testing.T) {
	got := Diff([]string{"A:1:1", "B:1:1", "C:1:1", "D:1:1", "E:1:1"}, []string{"A:2:1", "B:1:2", "C:2:2", "D:2:1", "E:2:1"})
	want := "field A: type changed; field B: tag changed; field C: type and tag changed; and 2 more"
	if got != want {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	if d := Diff([]string{"A:1:1"}, []string{"A:1:1"}); d != "" {
		t.Errorf("equal digests differ: %q", d)
	}
}

// TestEmbeddedOtherPackages: a struct embedded from the standard library
// is its name only (its fields change with the Go release); an own
// package's embedded struct is spelled whole.
func TestEmbeddedOtherPackages(t *testing.T) {
	type s struct {
		strings.Builder
		window
	}
	f := Of(reflect.TypeFor[s]())
	if f[0].Type != "^strings.Builder" {
		t.Errorf("strings.Builder spelled %q", f[0].Type)
	}
	if !strings.HasPrefix(f[1].Type, "^.window=struct{From string") {
		t.Errorf("window spelled %q", f[1].Type)
	}
}

// stamp is a type of this package defined over another package's struct,
// all of whose fields are unexported: none of them goes into the digest,
// so a dependency's update or a Go release that changes them does not make
// healthy generated code look stale.
type stamp time.Time

type holdsStamp struct {
	At stamp `json:"at"`
}

func TestOtherPackagesUnexportedFieldsLeftOut(t *testing.T) {
	fields := Of(reflect.TypeFor[holdsStamp]())
	if len(fields) != 1 || fields[0].Type != ".stamp=struct{}" {
		t.Fatalf("Of(holdsStamp) = %+v, want one field of type .stamp=struct{} (time.Time's wall, ext, loc left out)", fields)
	}
	for _, c := range []struct {
		name                   string
		exportedOnly, ownField bool
		keep                   bool
	}{
		{"Exported", true, false, true},
		{"hidden", false, true, true}, // this package's own unexported field
		{"wall", false, false, false}, // another package's, reached through a type defined over its struct
		{"hidden", true, true, false}, // inside a struct embedded from another package
	} {
		if got := KeepField(c.name, c.exportedOnly, c.ownField); got != c.keep {
			t.Errorf("KeepField(%q, exportedOnly %v, ownField %v) = %v, want %v", c.name, c.exportedOnly, c.ownField, got, c.keep)
		}
	}
}
