package redisstore

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/redis/go-redis/v9"

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
// unset) and Store and PageStore from MCPGEN_REDIS_URL (one [Store] for
// both, from [FromEnv], which connects and checks the server's
// configuration; one server, a Redis Cluster or Sentinel, in the URL forms
// [NewClient] documents and docs/redis.md shows; when unset, both stay nil:
// the process's in-memory store).
// warn, when non-nil, is called at most once with [WarnEphemeralKeys] or
// [WarnSharedKeysWithoutRedis], and once more with [Persistence.Warning]
// when the Redis server keeps no append-only file. The returned close
// function closes the Redis client (a no-op without one). Errors: a
// malformed key (the error names it), a malformed Redis URL (the error
// names the part that is wrong), a bad MCPGEN_REDIS_FENCE, or [New]'s (Redis unreachable, an
// evicting maxmemory-policy, CONFIG refused).
func OptionsFromEnv(ctx context.Context, warn func(msg string)) (opts runtime.Options, close func() error, err error) {
	close = func() error { return nil }
	keys, ephemeral, err := runtime.KeyRingFromEnvOrEphemeral()
	if err != nil {
		return opts, close, err
	}
	store, ok, err := FromEnv(ctx)
	if err != nil {
		return runtime.Options{}, close, err
	}
	opts.Keys = keys
	if ok {
		opts.Store, opts.PageStore, close = store, store, store.Close
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

// FromEnv returns a Store on the Redis at $MCPGEN_REDIS_URL (see [EnvURL];
// one server, a Redis Cluster or Sentinel, in the forms [NewClient] takes)
// and true, made by [New] with the default options ([Options.SkipConfigCheck]
// from $MCPGEN_REDIS_SKIP_CONFIG_CHECK, [EnvSkipConfigCheck]; [Options.Fence]
// from $MCPGEN_REDIS_FENCE, [EnvFence]: [FenceOn] for a Sentinel URL unless
// it says otherwise) on a client sized for a busy server (see
// [ClientOptions]). When the variable is unset or empty it returns nil,
// false, nil. Errors: the URL is malformed (the error names the variable
// and the part that is wrong, secrets redacted), MCPGEN_REDIS_FENCE is
// not auto, on or off (checked before connecting), or New's (the server is
// unreachable or misconfigured; on Sentinel the error names the master and
// the sentinels). [Store.Close] closes the client it made.
// MCPGEN_REDIS_FENCE is checked even when the URL is unset.
func FromEnv(ctx context.Context) (*Store, bool, error) {
	return fromEnv(ctx, os.Getenv)
}

// fromEnv is FromEnv reading the variables through getenv.
func fromEnv(ctx context.Context, getenv func(string) string) (*Store, bool, error) {
	skip := strings.TrimSpace(getenv(EnvSkipConfigCheck))
	opts := &Options{SkipConfigCheck: skip == "1" || strings.EqualFold(skip, "true")}
	switch strings.ToLower(strings.TrimSpace(getenv(EnvFence))) { // checked with or without a URL: a typo stops the server
	case "", "auto":
	case "on":
		opts.Fence = FenceOn
	case "off":
		opts.Fence = FenceOff
	default:
		return nil, false, fmt.Errorf("%s is %q: want auto (the default: fenced by node on a cluster and on Sentinel, decided per operation on one address), on or off", EnvFence, getenv(EnvFence))
	}
	raw := strings.TrimSpace(getenv(EnvURL))
	if raw == "" {
		return nil, false, nil
	}
	c, topo, err := NewClient(ctx, raw)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", EnvURL, err)
	}
	if topo == Sentinel && opts.Fence == FenceAuto {
		opts.Fence = FenceOn
	}
	s, err := New(ctx, c, opts)
	if err != nil {
		_ = c.Close()
		if o, perr := redis.ParseFailoverURL(raw); topo == Sentinel && perr == nil {
			return nil, false, fmt.Errorf("%s (the master %q through the sentinels %s): %w", EnvURL, o.MasterName, strings.Join(o.SentinelAddrs, ", "), err)
		}
		return nil, false, fmt.Errorf("%s: %w", EnvURL, err)
	}
	s.owned = true
	return s, true, nil
}

// ClientOptions sets what the store needs of a go-redis client's options,
// keeping what o sets already: ContextTimeoutEnabled (the store's deadline
// applies on the socket, and no watchdog goroutine runs per operation), and
// PoolTimeout the store's [DefaultTimeout] when 0. The pool keeps go-redis's
// default size (10 connections per GOMAXPROCS): under 2000 concurrent
// rounds on 2 CPUs, larger pools (64, 128) made the slowest store operations
// slower, not faster (more connections contending for the same CPUs).
// [FromEnv] applies it; call it on options of your own before
// redis.NewClient.
func ClientOptions(o *redis.Options) {
	o.ContextTimeoutEnabled = true
	if o.PoolTimeout == 0 {
		o.PoolTimeout = DefaultTimeout
	}
}
