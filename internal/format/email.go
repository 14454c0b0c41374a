package format

import "strings"

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
func isAtext(c byte) bool { return atextSet[c] }
