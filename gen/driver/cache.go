package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/gen/memo"
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

// contentDigest is the SHA-256 of b, in hex.
func contentDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// renderRecord is the path of the record of what this executable renders
// for a model whose digest is model (annotate.ModelDigest of a struct,
// annotate.ToolsDigest of a package's tools file), "" when there is no
// cache directory or no executable digest.
func renderRecord(model string) string {
	root, exe := memo.Dir(), memo.ExecutableDigest()
	if root == "" || exe == "" {
		return ""
	}
	key := sha256.Sum256([]byte("mcpgen render v1\x00" + exe + "\x00" + model))
	return filepath.Join(root, "rendered", hex.EncodeToString(key[:]))
}

// rendered records that this executable renders the model whose digest is
// model to content.
func rendered(model string, content []byte) {
	if path := renderRecord(model); path != "" {
		memo.WriteFile(path, contentDigest(content))
	}
}

// isRendered reports whether content is what this executable rendered for
// the model whose digest is model before.
func isRendered(model string, content []byte) bool {
	path := renderRecord(model)
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && string(b) == contentDigest(content)
}
