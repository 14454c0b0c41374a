package gen

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Messages read as English: "at least 1 character", "at most 1 item", never
// "1 characters" or "1 items", in every committed generated file.
func TestMessagesAreSingularForOne(t *testing.T) {
	bad := regexp.MustCompile(`\b1 (characters|items)\b`)
	files, err := filepath.Glob("../golden/testdata/*/*_elicit.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../runtime/internal/fixture/*_elicit.go")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no generated files found")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := bad.Find(b); m != nil {
			t.Errorf("%s: %q", f, m)
		}
	}
	for n, want := range map[int]string{0: "0 items", 1: "1 item", 2: "2 items"} {
		if got := count(n, "item"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
