package runtime

import "strings"

// This file holds allocation-free checkers for the JSON Schema string formats
// "email", "uri", "date" and "date-time". They are written to agree exactly
// with the format assertions of github.com/santhosh-tekuri/jsonschema/v6
// (v6.0.3, file format.go, together with the parts of net/url, net/netip,
// strconv and time that it calls) for every input, valid UTF-8 or not, because
// generated code promises the same verdict as that validator. Where the
// validator departs from the RFC it cites, these checkers depart the same way;
// each doc comment lists the departures that are known.
//
// None of the checkers allocates, and none panics, whatever the input.

// CheckFormat reports whether s is valid for the JSON Schema format named
// format. It knows "email" ([IsEmail]), "uri" ([IsURI]), "date" ([IsDate]) and
// "date-time" ([IsDateTime]). Any other format name is an annotation only, as
// JSON Schema 2019-09 and later treat unknown formats, so CheckFormat returns
// true for it: it does not claim to check formats such as "uuid" or "ipv4"
// that the validator knows but this package does not.
func CheckFormat(format, s string) bool {
	switch format {
	case "email":
		return IsEmail(s)
	case "uri":
		return IsURI(s)
	case "date":
		return IsDate(s)
	case "date-time":
		return IsDateTime(s)
	}
	return true
}

// IsEmail reports whether s is an "email" as santhosh-tekuri/jsonschema v6
// checks it. The validator follows the summary of RFC 5321/5322 given in
// https://en.wikipedia.org/wiki/Email_address rather than the RFC grammar:
//
//   - The whole address is at most 254 bytes (RFC 5321 section 4.5.3.1.3,
//     path of 256 octets less the angle brackets, as corrected by RFC 3696
//     errata 1690).
//   - The address is split at its last '@'; there must be one.
//   - The local part is at most 64 bytes (RFC 5321 section 4.5.3.1.1).
//   - A local part of two or more bytes that starts and ends with '"' is a
//     quoted string (RFC 5322 section 3.2.4): between the quotes any byte
//     except '"' and '\' is accepted. Otherwise the local part is a
//     dot-atom (RFC 5322 section 3.2.3): ASCII letters, digits and
//     !#$%&'*+-/=?^_`{|}~ in dot-separated runs, with no leading, trailing
//     or doubled dot.
//   - A domain wrapped in '[' ']' is an address literal (RFC 5321 section
//     4.1.3): "IPv6:" followed by an IPv6 address as net/netip parses it
//     (no zone), or else an IPv4 address of four dot-separated decimals
//     0-255 with no leading zero.
//   - Any other domain is a host name: one optional trailing dot, at most
//     253 bytes, labels of 1-63 ASCII letters, digits and '-' that neither
//     start nor end with '-' (RFC 1123 section 2.1).
//
// Known disagreements with the RFCs, all inherited from the validator:
// an empty local part is accepted ("@example.com"); the quoted form accepts
// control characters, non-UTF-8 bytes and an empty string but not the
// quoted-pair escapes (\" and \\) that RFC 5322 allows; the IPv4 literal
// parses each decimal with strconv.Atoi, so a sign is accepted and leading
// zeros are accepted after it ("[+1.-0.+001.2]"); single-label, all-numeric
// and trailing-dot domains are accepted; internationalised addresses
// (RFC 6531) are rejected; limits count bytes.
func IsEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}

	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		inner := local[1 : len(local)-1]
		for i := 0; i < len(inner); i++ {
			if inner[i] == '\\' || inner[i] == '"' {
				return false
			}
		}
	} else {
		for i := 0; i < len(local); i++ {
			c := local[i]
			if c == '.' {
				if i == 0 || i == len(local)-1 || local[i-1] == '.' {
					return false
				}
				continue
			}
			if !isAtext(c) {
				return false
			}
		}
	}

	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		lit := domain[1 : len(domain)-1]
		if strings.HasPrefix(lit, "IPv6:") {
			return isIPv6NoZone(lit[len("IPv6:"):])
		}
		return isAtoiIPv4(lit)
	}
	return isHostname(domain)
}

