package format

import "strings"

// IsURI reports whether s is a "uri" as santhosh-tekuri/jsonschema v6
// checks it: net/url.Parse (Go 1.26) accepts it, the result has a scheme
// (url.IsAbs), and a host name containing ':' is a bracketed IPv6 address
// without zone. The rules of RFC 3986 (section 3, "scheme:hier-part
// [?query] [#fragment]") that this amounts to are:
//
//   - The part before the first '#' holds no ASCII control byte
//     (0x00-0x1F, 0x7F).
//   - It starts with a scheme, ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ),
//     followed by ':' (section 3.1).
//   - Everything from the first '?' up to '#' is the query and is not
//     checked. If what is left does not start with '/', it is an opaque
//     part and is not checked either.
//   - After "//" comes an authority up to the next '/' (section 3.2). Its
//     userinfo (before the last '@') holds only unreserved, sub-delims,
//     ':', '@' and well-formed %XX. Its host is either "[" IPv6address "]"
//     (net/netip syntax, no zone, no IPvFuture; section 3.2.2) or a name of
//     unreserved, sub-delims, '<', '>', '"', ']' and non-ASCII bytes, with
//     %XX escapes only for bytes >= 0x80 or "%25". At most one ':' may
//     follow, and only ASCII digits after it (section 3.2.3).
//   - In the path and the fragment every '%' starts a %XX escape with two
//     hex digits (section 2.1); nothing else is checked there.
//
// Known disagreements with RFC 3986, all inherited from net/url via the
// validator: spaces, '\', '{', '}', '^', '`', '<', '>', '"', '[' and ']',
// non-ASCII and even non-UTF-8 bytes are accepted in the opaque part, path,
// query and fragment; control bytes are accepted in the fragment; '%' is not
// checked in the opaque part or the query; host names accept '<', '>', '"',
// ']' and raw non-ASCII bytes but reject %-escaped ASCII other than %25
// ("http://%41" is rejected although RFC 3986 allows it); IPvFuture
// literals ("[v1.x]") and RFC 6874 zones are rejected; an empty host
// ("http://") is accepted, as RFC 3986 allows.
func IsURI(s string) bool {
	if ok, sure := plainURI(s); sure {
		return ok
	}
	return generalURI(s)
}

// generalURI is [IsURI] without its fast path.
func generalURI(s string) bool {
	u, frag := s, ""
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u, frag = s[:i], s[i+1:]
	}
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < ' ' || c == 0x7f {
			return false
		}
	}

	// scheme
	if len(u) == 0 || !isAlpha(u[0]) {
		return false
	}
	i := 1
	for i < len(u) && (isAlpha(u[i]) || '0' <= u[i] && u[i] <= '9' || u[i] == '+' || u[i] == '-' || u[i] == '.') {
		i++
	}
	if i == len(u) || u[i] != ':' {
		return false
	}
	rest := u[i+1:]

	if !validPercent(frag) {
		return false
	}
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		rest = rest[:q]
	}
	if len(rest) == 0 || rest[0] != '/' {
		return true // opaque: scheme:opaque
	}
	if len(rest) >= 2 && rest[1] == '/' {
		authority, path := rest[2:], ""
		if j := strings.IndexByte(authority, '/'); j >= 0 {
			authority, path = authority[:j], authority[j:]
		}
		if !validAuthority(authority) {
			return false
		}
		rest = path
	}
	return validPercent(rest)
}

// plainURI is the fast path of [IsURI] for the common shape
// "scheme://host/path" made only of letters, digits, "-._~", sub-delims and
// '/' after the "://": then there is no control byte, port, userinfo, IP
// literal, %-escape, query or fragment to check, and the host's bytes are
// all ones net/url takes, so the URI is valid. sure is false when s has any
// other shape; the general rules then decide.
func plainURI(s string) (ok, sure bool) {
	if len(s) == 0 || !isAlpha(s[0]) {
		return false, true
	}
	i := 1
	for i < len(s) && schemeSet[s[i]] {
		i++
	}
	if len(s)-i < 3 || s[i] != ':' || s[i+1] != '/' || s[i+2] != '/' {
		return false, false
	}
	for i += 3; i < len(s); i++ {
		if !plainURISet[s[i]] {
			return false, false
		}
	}
	return true, true
}

func isAlpha(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// validPercent reports whether every '%' in s starts a %XX escape.
func validPercent(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

func validAuthority(a string) bool {
	host := a
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		userinfo := a[:at]
		host = a[at+1:]
		for i := 0; i < len(userinfo); i++ {
			if !isUserinfoByte(userinfo[i]) {
				return false
			}
		}
		if !validPercent(userinfo) {
			return false
		}
	}
	return validHost(host)
}

// isUserinfoByte mirrors net/url's validUserinfo (which walks runes, so any
// non-ASCII byte fails).
func isUserinfoByte(c byte) bool {
	if isAlpha(c) || '0' <= c && c <= '9' {
		return true
	}
	switch c {
	case '-', '.', '_', ':', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '%', '@':
		return true
	}
	return false
}

// isHostByte reports whether the ASCII byte c may appear unescaped in a host
// for net/url (its encodeHost table).
func isHostByte(c byte) bool {
	if isAlpha(c) || '0' <= c && c <= '9' {
		return true
	}
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '[', ']', '<', '>', '"', '-', '_', '.', '~':
		return true
	}
	return false
}

func validHost(h string) bool {
	ob := strings.LastIndexByte(h, '[')
	if ob > 0 {
		return false
	}
	if ob == 0 {
		cb := strings.LastIndexByte(h, ']')
		if cb < 0 || !allDigits(h[cb+1:], true) {
			return false
		}
		return isIPv6NoZone(h[1:cb])
	}
	if c := strings.IndexByte(h, ':'); c >= 0 {
		// net/url rejects a second colon for http(s) and the validator's
		// own IPv6 check rejects it for every other scheme.
		if strings.LastIndexByte(h, ':') != c || !allDigits(h[c+1:], false) {
			return false
		}
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c == '%' {
			if i+2 >= len(h) || !isHex(h[i+1]) || !isHex(h[i+2]) {
				return false
			}
			if h[i+1] < '8' && h[i:i+3] != "%25" {
				return false
			}
			i += 2
			continue
		}
		if c < 0x80 && !isHostByte(c) {
			return false
		}
	}
	return true
}

// allDigits reports whether s is all ASCII digits; with colon it instead
// reports whether s is empty or ':' followed by digits (url's
// validOptionalPort).
func allDigits(s string, colon bool) bool {
	if colon {
		if s == "" {
			return true
		}
		if s[0] != ':' {
			return false
		}
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
