package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/annotate"
)

// What decides that a struct's generated file is current, without
// rendering it: a record, in the user's cache directory, that this very
// executable rendered this model to the bytes the file holds. The
// executable holds every rule that renders (names, header, renderer,
// jennifer, the version), so a record of another build, however small the
// change, does not count: go generate never skips what -check would call
// stale. The records live outside the files, so the files' bytes do not
// depend on which build wrote them (committed files are the same on every
// machine); without a cache directory nothing is skipped.

// cacheRoot is mcpgen's directory under os.UserCacheDir, "" when there is
// none (then every package is rendered).
var cacheRoot = sync.OnceValue(func() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcpgen")
})

// exeDigest is the SHA-256 of the running executable, in hex ("" when it
// cannot be read: then nothing is skipped). Hashing a 20 MB binary costs
// tens of milliseconds, so the digest is kept under the cache directory by
// the executable's path, size and modification time: a rerun of the same
// build (go tool and go run keep theirs in the build cache) reads it back.
var exeDigest = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	var record string
	if root := cacheRoot(); root != "" {
		key := sha256.Sum256([]byte(exe + "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + fi.ModTime().UTC().String()))
		record = filepath.Join(root, "exe", hex.EncodeToString(key[:]))
		if b, err := os.ReadFile(record); err == nil && len(b) == 2*sha256.Size {
			return string(b)
		}
	}
	d, err := fileDigest(exe)
	if err != nil {
		return ""
	}
	if record != "" {
		writeRecord(record, d)
	}
	return d
})

// fileDigest is the SHA-256 of the file at path, in hex.
func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// contentDigest is the SHA-256 of b, in hex.
func contentDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// renderRecord is the path of the record of what this executable renders
// for struct s of pkg (its model digest, annotate.ModelDigest), "" when
// there is no cache directory or no executable digest.
func renderRecord(pkg *annotate.Package, s *annotate.Struct) string {
	root, exe := cacheRoot(), exeDigest()
	if root == "" || exe == "" {
		return ""
	}
	key := sha256.Sum256([]byte("mcpgen render v1\x00" + exe + "\x00" + annotate.ModelDigest(pkg, s)))
	return filepath.Join(root, "rendered", hex.EncodeToString(key[:]))
}

// rendered records that this executable renders s of pkg to content.
func rendered(pkg *annotate.Package, s *annotate.Struct, content []byte) {
	if path := renderRecord(pkg, s); path != "" {
		writeRecord(path, contentDigest(content))
	}
}

// isRendered reports whether content is what this executable rendered for
// s of pkg before.
func isRendered(pkg *annotate.Package, s *annotate.Struct, content []byte) bool {
	path := renderRecord(pkg, s)
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && string(b) == contentDigest(content)
}

// writeRecord writes a cache record, atomically (a temporary file renamed
// into place), ignoring failures: a missing record only costs a render.
func writeRecord(path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(content)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
