package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	if got := Text("short"); got != "short" {
		t.Errorf("Text(short) = %q", got)
	}
	long := strings.Repeat("9", 1_000_000)
	got := Text(long)
	if len(got) > Max+32 || !strings.HasSuffix(got, "…(1000000 bytes)") || !strings.HasPrefix(got, "999") {
		t.Errorf("Text(1e6 digits) = %q", got)
	}
	// A cut inside a multi-byte rune backs off to its start.
	multi := strings.Repeat("é", Max) // 2 bytes each
	if got := Text("x" + multi); !utf8.ValidString(got) {
		t.Errorf("Text cut a rune: %q", got)
	}
}
