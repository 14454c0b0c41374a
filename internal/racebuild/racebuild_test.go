package racebuild

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestShareBuild: under -race, ShareBuild adds -race to GOFLAGS once, after
// what GOFLAGS holds, and the go command reads it (go env GOFLAGS); without
// -race it leaves GOFLAGS alone.
func TestShareBuild(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	ShareBuild()
	ShareBuild()
	want := "-mod=mod"
	if Enabled {
		want += " -race"
	}
	if got := os.Getenv("GOFLAGS"); got != want {
		t.Fatalf("GOFLAGS = %q, want %q", got, want)
	}
	out, err := exec.Command("go", "env", "GOFLAGS").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("go env GOFLAGS = %q, want %q", got, want)
	}
}

// TestFlags: Flags adds -race once, at the end, only under -race.
func TestFlags(t *testing.T) {
	for in, race := range map[string]string{
		"":                       "-race",
		"-mod=mod":               "-mod=mod -race",
		"-race -mod=mod":         "-race -mod=mod",
		" -mod=mod  -race=true ": " -mod=mod  -race=true ",
	} {
		want := in
		if Enabled {
			want = race
		}
		if got := Flags(in); got != want {
			t.Errorf("Flags(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWithout: Without drops every -race flag and keeps the others in order.
func TestWithout(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "",
		"-race":                     "",
		"-mod=mod -race":            "-mod=mod",
		" -race=true -mod=mod  -x ": "-mod=mod -x",
	} {
		if got := Without(in); got != want {
			t.Errorf("Without(%q) = %q, want %q", in, got, want)
		}
	}
}
