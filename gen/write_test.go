package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/annotate"
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
	write(own, annotate.Header("(devel)", "mcpgen")+"\n\npackage m\n")
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
