package callclient

import (
	"fmt"
	"net/http"
	"strings"
)

// headerFlag is -H "Name: value", repeatable.
type headerFlag []string

func (h *headerFlag) String() string { return strings.Join(*h, ", ") }

func (h *headerFlag) Set(s string) error {
	if _, _, err := parseHeader(s); err != nil {
		return err
	}
	*h = append(*h, s)
	return nil
}

// header merges the environment's header lines (env) with the flags: a
// flag replaces the environment's header of the same name; repeated flags
// of one name all go.
func (h headerFlag) header(env string) (http.Header, error) {
	out := http.Header{}
	for _, line := range strings.Split(env, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, err := parseHeader(line)
		if err != nil {
			return nil, fmt.Errorf("$%s: %v", EnvHeaders, err)
		}
		out.Add(name, value)
	}
	fromFlags := http.Header{}
	for _, s := range h {
		name, value, _ := parseHeader(s)
		fromFlags.Add(name, value)
	}
	for name, values := range fromFlags {
		out[name] = values
	}
	return out, nil
}

// parseHeader reads "Name: value".
func parseHeader(s string) (string, string, error) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return "", "", fmt.Errorf("header %q: want Name: value, e.g. 'Authorization: Bearer TOKEN'", s)
	}
	return http.CanonicalHeaderKey(name), strings.TrimSpace(value), nil
}

// headerTransport adds the headers to every HTTP request the client sends.
type headerTransport struct {
	headers http.Header
	base    http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for name, values := range t.headers {
			r.Header[name] = values
		}
	}
	return t.base.RoundTrip(r)
}
