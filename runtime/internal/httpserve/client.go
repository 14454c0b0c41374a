package httpserve

import (
	"crypto/rand"
	"encoding/base64"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientAddress is the address by which the adapters count an anonymous
// client of an HTTP request whose peer is remoteAddr (http.Request's
// RemoteAddr, "host:port"): its IP address, or for IPv6 its /64 prefix
// ("2001:db8:1:2::/64"), the block one host or customer usually holds
// whole (RFC 6177), so that a client rotating through its own addresses
// counts as one. It is remoteAddr's host when that is no IP address.
// Behind a reverse proxy every client's peer is the proxy.
func ClientAddress(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.WithZone("").Prefix(64)
		return p.String()
	}
	return ip.String()
}

// clientHeader carries [ClientAddress] of a request from the adapter's
// HTTP handler to its tool handler: the SDKs give a tool handler the HTTP
// request's header, not the request. Its value starts with clientToken, a
// random string drawn when the process starts, so that a client cannot set
// it: one sent by a client is replaced, and a value without the token (a
// server that serves the SDK's handler directly) is not read.
const clientHeader = "Mcpgen-Client-Address"

var clientToken = func() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}()

// MarkClient records [ClientAddress] of r in r's header for [ClientFrom],
// replacing whatever the client sent under that name. The adapters' HTTP
// handlers call it on every request.
func MarkClient(r *http.Request) {
	r.Header.Set(clientHeader, clientToken+" "+ClientAddress(r.RemoteAddr))
}

// ClientFrom returns the address [MarkClient] recorded in h, or "" when h
// holds none that this process recorded.
func ClientFrom(h http.Header) string {
	v := h.Get(clientHeader)
	addr, ok := strings.CutPrefix(v, clientToken+" ")
	if !ok {
		return ""
	}
	return addr
}
