package memo

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Dir is mcpgen's cache directory: $MCPGEN_CACHE, else
// os.UserCacheDir()/mcpgen; "" when MCPGEN_CACHE is "off" or a relative
// path (go generate runs each directive in its package's directory), or
// there is no user cache directory. The memo's slots (current/) and the executables'
// digests (exe/) live there.
func Dir() string {
	switch dir := os.Getenv(EnvCache); dir {
	case "off":
		return ""
	case "":
		c, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(c, "mcpgen")
	default:
		if !filepath.IsAbs(dir) {
			return "" // as the go command refuses a relative GOCACHE: it would be a directory in each package's
		}
		return dir
	}
}

// ExecutableDigest is the SHA-256 of the running executable's bytes, in
// hex ("" when it cannot be read: then nothing is memoised), as
// [FileDigest] computes it.
var ExecutableDigest = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return FileDigest(exe)
})

// FileDigest is the SHA-256 of the bytes of the file at path (symbolic
// links followed), in hex; "" when it cannot be read. Hashing a 10–20 MB
// executable costs tens of milliseconds, so the digest is kept under [Dir]
// by the file's path, size, modification time and, on Linux, inode and
// status change time (changeStamp): a rerun of the same build (go tool and
// go run keep theirs in the build cache) reads it back, and a build copied
// over it with its modification time kept (cp -p) is hashed again.
func FileDigest(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	var record string
	if root := Dir(); root != "" {
		key := sha256.Sum256([]byte(path + "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + fi.ModTime().UTC().String() + "\x00" + changeStamp(fi)))
		record = filepath.Join(root, "exe", hex.EncodeToString(key[:]))
		if b, err := os.ReadFile(record); err == nil && len(b) == 2*sha256.Size {
			return string(b)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	d := hex.EncodeToString(h.Sum(nil))
	if record != "" {
		WriteFile(record, d)
	}
	return d
}

// WriteFile writes a cache file atomically (a temporary file renamed into
// place), ignoring failures: a missing cache entry only costs work.
func WriteFile(path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := io.WriteString(tmp, content)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
