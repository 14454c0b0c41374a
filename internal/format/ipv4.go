package format

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
