package keygen

import (
	"encoding/base64"
	"testing"
)

func TestNew(t *testing.T) {
	a, b := New(), New()
	if len(a) != 43 {
		t.Fatalf("New() = %q: %d characters, want 43", a, len(a))
	}
	k, err := base64.RawURLEncoding.DecodeString(a)
	if err != nil || len(k) != Size {
		t.Fatalf("New() = %q decodes to %d bytes (%v), want %d", a, len(k), err, Size)
	}
	if a == b {
		t.Fatalf("two keys are equal: %q", a)
	}
}
