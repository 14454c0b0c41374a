package redisstore

import "context"

// FromEnvOf is FromEnv reading the variables from env instead of the
// process's environment, so that tests of it can run in parallel.
func FromEnvOf(ctx context.Context, env map[string]string) (*Store, bool, error) {
	return fromEnv(ctx, func(k string) string { return env[k] })
}
