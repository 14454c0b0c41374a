package runtime

import "github.com/mcpgen/mcpgen/runtime/internal/engine"

// Key ring constants.
const (
	// KeySize is the length in bytes of a requestState key: AES-256.
	KeySize = engine.KeySize
	// EnvStateKeys names the environment variable that [KeyRingFromEnv]
	// reads: comma-separated base64 keys (standard or URL-safe alphabet,
	// padded or not), newest first.
	EnvStateKeys = engine.EnvStateKeys
)

// Errors returned by [KeyRing.Open]. They say why a state was rejected;
// callers map every one of them to JSON-RPC -32602. ErrContentTooLarge and
// ErrArgumentsTooLarge are what [Options.OnReject] hears for a request over
// the other size limits of [Options].
var (
	// ErrContentTooLarge: a retry's form answer is over MaxContentBytes,
	// MaxStringBytes or MaxSelectItems.
	ErrContentTooLarge = engine.ErrContentTooLarge
	// ErrArgumentsTooLarge: the arguments are over MaxArgumentsBytes.
	ErrArgumentsTooLarge = engine.ErrArgumentsTooLarge
	ErrStateEncoding     = engine.ErrStateEncoding
	ErrStateTooLarge     = engine.ErrStateTooLarge
	ErrStateFormat       = engine.ErrStateFormat
	ErrStateKey          = engine.ErrStateKey
	ErrStateAuth         = engine.ErrStateAuth
)

// KeyRing seals and opens requestState with AES-256-GCM (NIST SP 800-38D).
//
// The first key is the newest: [KeyRing.Seal] always uses it. [KeyRing.Open]
// accepts a state sealed under any key in the ring, found by its key id (the
// first 8 bytes of SHA-256 of the key), so adding a key never renumbers the
// others and rotation is: prepend the new key, keep the old one until states
// sealed under it have expired, then drop it.
//
// A sealed state is base64url without padding (RFC 4648 §5) of
// version(1) ‖ keyID(8) ‖ nonce(12) ‖ ciphertext‖tag(16), with version and key id
// as additional authenticated data. A KeyRing is safe for concurrent use.
//
// Its methods:
//
//   - Seal(plaintext []byte) string: encrypts and authenticates plaintext
//     with AES-256-GCM (NIST SP 800-38D, random 96-bit nonce) under the
//     newest key and returns the state in the layout of [KeyRing], base64url
//     without padding (RFC 4648 §5): 50 + the plaintext's length in bytes,
//     times 4/3, characters.
//   - Open(state string, maxLen int) ([]byte, error): authenticates and
//     decrypts a state made by [KeyRing.Seal] under any key in the ring.
type KeyRing = engine.KeyRing

// NewKeyRing returns a key ring of the given keys, newest first. Each key must
// be exactly [KeySize] bytes; duplicates are an error. At least one key is
// required.
func NewKeyRing(keys ...[]byte) (*KeyRing, error) { return engine.NewKeyRing(keys...) }

// ParseKeyRing parses the [EnvStateKeys] form: comma-separated keys, newest
// first, each 32 bytes in base64 (standard or URL-safe alphabet, padded or
// not; RFC 4648 §4 and §5). Blank items and surrounding spaces are ignored.
// Errors name the position of the bad key, never its value.
func ParseKeyRing(s string) (*KeyRing, error) { return engine.ParseKeyRing(s) }

// KeyRingFromEnv reads [EnvStateKeys]. It returns (nil, nil) when the variable
// is unset or empty, so callers can choose their fallback (see
// [EphemeralKeyRing]).
func KeyRingFromEnv() (*KeyRing, error) { return engine.KeyRingFromEnv() }

// KeyRingFromEnvOrEphemeral reads [EnvStateKeys] like [KeyRingFromEnv]; when
// the variable is unset or empty it falls back to [EphemeralKeyRing] and
// reports ephemeral true, so the caller can warn that only this instance can
// resume its calls. A malformed variable is an error naming the bad key's
// position, never a silent fallback.
func KeyRingFromEnvOrEphemeral() (kr *KeyRing, ephemeral bool, err error) {
	return engine.KeyRingFromEnvOrEphemeral()
}

// EphemeralKeyRing returns a key ring of one random [KeySize]-byte key from
// crypto/rand. States it seals open only in this process: use it for a single
// instance or for tests. It never fails.
func EphemeralKeyRing() *KeyRing { return engine.EphemeralKeyRing() }

// GenerateKey returns a new random [KeySize]-byte key from crypto/rand,
// encoded the way [ParseKeyRing] reads it: base64url without padding
// (RFC 4648 §5), 43 characters. `mcpgen keygen` prints one. It never fails.
func GenerateKey() string { return engine.GenerateKey() }
