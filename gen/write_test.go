package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteRemovesOnlyOwnOutputAfterWriting(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "gone_elicit.go")
	user := filepath.Join(dir, "user_elicit.go")
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(own, Header()+"\n\npackage m\n")
	write(user, "package m\n")
	files := []File{
		{Path: own, Remove: true},
		{Path: user, Remove: true},
		{Path: filepath.Join(dir, "missing_elicit.go"), Remove: true},
		{Path: filepath.Join(dir, "new_elicit.go"), Content: []byte("package m\n")},
	}

	// A failed write removes nothing.
	bad := append([]File{{Path: filepath.Join(dir, "no", "such", "dir.go"), Content: []byte("x")}}, files...)
	if _, err := Write(bad); err == nil {
		t.Fatal("Write into a missing directory succeeded")
	}
	if _, err := os.Stat(own); err != nil {
		t.Fatalf("a failed Write removed %s", own)
	}

	res, err := Write(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 1 || res.Removed[0] != own {
		t.Errorf("Removed = %v, want [%s]", res.Removed, own)
	}
	if _, err := os.Stat(own); err == nil {
		t.Errorf("%s is still there", own)
	}
	if _, err := os.Stat(user); err != nil {
		t.Errorf("%s, without mcpgen's header, was removed", user)
	}
	if len(res.Written) != 1 {
		t.Errorf("Written = %v, want new_elicit.go", res.Written)
	}
}

// A file where mcpgen would write that is not mcpgen's own (no header) is
// never overwritten, and nothing else is written either.
func TestWriteNeverOverwritesAUserFile(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "foo_elicit.go")
	if err := os.WriteFile(mine, []byte("package bad\n\nvar Mine = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "bar_elicit.go")
	_, err := Write([]File{
		{Path: other, Content: []byte(Header() + "\n\npackage bad\n")},
		{Path: mine, Content: []byte(Header() + "\n\npackage bad\n")},
	})
	if err == nil || !strings.Contains(err.Error(), "not written by mcpgen") {
		t.Fatalf("Write over a user's file: err = %v", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "package bad\n\nvar Mine = 1\n" {
		t.Fatalf("the user's file changed: %q", b)
	}
	if _, err := os.Stat(other); err == nil {
		t.Fatal("another file was written although Write failed")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".mcpgen-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
