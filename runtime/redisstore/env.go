package redisstore

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/runtime"
)

// Warnings [OptionsFromEnv] may pass to its warn function.
const (
	// WarnEphemeralKeys: MCPGEN_STATE_KEYS is unset.
	WarnEphemeralKeys = "MCPGEN_STATE_KEYS is not set: using a random key; only this instance can resume its calls"
	// WarnSharedKeysWithoutRedis: MCPGEN_STATE_KEYS is set (several
	// instances may resume each other's calls) but MCPGEN_REDIS_URL is not.
	WarnSharedKeysWithoutRedis = "MCPGEN_STATE_KEYS is set but MCPGEN_REDIS_URL is not: flows are remembered in this instance's memory only, so a retry sent to another instance is refused (\"start the call again\"), and every flow in progress is refused after a restart"
)

// OptionsFromEnv returns the [runtime.Options] a server reads from its
// environment, the one place examples take them from: Keys from
// MCPGEN_STATE_KEYS ([runtime.KeyRingFromEnvOrEphemeral]: a random key when
// unset) and Store from MCPGEN_REDIS_URL ([FromEnv], which connects and
// checks the server's configuration; one server, a Redis Cluster or
// Sentinel, in the URL forms [NewClient] documents and docs/redis.md
// shows; when unset, Store stays nil, the process's in-memory store).
// warn, when non-nil, is called at most once with [WarnEphemeralKeys] or
// [WarnSharedKeysWithoutRedis], and once more with [Persistence.Warning]
// when the Redis server keeps no append-only file. The returned close
// function closes the Redis client (a no-op without one). Errors: a
// malformed key (the error names it), a malformed Redis URL (the error
// names the part that is wrong), a bad MCPGEN_REDIS_FENCE or
// MCPGEN_STATE_FORMAT (json sets [runtime.Options.StateJSON]), or [New]'s (Redis unreachable, an
// evicting maxmemory-policy, CONFIG refused).
func OptionsFromEnv(ctx context.Context, warn func(msg string)) (opts runtime.Options, close func() error, err error) {
	close = func() error { return nil }
	keys, ephemeral, err := runtime.KeyRingFromEnvOrEphemeral()
	if err != nil {
		return opts, close, err
	}
	switch f := os.Getenv(runtime.EnvStateFormat); f {
	case "", "binary":
	case "json":
		opts.StateJSON = true
	default:
		return opts, close, fmt.Errorf("mcpgen: %s=%q: want json (states written as JSON, for a rolling upgrade from a version that wrote them so) or binary (the default)", runtime.EnvStateFormat, f)
	}
	store, ok, err := FromEnv(ctx)
	if err != nil {
		return runtime.Options{}, close, err
	}
	opts.Keys = keys
	if ok {
		opts.Store, close = store, store.Close
	}
	if warn != nil {
		switch {
		case ephemeral:
			warn(WarnEphemeralKeys)
		case !ok:
			warn(WarnSharedKeysWithoutRedis)
		}
		if ok {
			if w := store.Persistence().Warning(); w != "" {
				warn(w)
			}
		}
	}
	return opts, close, nil
}
