package engine

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/internal/keygen"
)

// Key ring constants.
const (
	// KeySize is the length in bytes of a requestState key: AES-256.
	KeySize = keygen.Size
	// EnvStateKeys names the environment variable that [KeyRingFromEnv]
	// reads: comma-separated base64 keys (standard or URL-safe alphabet,
	// padded or not), newest first. See runtime.EnvStateKeys.
	EnvStateKeys = "MCPGEN_STATE_KEYS"
)

// stateFormatVersion is the first byte of every sealed state. A state whose
// first byte differs is rejected before any key is tried.
const stateFormatVersion byte = 1

// keyIDSize is the length of a key id: the first 8 bytes of SHA-256(key).
const keyIDSize = 8

// Errors returned by [KeyRing.Open]. They say why a state was rejected;
// callers map every one of them to JSON-RPC -32602. ErrContentTooLarge and
// ErrArgumentsTooLarge are what [Options.OnReject] hears for a request over
// the other size limits of [Options].
var (
	// ErrContentTooLarge: a retry's form answer is over MaxContentBytes,
	// MaxStringBytes or MaxSelectItems.
	ErrContentTooLarge = errors.New("form answer over a size limit")
	// ErrArgumentsTooLarge: the arguments are over MaxArgumentsBytes.
	ErrArgumentsTooLarge = errors.New("arguments over the size limit")
	ErrStateEncoding     = errors.New("requestState is not base64url")
	ErrStateTooLarge     = errors.New("requestState is too large")
	ErrStateFormat       = errors.New("requestState has an unknown format version or is truncated")
	ErrStateKey          = errors.New("requestState was sealed with a key that is not in the key ring")
	ErrStateAuth         = errors.New("requestState failed authentication (tampered, or sealed under another key)")
)

type ringKey struct {
	id   [keyIDSize]byte
	aead cipher.AEAD
}

// KeyRing seals and opens requestState with AES-256-GCM (NIST SP 800-38D).
// See runtime.KeyRing.
type KeyRing struct {
	keys []ringKey
}

// NewKeyRing returns a key ring of the given keys, newest first. See
// runtime.NewKeyRing.
func NewKeyRing(keys ...[]byte) (*KeyRing, error) {
	if len(keys) == 0 {
		return nil, errors.New("mcpgen: key ring needs at least one key")
	}
	kr := &KeyRing{}
	seen := map[[keyIDSize]byte]bool{}
	for i, k := range keys {
		if len(k) != KeySize {
			return nil, fmt.Errorf("mcpgen: key %d is %d bytes, want %d (AES-256)", i+1, len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("mcpgen: key %d: %w", i+1, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("mcpgen: key %d: %w", i+1, err)
		}
		rk := ringKey{id: keyID(k), aead: aead}
		if seen[rk.id] {
			return nil, fmt.Errorf("mcpgen: key %d is listed twice", i+1)
		}
		seen[rk.id] = true
		kr.keys = append(kr.keys, rk)
	}
	return kr, nil
}

// keyID returns the id of key: the first 8 bytes of its SHA-256 digest
// (FIPS 180-4).
func keyID(key []byte) [keyIDSize]byte {
	sum := sha256.Sum256(key)
	var id [keyIDSize]byte
	copy(id[:], sum[:keyIDSize])
	return id
}

// ParseKeyRing parses the [EnvStateKeys] form: comma-separated keys, newest
// first, each 32 bytes in base64 (standard or URL-safe alphabet, padded or
// not; RFC 4648 §4 and §5). See runtime.ParseKeyRing.
func ParseKeyRing(s string) (*KeyRing, error) {
	var keys [][]byte
	first := map[string]int{} // a key's position in s, by its bytes
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, err := decodeKey(item)
		if err != nil {
			return nil, fmt.Errorf("mcpgen: %s: key %d: %w", EnvStateKeys, i+1, err)
		}
		if at, twice := first[string(k)]; twice {
			return nil, fmt.Errorf("mcpgen: %s: key %d is key %d again; list each key once", EnvStateKeys, i+1, at)
		}
		first[string(k)] = i + 1
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("mcpgen: %s holds no key", EnvStateKeys)
	}
	return NewKeyRing(keys...)
}

// minKeyDistinct is the fewest distinct byte values a key from the
// environment may have: 32 random bytes have fewer than 8 with a chance
// below 2·10^-37 (at most C(256,7)·(7/256)^32), a placeholder (all zeros,
// a repeated word) always does.
const minKeyDistinct = 8

func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	enc := base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	k, err := enc.DecodeString(s)
	if err != nil {
		return nil, errors.New("not base64")
	}
	if len(k) != KeySize {
		return nil, fmt.Errorf("decodes to %d bytes, want %d", len(k), KeySize)
	}
	var seen [256]bool
	distinct := 0
	for _, b := range k {
		if !seen[b] {
			seen[b], distinct = true, distinct+1
		}
	}
	if distinct < minKeyDistinct {
		// A placeholder (AAAA…, abab…), never a key anyone drew: whoever
		// reads the configuration's example can forge states with it.
		return nil, fmt.Errorf("decodes to %d bytes of only %d distinct values, which is no secret: make a key with mcpgen keygen", len(k), distinct)
	}
	return k, nil
}