// isAtext reports whether c is an RFC 5322 atext character (ASCII only).
func isAtext(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~':
		return true
	}
	return false
}

// isHostname mirrors the validator's "hostname" format: one trailing dot is
// dropped, at most 253 bytes remain, and each dot-separated label has 1-63
// ASCII letters, digits or hyphens and neither starts nor ends with '-'.
func isHostname(s string) bool {
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			c := s[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
			continue
		}
		label := s[start:i]
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		start = i + 1
	}
	return true
}

// isAtoiIPv4 mirrors the validator's "ipv4" format: exactly four
// dot-separated groups; a group longer than one byte must not start with
// '0'; each group is read by strconv.Atoi (so an optional '+' or '-' sign
// followed by one or more ASCII digits, value fitting an int) and must be in
// 0..255.
func isAtoiIPv4(s string) bool {
	groups := 0
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			continue
		}
		groups++
		if groups > 4 || !isAtoiOctet(s[start:i]) {
			return false
		}
		start = i + 1
	}
	return groups == 4
}

func isAtoiOctet(g string) bool {
	if len(g) > 1 && g[0] == '0' {
		return false
	}
	neg := false
	if len(g) > 0 && (g[0] == '+' || g[0] == '-') {
		neg = g[0] == '-'
		g = g[1:]
	}
	if len(g) == 0 {
		return false
	}
	n := 0
	for i := 0; i < len(g); i++ {
		c := g[i]
		if c < '0' || c > '9' {
			return false
		}
		if n <= 255 { // saturate: larger values are rejected either way
			n = n*10 + int(c-'0')
		}
	}
	if neg {
		return n == 0
	}
	return n <= 255
}

// isIPv6NoZone reports whether net/netip.ParseAddr(s) returns an IPv6
// address without a zone. It reproduces ParseAddr's dispatch (the first of
// '.', ':' and '%' decides the parser) and parseIPv6 from Go 1.26. Any '%'
// means either a parse error or a zone, both of which the callers reject.
func isIPv6NoZone(s string) bool {
	if strings.IndexByte(s, '%') >= 0 {
		return false
	}
	// netip.ParseAddr hands s to parseIPv4 if a '.' comes before any ':'.
	for i := 0; ; i++ {
		if i == len(s) || s[i] == '.' {
			return false
		}
		if s[i] == ':' {
			break
		}
	}

	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if len(s) == 0 {
			return true
		}
	}
	i := 0
	for i < 16 {
		off := 0
		acc := uint32(0)
	scan:
		for ; off < len(s); off++ {
			c := s[off]
			switch {
			case '0' <= c && c <= '9':
				acc = acc<<4 + uint32(c-'0')
			case 'a' <= c && c <= 'f':
				acc = acc<<4 + uint32(c-'a'+10)
			case 'A' <= c && c <= 'F':
				acc = acc<<4 + uint32(c-'A'+10)
			default:
				break scan
			}
			if off > 3 || acc > 0xffff {
				return false
			}
		}
		if off == 0 {
			return false
		}
		if off < len(s) && s[off] == '.' {
			if ellipsis < 0 && i != 12 {
				return false
			}
			if i+4 > 16 {
				return false
			}
			if !isNetipIPv4(s) {
				return false
			}
			s = ""
			i += 4
			break
		}
		i += 2
		s = s[off:]
		if len(s) == 0 {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return false
			}
			ellipsis = i
			s = s[1:]
			if len(s) == 0 {
				break
			}
		}
	}
	if len(s) != 0 {
		return false
	}
	if i < 16 {
		return ellipsis >= 0
	}
	return ellipsis < 0
}

