package httpserve

import (
	"net/http"
	"testing"
)

func TestClientAddress(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.2:5000":             "127.0.0.2",
		"[::ffff:10.0.0.7]:80":       "10.0.0.7",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::/64",
		"[fe80::1%eth0]:1":           "fe80::/64",
		"pipe":                       "pipe",
		"[2001:db8:1:3::1]:443":      "2001:db8:1:3::/64",
	} {
		if got := ClientAddress(in); got != want {
			t.Errorf("ClientAddress(%q) = %q, want %q", in, got, want)
		}
	}
}

// A client's own header is replaced, and a header this process did not
// write is not read.
func TestClientHeaderCannotBeForged(t *testing.T) {
	r, _ := http.NewRequest(http.MethodPost, "http://x/mcp", nil)
	r.RemoteAddr = "192.0.2.1:1234"
	r.Header.Set(clientHeader, "203.0.113.9")
	if got := ClientFrom(r.Header); got != "" {
		t.Errorf("a client's own header read as %q", got)
	}
	MarkClient(r)
	if got := ClientFrom(r.Header); got != "192.0.2.1" {
		t.Errorf("ClientFrom = %q, want the peer 192.0.2.1", got)
	}
	if n := len(r.Header.Values(clientHeader)); n != 1 {
		t.Errorf("%d values of the header, want 1", n)
	}
}