// KeyRingFromEnv reads [EnvStateKeys]. See runtime.KeyRingFromEnv.
func KeyRingFromEnv() (*KeyRing, error) {
	s := os.Getenv(EnvStateKeys)
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return ParseKeyRing(s)
}

// KeyRingFromEnvOrEphemeral reads [EnvStateKeys] like [KeyRingFromEnv]; when
// the variable is unset or empty it falls back to [EphemeralKeyRing] and
// reports ephemeral true, so the caller can warn that only this instance can
// resume its calls. See runtime.KeyRingFromEnvOrEphemeral.
func KeyRingFromEnvOrEphemeral() (kr *KeyRing, ephemeral bool, err error) {
	kr, err = KeyRingFromEnv()
	if err != nil || kr != nil {
		return kr, false, err
	}
	return EphemeralKeyRing(), true, nil
}

// EphemeralKeyRing returns a key ring of one random [KeySize]-byte key from
// crypto/rand. See runtime.EphemeralKeyRing.
func EphemeralKeyRing() *KeyRing {
	k := make([]byte, KeySize)
	_, _ = rand.Read(k) // crypto/rand.Read never fails (Go 1.24+).
	kr, _ := NewKeyRing(k)
	return kr
}

// GenerateKey returns a new random [KeySize]-byte key from crypto/rand,
// encoded the way [ParseKeyRing] reads it: base64url without padding (RFC
// 4648 §5), 43 characters. See runtime.GenerateKey.
func GenerateKey() string { return keygen.New() }

// Seal encrypts and authenticates plaintext with AES-256-GCM (NIST SP
// 800-38D, random 96-bit nonce) under the newest key and returns the state in
// the layout of [KeyRing], base64url without padding (RFC 4648 §5): 50 + the
// plaintext's length in bytes, times 4/3, characters. It never fails.
func (kr *KeyRing) Seal(plaintext []byte) string {
	k := kr.keys[0]
	ns := k.aead.NonceSize()
	buf := make([]byte, 1+keyIDSize+ns, 1+keyIDSize+ns+len(plaintext)+k.aead.Overhead())
	buf[0] = stateFormatVersion
	copy(buf[1:], k.id[:])
	_, _ = rand.Read(buf[1+keyIDSize:])
	nonce := buf[1+keyIDSize:]
	out := k.aead.Seal(buf, nonce, plaintext, buf[:1+keyIDSize])
	return base64.RawURLEncoding.EncodeToString(out)
}

// Open authenticates and decrypts a state made by [KeyRing.Seal] under any key
// in the ring. States longer than maxLen characters are rejected before
// decoding (maxLen <= 0 means no limit). The error is one of
// [ErrStateTooLarge], [ErrStateEncoding], [ErrStateFormat], [ErrStateKey] or
// [ErrStateAuth].
func (kr *KeyRing) Open(state string, maxLen int) ([]byte, error) {
	if maxLen > 0 && len(state) > maxLen {
		return nil, ErrStateTooLarge
	}
	// Strict: a state whose last character differs only in its unused bits
	// is a different string and must not open. encoding/base64 skips line
	// breaks even then, so they are refused first: one state, one spelling.
	if strings.ContainsAny(state, "\r\n") {
		return nil, ErrStateEncoding
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(state)
	if err != nil {
		return nil, ErrStateEncoding
	}
	if len(raw) < 1+keyIDSize || raw[0] != stateFormatVersion {
		return nil, ErrStateFormat
	}
	var id [keyIDSize]byte
	copy(id[:], raw[1:])
	for _, k := range kr.keys {
		if k.id != id {
			continue
		}
		ns := k.aead.NonceSize()
		if len(raw) < 1+keyIDSize+ns+k.aead.Overhead() {
			return nil, ErrStateFormat
		}
		nonce := raw[1+keyIDSize : 1+keyIDSize+ns]
		pt, err := k.aead.Open(nil, nonce, raw[1+keyIDSize+ns:], raw[:1+keyIDSize])
		if err != nil {
			return nil, ErrStateAuth
		}
		return pt, nil
	}
	return nil, ErrStateKey
}