// isNetipIPv4 mirrors net/netip's parseIPv4Fields: four dot-separated
// decimals 0..255, no empty field, no leading zero.
func isNetipIPv4(s string) bool {
	val, pos, digLen := 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			if digLen == 1 && val == 0 {
				return false
			}
			val = val*10 + int(c-'0')
			digLen++
			if val > 255 {
				return false
			}
		case c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' {
				return false
			}
			if pos == 3 {
				return false
			}
			pos++
			val, digLen = 0, 0
		default:
			return false
		}
	}
	return pos == 3
}

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

// IsDate reports whether s is a "date" as santhosh-tekuri/jsonschema v6
// checks it, i.e. time.Parse("2006-01-02", s) succeeds: RFC 3339 section 5.6
// full-date, exactly "YYYY-MM-DD" with ASCII digits, month 01-12 and day 01
// up to the length of that month, February having 29 days in Gregorian leap
// years (divisible by 4, except centuries not divisible by 400). Year 0000
// is accepted. No known disagreement with RFC 3339.
func IsDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	year := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month := int(s[5]-'0')*10 + int(s[6]-'0')
	day := int(s[8]-'0')*10 + int(s[9]-'0')
	if month < 1 || month > 12 || day < 1 {
		return false
	}
	return day <= daysInMonth(month, year)
}

func daysInMonth(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// IsDateTime reports whether s is a "date-time" as santhosh-tekuri/jsonschema
// v6 checks it: RFC 3339 section 5.6 date-time, full-date "T" full-time,
// that is [IsDate] for the first ten bytes, 'T' or 't', then
// "hh:mm:ss[.frac](Z|z|+hh:mm|-hh:mm)" with hour 00-23, minute 00-59,
// second 00-60, one or more fraction digits and offset hour 00-23, minute
// 00-59. A leap second (second 60) is accepted only if the time converted to
// UTC with the offset is 23:59 (RFC 3339 section 5.7); the date is not
// consulted, so 23:59:60Z is accepted on any day.
//
// Known disagreement with RFC 3339, inherited from the validator: each
// two-byte hour, minute, second and offset field is read by strconv.Atoi, so
// a leading '+' ("+1" for 01) or "-0" is accepted in place of a digit, as in
// "2024-01-01T+1:-0:+5+-0:+3".
func IsDateTime(s string) bool {
	if len(s) < 20 {
		return false
	}
	if s[10] != 't' && s[10] != 'T' {
		return false
	}
	if !IsDate(s[:10]) {
		return false
	}
	return isTime(s[11:])
}

// isTime mirrors the validator's "time" format (RFC 3339 full-time).
func isTime(str string) bool {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return false
	}
	h, ok1 := atoi2(str[0], str[1])
	m, ok2 := atoi2(str[3], str[4])
	sec, ok3 := atoi2(str[6], str[7])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	str = str[8:]
	if len(str) > 0 && str[0] == '.' {
		n := 1
		for n < len(str) && '0' <= str[n] && str[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		str = str[n:]
	}
	if str != "z" && str != "Z" {
		if len(str) != 6 || str[3] != ':' {
			return false
		}
		var sign int
		switch str[0] {
		case '+':
			sign = -1
		case '-':
			sign = +1
		default:
			return false
		}
		zh, ok1 := atoi2(str[1], str[2])
		zm, ok2 := atoi2(str[4], str[5])
		if !ok1 || !ok2 || zh > 23 || zm > 59 {
			return false
		}
		hm := (h*60 + m) + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	if sec >= 60 && (h != 23 || m != 59) {
		return false
	}
	return true
}

// atoi2 parses a two-byte field the way strconv.Atoi does and rejects
// negative values: two digits, or '+' and a digit, or "-0".
func atoi2(a, b byte) (int, bool) {
	if b < '0' || b > '9' {
		return 0, false
	}
	d := int(b - '0')
	switch {
	case '0' <= a && a <= '9':
		return int(a-'0')*10 + d, true
	case a == '+':
		return d, true
	case a == '-' && d == 0:
		return 0, true
	}
	return 0, false
}
