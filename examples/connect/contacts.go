package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// Contact is one entry of a user's address book at the contacts service.
type Contact struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// ContactsService is the third-party service the tool imports from: it
// lists the contacts of the account an API key belongs to.
type ContactsService interface {
	// Contacts returns the contacts of key's account, or an error wrapping
	// [ErrKeyRefused] when the service does not accept key.
	Contacts(ctx context.Context, key string) ([]Contact, error)
}

// ErrKeyRefused is what [ContactsService.Contacts] returns (wrapped, with
// the service's reason) for a key the service does not accept. Its text
// never holds the key.
var ErrKeyRefused = errors.New("the contacts service refused this API key")

// fakeContacts is the example's contacts service, in process: two accounts
// with fixed development keys (never use them elsewhere).
type fakeContacts struct {
	byKey map[string][]Contact
}

func newFakeContacts() *fakeContacts {
	return &fakeContacts{byKey: map[string][]Contact{
		"ck-alice-123": {
			{Name: "Ada Lovelace", Email: "ada@example.com"},
			{Name: "Grace Hopper", Email: "grace@example.com"},
			{Name: "Alan Turing", Email: "alan@example.com"},
		},
		"ck-bob-456": {
			{Name: "Edsger Dijkstra", Email: "edsger@example.com"},
		},
	}}
}

// Contacts implements [ContactsService]. A key not shaped like the
// service's keys and an unknown key are refused with different reasons, as
// a real service would say "malformed" or "unknown".
func (f *fakeContacts) Contacts(_ context.Context, key string) ([]Contact, error) {
	if !strings.HasPrefix(key, "ck-") {
		return nil, fmt.Errorf("%w: contacts service keys start with ck-", ErrKeyRefused)
	}
	list, ok := f.byKey[key]
	if !ok {
		return nil, fmt.Errorf("%w: no account has this key (check it in your contacts service settings)", ErrKeyRefused)
	}
	return append([]Contact(nil), list...), nil
}

// KeyVault keeps each user's API key for the contacts service on the
// server, sealed with the key ring, so that a user enters it once. What it
// stores is ciphertext bound to the user: a sealed key copied under another
// user's name does not open.
type KeyVault struct {
	keys *runtime.KeyRing
	kv   kv
}

// kv is where a KeyVault puts its sealed values: memory or Redis.
type kv interface {
	get(ctx context.Context, user string) (string, bool, error)
	put(ctx context.Context, user, sealed string) error
	del(ctx context.Context, user string) error
}

// vaultFor returns a KeyVault sealing with opts.Keys, in the Redis of
// opts.Store when it is the Redis store (MCPGEN_REDIS_URL: every instance
// sees the key), in memory otherwise.
func vaultFor(opts runtime.Options, client redis.UniversalClient) *KeyVault {
	if client != nil {
		return &KeyVault{keys: opts.Keys, kv: redisKV{c: client, prefix: "mcpgen:connect:apikey:"}}
	}
	return &KeyVault{keys: opts.Keys, kv: &memKV{m: map[string]string{}}}
}

// vaultPrefix starts the plaintext of a sealed key, with the user's name,
// so that a value sealed for one purpose or user opens for no other.
const vaultPrefix = "mcpgen-connect-apikey\x00"

// Get returns user's key, or ok false when none is kept (or what is kept
// does not open: sealed by keys no longer in the ring, or for another user).
func (v *KeyVault) Get(ctx context.Context, user string) (key string, ok bool, err error) {
	sealed, ok, err := v.kv.get(ctx, user)
	if err != nil || !ok {
		return "", false, err
	}
	pt, err := v.keys.Open(sealed, 4096)
	prefix := vaultPrefix + user + "\x00"
	if err != nil || !strings.HasPrefix(string(pt), prefix) {
		return "", false, nil
	}
	return string(pt[len(prefix):]), true, nil
}

// Put keeps key as user's, replacing any earlier one.
func (v *KeyVault) Put(ctx context.Context, user, key string) error {
	return v.kv.put(ctx, user, v.keys.Seal([]byte(vaultPrefix+user+"\x00"+key)))
}

// Delete forgets user's key (the service stopped accepting it).
func (v *KeyVault) Delete(ctx context.Context, user string) error {
	return v.kv.del(ctx, user)
}

type memKV struct {
	mu sync.Mutex
	m  map[string]string
}

func (m *memKV) get(_ context.Context, user string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.m[user]
	return s, ok, nil
}

func (m *memKV) put(_ context.Context, user, sealed string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[user] = sealed
	return nil
}

func (m *memKV) del(_ context.Context, user string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, user)
	return nil
}

// redisKV keeps each user's sealed key under prefix+user.
type redisKV struct {
	c      redis.UniversalClient
	prefix string
}

func (r redisKV) get(ctx context.Context, user string) (string, bool, error) {
	s, err := r.c.Get(ctx, r.prefix+user).Result()
	if errors.Is(err, redis.Nil) {
		return "", false, nil
	}
	return s, err == nil, err
}

func (r redisKV) put(ctx context.Context, user, sealed string) error {
	return r.c.Set(ctx, r.prefix+user, sealed, 0).Err()
}

func (r redisKV) del(ctx context.Context, user string) error {
	return r.c.Del(ctx, r.prefix+user).Err()
}
