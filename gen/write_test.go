package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/header"
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

// TestWriteSaysWhichEditsByHandItOverwrote: a generated file whose content
// no longer has its sum (header.Seal) is overwritten and listed in
// HandEdited; one rewritten because its struct changed, or written anew, is
// not.
func TestWriteSaysWhichEditsByHandItOverwrote(t *testing.T) {
	dir := t.TempDir()
	sealed := func(body string) []byte { return header.Seal([]byte(Header() + "\n\npackage m\n" + body)) }
	edited := filepath.Join(dir, "edited_elicit.go")
	changed := filepath.Join(dir, "changed_elicit.go")
	old := sealed("\nconst max = 12\n")
	if err := os.WriteFile(edited, []byte(strings.Replace(string(old), "12", "20", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changed, old, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Write([]File{
		{Path: edited, Content: old},
		{Path: changed, Content: sealed("\nconst max = 20\n")},
		{Path: filepath.Join(dir, "new_elicit.go"), Content: sealed("")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 3 || len(res.HandEdited) != 1 || res.HandEdited[0] != edited {
		t.Errorf("written %v, edited by hand %v; want 3 written, %s edited by hand", res.Written, res.HandEdited, edited)
	}
}
