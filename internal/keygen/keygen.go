// Package keygen makes the requestState keys of package runtime, for
// runtime.GenerateKey and `mcpgen keygen`. It is apart from runtime so that
// the generator (cmd/mcpgen) does not link the runtime and its
// dependencies: `go tool mcpgen` hashes every package of the command before
// each run, so each one costs every //go:generate line.
package keygen

import (
	"crypto/rand"
	"encoding/base64"
)

// Size is the length in bytes of a requestState key: AES-256 (FIPS 197).
const Size = 32

// New returns a new random Size-byte key from crypto/rand, encoded the way
// runtime.ParseKeyRing reads it: base64url without padding (RFC 4648 §5),
// 43 characters. It never fails (crypto/rand.Read never fails, Go 1.24+).
func New() string {
	k := make([]byte, Size)
	_, _ = rand.Read(k)
	return base64.RawURLEncoding.EncodeToString(k)
}
