package format

import "strings"

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
